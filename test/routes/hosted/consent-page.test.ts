/**
 * The hosted bank consent page, driven end to end through inject: create a consent, GET its
 * authorizationUrl, submit the form, follow the redirect to the callback, read accounts.
 */
import t from 'tap';
import { json } from '../../helpers/app.js';
import { SANDBOX_BANKS } from '../../../fixtures/banks.js';
import { aisApp } from '../../helpers/ais.js';
import { TEST_CAUSE } from '../../helpers/engine.js';
import { scaled } from '../../helpers/speed.js';

// several app instances per file on a shared machine: more than tap's default 30 s
t.setTimeout(scaled(180_000));

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const path = (url: string) => new URL(url).pathname;

t.test('authorize end to end: page, form, redirect to callbackUrl, then read accounts', async (t) => {
  const ctx = await aisApp(t);
  const { app, merchantId } = ctx;
  const consent = await ctx.createConsent('user-typical', { callbackUrl: 'https://merchant.test/return?session=abc' });

  const page = await app.inject({ method: 'GET', url: path(consent.authorizationUrl) });
  t.equal(page.statusCode, 200);
  t.match(page.headers['content-type'], /^text\/html; charset=utf-8/);
  t.equal(page.headers['cache-control'], 'no-store');
  t.match(page.headers['content-security-policy'], /default-src 'none'/);
  const html = page.body;
  t.match(html, /<html lang="en">/);
  t.match(html, /Acme Shop ApS/);
  for (const bank of SANDBOX_BANKS) t.match(html, `value="${bank.bankId}"`, `bank ${bank.bankId} offered`);
  for (const p of ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail']) t.match(html, p);
  t.match(html, /2025-01-01 00:00 UTC/, 'date window: from');
  t.match(html, /<form method="post"/);
  t.match(html, /<input type="radio" id="f-bankId" name="bankId" value="nordlys-bank"[^>]* required>/);
  t.match(html, /<label for="f-bankId">/, 'radios are labelled');
  t.match(html, /<button type="submit" name="action" value="authorize">/);
  t.match(html, /<button type="submit" name="action" value="deny" class="danger" formnovalidate>/);
  t.notMatch(html, /<script|<link|src="http|href="http/, 'no scripts, no external assets');

  // authorize without choosing a bank: the form again, with the error, nothing changed
  const noBank = await app.inject({ method: 'POST', url: path(consent.authorizationUrl), headers: FORM, payload: 'action=authorize' });
  t.equal(noBank.statusCode, 400);
  t.match(noBank.body, /Choose your bank/);
  t.match(noBank.body, /aria-invalid="true"/);
  t.equal(app.store.consents.get(consent.requestId)?.status, 'pending');

  const post = await app.inject({
    method: 'POST',
    url: path(consent.authorizationUrl),
    headers: FORM,
    payload: 'action=authorize&bankId=fjord-sparekasse',
  });
  t.equal(post.statusCode, 303);
  const location = new URL(post.headers.location as string);
  t.equal(`${location.origin}${location.pathname}`, 'https://merchant.test/return');
  t.equal(location.searchParams.get('session'), 'abc', 'the callback keeps its own query');
  t.equal(location.searchParams.get('status'), 'authorized');
  t.equal(location.searchParams.get('requestId'), consent.requestId);
  const consentId = location.searchParams.get('consentId');
  t.match(consentId, /^cns_[0-9a-f]{32}$/);
  const row = app.store.consents.get(consent.requestId)!;
  t.equal(row.status, 'authorized');
  t.equal(row.consent_id, consentId);
  t.equal(row.bank_id, 'fjord-sparekasse');

  // the partner now reads accounts with the consent
  const accounts = await app.inject({
    method: 'POST',
    url: '/v1/ais/accounts',
    headers: await ctx.bearer('user-typical'),
    payload: { userId: 'user-typical', merchantId },
  });
  t.equal(accounts.statusCode, 200);
  t.equal(json(accounts).consentId, consentId);
  t.equal(json(accounts).totalAccounts, 3);

  // a second decision changes nothing: back to the page (POST-redirect-GET), which shows the outcome
  const again = await app.inject({ method: 'POST', url: path(consent.authorizationUrl), headers: FORM, payload: 'action=deny' });
  t.equal(again.statusCode, 303);
  t.equal(again.headers.location, path(consent.authorizationUrl));
  t.equal(app.store.consents.get(consent.requestId)?.status, 'authorized');
  const view = await app.inject({ method: 'GET', url: path(consent.authorizationUrl) });
  t.equal(view.statusCode, 200);
  t.match(view.body, /Access authorized/);
  t.match(view.body, consentId!);
  t.notMatch(view.body, /<form/);
});

t.test('deny: failed with errorMessage, redirect with status=failed and error', async (t) => {
  const ctx = await aisApp(t);
  const consent = await ctx.createConsent('u1', { callbackUrl: 'http://localhost:3000/cb' });
  const post = await ctx.app.inject({ method: 'POST', url: path(consent.authorizationUrl), headers: FORM, payload: 'action=deny' });
  t.equal(post.statusCode, 303);
  const location = new URL(post.headers.location as string);
  t.equal(location.searchParams.get('status'), 'failed');
  t.equal(location.searchParams.get('error'), 'access_denied');
  t.equal(location.searchParams.get('requestId'), consent.requestId);
  t.notOk(location.searchParams.has('consentId'));
  const list = json(
    await ctx.app.inject({ method: 'GET', url: `/v1/ais/users/u1/consents?merchantId=${ctx.merchantId}`, headers: await ctx.bearer('u1') }),
  );
  t.match(list[0], { status: 'failed', errorMessage: 'The user denied access at the bank' });
  t.notOk('consentId' in list[0]);
  const view = await ctx.app.inject({ method: 'GET', url: path(consent.authorizationUrl) });
  t.match(view.body, /Access denied/);
  t.match(view.body, /The user denied access at the bank/);
});

t.test('without callbackUrl the page itself shows the result (POST-redirect-GET)', async (t) => {
  const ctx = await aisApp(t);
  const consent = await ctx.createConsent('u1');
  const ok = await ctx.app.inject({
    method: 'POST',
    url: path(consent.authorizationUrl),
    headers: FORM,
    payload: 'bankId=nordlys-bank&action=authorize',
  });
  t.equal(ok.statusCode, 303);
  t.equal(ok.headers.location, path(consent.authorizationUrl));
  const shown = await ctx.app.inject({ method: 'GET', url: ok.headers.location as string });
  t.equal(shown.statusCode, 200);
  t.match(shown.body, /Access authorized/);
  t.match(shown.body, /cns_[0-9a-f]{32}/);
  const other = await ctx.createConsent('u1');
  const denied = await ctx.app.inject({ method: 'POST', url: path(other.authorizationUrl), headers: FORM, payload: 'action=deny' });
  t.equal(denied.statusCode, 303);
  const deniedPage = await ctx.app.inject({ method: 'GET', url: denied.headers.location as string });
  t.match(deniedPage.body, /Access denied/);
  // revoked later: the page says so
  await ctx.app.inject({ method: 'GET', url: path(consent.authorizationUrl) });
  ctx.app.engine.consent(consent.requestId, 'revoke', { cause: TEST_CAUSE });
  const revoked = await ctx.app.inject({ method: 'GET', url: path(consent.authorizationUrl) });
  t.match(revoked.body, /Consent revoked/);
});

t.test('expired, unknown, bogus input and escaping', async (t) => {
  const ctx = await aisApp(t);
  const { app } = ctx;
  const consent = await ctx.createConsent('<script>alert(1)</script>', { expirationDateTime: app.clock.iso(60_000) });
  const page = await app.inject({ method: 'GET', url: path(consent.authorizationUrl) });
  t.notMatch(page.body, /<script>alert/, 'user id escaped');
  t.match(page.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);

  const bogus = await app.inject({
    method: 'POST',
    url: path(consent.authorizationUrl),
    headers: FORM,
    payload: 'action=authorize&bankId=no-such-bank',
  });
  t.equal(bogus.statusCode, 400);
  const noAction = await app.inject({ method: 'POST', url: path(consent.authorizationUrl), headers: FORM, payload: 'bankId=nordlys-bank' });
  t.equal(noAction.statusCode, 400);

  app.clock.advance(60_000);
  const expired = await app.inject({ method: 'GET', url: path(consent.authorizationUrl) });
  t.equal(expired.statusCode, 410);
  t.match(expired.body, /expired/);
  const late = await app.inject({
    method: 'POST',
    url: path(consent.authorizationUrl),
    headers: FORM,
    payload: 'action=authorize&bankId=nordlys-bank',
  });
  t.equal(late.statusCode, 303, 'too late: back to the page, which says it expired');
  t.equal(app.store.consents.get(consent.requestId)?.status, 'expired');

  const unknown = await app.inject({ method: 'GET', url: '/consent/ctk_does-not-exist' });
  t.equal(unknown.statusCode, 404);
  t.match(unknown.headers['content-type'], /text\/html/);
  const unknownPost = await app.inject({ method: 'POST', url: '/consent/ctk_does-not-exist', headers: FORM, payload: 'action=deny' });
  t.equal(unknownPost.statusCode, 404);
});

t.test('the consent page is not in the OpenAPI document', async (t) => {
  const { app } = await aisApp(t);
  const provider = await app.openapiDocument('provider');
  const controls = await app.openapiDocument('controls');
  t.notOk([...Object.keys(provider.paths), ...Object.keys(controls.paths)].some((p) => p.startsWith('/consent')));
  t.ok(provider.paths['/v1/ais/consents']);
  t.ok(provider.paths['/v1/auth/generate-token']);
});
