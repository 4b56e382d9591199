import { readFileSync } from 'node:fs';
import t from 'tap';
import { COMPANIES } from '../../../fixtures/companies.js';
import { build, PARTNER } from '../../helpers/app.js';
import {
  events,
  fastTrackMerchant,
  postForm,
  standardMerchant,
  tagOf,
  textOf,
  validStandardForm,
  VALID_IBAN,
} from '../../helpers/hosted.js';
import { TEST_CAUSE } from '../../helpers/engine.js';

type App = Awaited<ReturnType<typeof build>>;
const merchant = (app: App, id: number) =>
  app.db.prepare('SELECT status, details, company_name FROM merchants WHERE id = ?').get(id) as {
    status: string;
    details: string;
    company_name: string;
  };

t.test('GET the standard form: every section of the contract, labelled fields, no scripts or external assets', async (t) => {
  const app = await build(t);
  const m = await standardMerchant(app);
  const res = await app.inject({ method: 'GET', url: m.path });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /text\/html/);
  t.match(res.headers['content-security-policy'], /default-src 'none'/);
  for (const section of [
    '1. Company registry lookup',
    '2. Company details and address',
    '3. Beneficial owners, directors and signatories',
    '4. Bank account',
    '5. Billing agreement',
  ]) {
    t.match(res.body, section);
  }
  for (const legend of [
    'Beneficial owners',
    'Directors',
    'Signatories',
    'Bank account linking',
    'Billing agreement',
    'Registered address',
  ]) {
    t.match(res.body, `<legend>${legend}</legend>`);
  }
  // every input has a label pointing at it
  const ids = [...res.body.matchAll(/<(?:input|select)[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
  t.ok(ids.length >= 15);
  for (const id of ids) t.match(res.body, `for="${id}"`, `label for ${id}`);
  t.notMatch(res.body, /<script/i);
  t.notMatch(res.body, /\s(src|href)="(https?:)?\/\//);
  t.match(res.body, 'value="Standard Shop ApS"', 'company name prefilled from the partner request');
});

t.test('empty submission: 400, an error next to every required field, first one focused, state unchanged', async (t) => {
  const app = await build(t);
  const m = await standardMerchant(app);
  const res = await postForm(app, m.path, { action: 'submit' });
  t.equal(res.statusCode, 400);
  const expected: Record<string, string> = {
    registrationNumber: 'Enter the company registration number (CVR).',
    companyName: 'Enter the legal company name.',
    street: 'Enter the street and number.',
    postalCode: 'Enter the postal code.',
    city: 'Enter the city.',
    'ubos-0-fullName': 'Enter at least one beneficial owner',
    'directors-0-fullName': 'Enter at least one director',
    'signatories-0-fullName': 'Enter at least one signatory',
    bankId: 'Choose the bank that holds the account.',
    iban: 'Enter the IBAN',
    accountHolderName: 'Enter the name the account is held in.',
    billingAgreement: 'Accept the billing agreement',
  };
  for (const [field, message] of Object.entries(expected)) {
    const id = `f-${field}`;
    t.match(textOf(res.body, `${id}-error`), message, `${field}: message next to the field`);
    t.match(tagOf(res.body, id), /aria-invalid="true"/, `${field}: aria-invalid`);
    t.match(tagOf(res.body, id), new RegExp(`aria-describedby="[^"]*${id}-error`), `${field}: aria-describedby`);
  }
  t.match(tagOf(res.body, 'f-registrationNumber'), /autofocus/, 'first invalid field focused');
  t.equal((res.body.match(/autofocus/g) ?? []).length, 1, 'only one autofocus');
  t.match(res.body, /There are \d+ problems with what you entered/);
  t.match(res.body, 'href="#f-ubos-0-fullName"');
  t.equal(merchant(app, m.merchantId).status, 'pending_onboarding');
  t.same(events(app, 'merchant.onboarding.completed'), []);
});

t.test('field rules: CVR digits, postal code, IBAN checksum, BIC, dates, name for a date', async (t) => {
  const app = await build(t);
  const m = await standardMerchant(app);
  const res = await postForm(
    app,
    m.path,
    validStandardForm({
      registrationNumber: '1234',
      postalCode: '80000',
      iban: 'DK5000400440116244',
      bic: 'XX',
      website: 'not a url',
      street: 'x'.repeat(201),
      'ubos[0].dateOfBirth': '1976-02-30',
      'directors[0].dateOfBirth': '2999-01-01',
      'signatories[0].fullName': '',
      'signatories[0].dateOfBirth': '1981-06-27',
      billingAgreement: '',
    }),
  );
  t.equal(res.statusCode, 400);
  t.match(textOf(res.body, 'f-registrationNumber-error'), 'exactly 8 digits');
  t.match(textOf(res.body, 'f-postalCode-error'), 'A Danish postal code has 4 digits.');
  t.match(textOf(res.body, 'f-iban-error'), 'checksum');
  t.match(textOf(res.body, 'f-bic-error'), '8 or 11');
  t.match(textOf(res.body, 'f-website-error'), 'https://');
  t.match(textOf(res.body, 'f-street-error'), 'at most 200 characters');
  t.match(textOf(res.body, 'f-ubos-0-dateOfBirth-error'), 'real date');
  t.match(textOf(res.body, 'f-directors-0-dateOfBirth-error'), 'in the past');
  t.match(textOf(res.body, 'f-signatories-0-fullName-error'), 'Enter the full name of this signatory.');
  t.match(textOf(res.body, 'f-billingAgreement-error'), 'Accept the billing agreement');
  t.notOk(tagOf(res.body, 'f-city')?.includes('aria-invalid'), 'valid fields are not marked');
  t.match(tagOf(res.body, 'f-city'), 'value="Aarhus C"');
  t.match(tagOf(res.body, 'f-ubos-0-fullName'), 'value="Mads Kjær Nielsen"');
  t.equal(merchant(app, m.merchantId).status, 'pending_onboarding');
});

t.test('registry lookup fills the form; unknown and malformed numbers say so next to the lookup field', async (t) => {
  const app = await build(t);
  const m = await standardMerchant(app);
  const found = await app.inject({ method: 'GET', url: `${m.path}?registrationNumber=DK%2020000007` });
  t.equal(found.statusCode, 200);
  t.match(found.body, 'Found Fjordcykler A/S in the registry');
  t.match(tagOf(found.body, 'f-companyName'), 'value="Fjordcykler A/S"');
  t.match(tagOf(found.body, 'f-street'), 'value="Havnegade 4"');
  t.match(tagOf(found.body, 'f-postalCode'), 'value="8000"');
  t.match(tagOf(found.body, 'f-ubos-1-fullName'), 'value="Ida Bruun Sørensen"', 'both owners');
  t.match(tagOf(found.body, 'f-directors-1-fullName'), 'value="Peter Lund Rasmussen"');
  t.match(tagOf(found.body, 'f-signatories-0-dateOfBirth'), 'value="1981-06-27"');

  const unknown = await app.inject({ method: 'GET', url: `${m.path}?registrationNumber=87654321` });
  t.equal(unknown.statusCode, 200);
  t.match(textOf(unknown.body, 'f-lookup-error'), 'No company with registration number 87654321 in the sandbox registry');
  t.match(tagOf(unknown.body, 'f-lookup'), /aria-invalid="true"[^>]*autofocus/);
  t.match(tagOf(unknown.body, 'f-registrationNumber'), 'value="87654321"', 'the number is carried into the form');

  const malformed = await app.inject({ method: 'GET', url: `${m.path}?registrationNumber=12ab` });
  t.match(textOf(malformed.body, 'f-lookup-error'), 'exactly 8 digits');
});

t.test('hostile registry data and company names are escaped everywhere', async (t) => {
  const app = await build(t);
  const m = await standardMerchant(app, '<script>alert("x")</script>');
  const res = await app.inject({ method: 'GET', url: `${m.path}?registrationNumber=66666666` });
  t.equal(res.statusCode, 200);
  t.notMatch(res.body, /<script>|<img|<b>Sons|<i>Eve/i, 'no injected markup');
  t.match(res.body, '&lt;script&gt;alert(&quot;Hostile &amp; Co&quot;)&lt;/script&gt; ApS');
  t.match(res.body, '&quot;&gt;&lt;img src=x onerror=alert(1)&gt; 1');
  t.match(res.body, 'O&#39;Brien &amp; &lt;b&gt;Sons&lt;/b&gt;');
  t.match(res.body, '<strong>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</strong>');
  // and after submitting it, the status page too
  const form = validStandardForm({
    companyName: COMPANIES.find((c) => c.registrationNumber === '66666666')!.companyName,
    registrationNumber: '66666666',
  });
  t.equal((await postForm(app, m.path, form)).statusCode, 303);
  const status = await app.inject({ method: 'GET', url: m.path });
  t.notMatch(status.body, /<script>/);
});

t.test('add and remove persons without JavaScript', async (t) => {
  const app = await build(t);
  const m = await standardMerchant(app);
  const added = await postForm(app, m.path, { ...validStandardForm(), action: 'add:ubos' });
  t.equal(added.statusCode, 200);
  t.match(tagOf(added.body, 'f-ubos-0-fullName'), 'value="Mads Kjær Nielsen"', 'entered rows kept');
  t.match(tagOf(added.body, 'f-ubos-1-fullName'), /value=""[^>]*autofocus/, 'new row focused');
  t.notMatch(added.body, 'aria-invalid="true"', 'adding a row does not validate');
  t.match(added.body, 'value="remove:ubos:1"');
  t.equal(merchant(app, m.merchantId).status, 'pending_onboarding');

  const removed = await postForm(app, m.path, {
    ...validStandardForm({ 'directors[1].fullName': 'Second Director', 'directors[1].dateOfBirth': '' }),
    action: 'remove:directors:0',
  });
  t.match(tagOf(removed.body, 'f-directors-0-fullName'), 'value="Second Director"');
  t.notOk(tagOf(removed.body, 'f-directors-1-fullName'));
});

t.test('valid submission: 303, awaiting_approval, data stored, merchant.onboarding.completed, status page', async (t) => {
  const app = await build(t);
  const m = await standardMerchant(app);
  const res = await postForm(
    app,
    m.path,
    validStandardForm({ 'directors[1].fullName': 'Peter Lund Rasmussen', 'directors[1].dateOfBirth': '' }),
  );
  t.equal(res.statusCode, 303);
  t.equal(res.headers.location, m.path);
  const row = merchant(app, m.merchantId);
  t.equal(row.status, 'awaiting_approval');
  const onboarding = JSON.parse(row.details).onboarding;
  t.match(onboarding, {
    registrationNumber: '20000007',
    companyName: 'Fjordcykler A/S',
    website: 'https://fjordcykler.example',
    address: { street: 'Havnegade 4', postalCode: '8000', city: 'Aarhus C', countryCode: 'DK' },
    ubos: [{ fullName: 'Mads Kjær Nielsen', dateOfBirth: '1976-11-02' }],
    signatories: [{ fullName: 'Ida Bruun Sørensen', dateOfBirth: '1981-06-27' }],
    bankLinking: { bankId: 'nordlys-bank', iban: VALID_IBAN, accountHolderName: 'Fjordcykler A/S' },
    billingAgreement: { accepted: true, acceptedAt: app.clock.iso() },
  });
  t.same(onboarding.directors, [{ fullName: 'Mads Kjær Nielsen' }, { fullName: 'Peter Lund Rasmussen' }], 'empty date of birth omitted');
  const [event] = events(app, 'merchant.onboarding.completed');
  t.match(event.data, { merchantId: m.merchantId, status: 'awaiting_approval', previousStatus: 'pending_onboarding' });

  const page = await app.inject({ method: 'GET', url: m.path });
  t.equal(page.statusCode, 200);
  t.match(page.body, '<h1>Onboarding submitted</h1>');
  t.match(page.body, 'awaiting approval');
  t.match(page.body, 'data-status="awaiting_approval"');
  t.notMatch(page.body, '<form');

  const again = await postForm(app, m.path, validStandardForm());
  t.equal(again.statusCode, 303, 'a second submission just shows the status');
  t.equal(events(app, 'merchant.onboarding.completed').length, 1);

  const status = await app.inject({ method: 'GET', url: `/v1/partner/merchants/${m.merchantId}/onboarding-status`, headers: PARTNER });
  t.equal(JSON.parse(status.body).onboardingStatus, 'awaiting_approval');

  app.engine.merchant(m.merchantId, 'approve', { cause: TEST_CAUSE });
  const active = await app.inject({ method: 'GET', url: m.path });
  t.match(active.body, '<h1>Merchant account active</h1>');
});

t.test('expired link: 410 telling the merchant to ask the partner; resend-onboarding revives the flow', async (t) => {
  const app = await build(t);
  const m = await standardMerchant(app);
  app.clock.advance(7 * 86_400_000);
  const res = await app.inject({ method: 'GET', url: m.path });
  t.equal(res.statusCode, 410);
  t.match(res.body, '<h1>This onboarding link has expired</h1>');
  t.match(res.body, 'Ask Default sandbox partner to resend the onboarding link');
  t.equal((await postForm(app, m.path, validStandardForm())).statusCode, 410);
  t.equal(merchant(app, m.merchantId).status, 'pending_onboarding');

  const resent = await app.inject({ method: 'POST', url: `/v1/partner/merchants/${m.merchantId}/resend-onboarding`, headers: PARTNER });
  t.equal(resent.statusCode, 200);
  const fresh = new URL(JSON.parse(resent.body).onboardingUrl).pathname;
  t.not(fresh, m.path);
  t.equal((await app.inject({ method: 'GET', url: fresh })).statusCode, 200);
  t.equal((await app.inject({ method: 'GET', url: m.path })).statusCode, 410, 'the replaced link stays dead');
  t.equal((await app.inject({ method: 'GET', url: '/onboarding/onb_neverissued' })).statusCode, 410);
});

t.test('fast-track completion: bank linking + billing agreement -> awaiting_approval', async (t) => {
  const app = await build(t);
  const m = await fastTrackMerchant(app);
  t.equal(m.status, 'pending_partner_ais');
  const form = await app.inject({ method: 'GET', url: m.path });
  t.equal(form.statusCode, 200);
  t.match(form.body, '<h1>Complete your onboarding</h1>');
  t.match(tagOf(form.body, 'f-iban'), `value="${VALID_IBAN}"`, 'IBAN from the fast-track request');
  t.match(tagOf(form.body, 'f-accountHolderName'), 'value="Fast Track Bikes ApS"');
  t.notMatch(form.body, 'Beneficial owners', 'not the long form');

  const empty = await postForm(app, m.path, { action: 'submit', iban: '' });
  t.equal(empty.statusCode, 400);
  t.match(textOf(empty.body, 'f-bankId-error'), 'Choose the bank');
  t.match(textOf(empty.body, 'f-iban-error'), 'Enter the IBAN');
  t.match(textOf(empty.body, 'f-billingAgreement-error'), 'Accept the billing agreement');
  t.match(tagOf(empty.body, 'f-bankId'), /autofocus/);
  t.equal(merchant(app, m.merchantId).status, 'pending_completion');

  const ok = await postForm(app, m.path, {
    action: 'submit',
    bankId: 'fjord-sparekasse',
    iban: 'dk50 0040 0440 1162 43',
    accountHolderName: 'Fast Track Bikes ApS',
    billingAgreement: 'yes',
  });
  t.equal(ok.statusCode, 303);
  const row = merchant(app, m.merchantId);
  t.equal(row.status, 'awaiting_approval');
  const details = JSON.parse(row.details);
  t.match(details.completion, { bankLinking: { bankId: 'fjord-sparekasse', iban: VALID_IBAN }, billingAgreement: { accepted: true } });
  t.ok(details.fastTrack, 'the fast-track data is kept');
  t.match(events(app, 'merchant.onboarding.completed')[0].data, { previousStatus: 'pending_completion', status: 'awaiting_approval' });
  t.match((await app.inject({ method: 'GET', url: m.path })).body, 'Onboarding submitted');
});

t.test('fast-track whose sub-TPP failed falls back to the standard form, prefilled from the request', async (t) => {
  const app = await build(t);
  const m = await fastTrackMerchant(app, {
    registrationNumber: '00000000',
    address: { street: 'Testvej 1', city: 'Odense', postalCode: '5000' },
  });
  t.equal(m.status, 'pending_onboarding');
  const res = await app.inject({ method: 'GET', url: m.path });
  t.match(res.body, '<h1>Merchant onboarding</h1>');
  t.match(tagOf(res.body, 'f-registrationNumber'), 'value="00000000"');
  t.match(tagOf(res.body, 'f-street'), 'value="Testvej 1"');
  t.match(tagOf(res.body, 'f-iban'), `value="${VALID_IBAN}"`);
});

t.test('README lists every fixture company', async (t) => {
  const readme = readFileSync(new URL('../../../docs/sandbox-controls.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('### Hosted pages'));
  t.ok(readme.includes('### Hosted pages'), 'README has the Hosted pages section');
  for (const c of COMPANIES) t.match(section, `| ${c.registrationNumber} |`, `${c.registrationNumber} in the README table`);
});

t.test('closed states show a status page; a POST there only redirects', async (t) => {
  const app = await build(t);
  const rejected = await standardMerchant(app);
  app.engine.merchant(rejected.merchantId, 'reject', { cause: TEST_CAUSE });
  const page = await app.inject({ method: 'GET', url: rejected.path });
  t.equal(page.statusCode, 200);
  t.match(page.body, '<h1>Application rejected</h1>');
  t.match(page.body, 'data-status="rejected"');
  const post = await postForm(app, rejected.path, validStandardForm());
  t.equal(post.statusCode, 303);
  t.equal(merchant(app, rejected.merchantId).status, 'rejected');

  const inactive = await standardMerchant(app);
  app.engine.merchant(inactive.merchantId, 'activate', { cause: TEST_CAUSE });
  app.clock.advance(8 * 86_400_000); // the link's 7 days are over, but the merchant is past onboarding
  t.match((await app.inject({ method: 'GET', url: inactive.path })).body, '<h1>Merchant account active</h1>');
  app.engine.merchant(inactive.merchantId, 'deactivate', { cause: TEST_CAUSE });
  t.match((await app.inject({ method: 'GET', url: inactive.path })).body, '<h1>Merchant account deactivated</h1>');
});
