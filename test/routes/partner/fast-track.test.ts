import t from 'tap';
import { FAST_TRACK_MAGIC } from '../../../src/domain/magic.js';
import { at, build, schemaErrors, T0 } from '../../helpers/app.js';
import { call, count, fastTrackBody, VALID_IBAN } from '../../helpers/partner.js';

const URL = '/v1/partner/merchants/fast-track';

t.test('fast-track success: pending_partner_ais in the response, pending_completion stored', async (t) => {
  const app = await build(t);
  const person = { fullName: 'Jane Doe', address: 'Vej 1, 2100 København Ø', dateOfBirth: '1980-02-29' };
  const r = await call(
    app,
    'POST',
    URL,
    fastTrackBody({
      iban: 'dk50 0040 0440 1162 43',
      contactPhone: '+45 12345678',
      partnerRefId: 'p-9',
      bic: 'DABADKKK',
      mccCode: '5411',
      isSoleTrader: false,
      ubos: [person],
      directors: [{ fullName: 'John Roe' }],
      signatories: [person],
      address: { street: 'Vej 1', city: 'København', postalCode: '2100' },
    }),
  );
  t.equal(r.status, 200);
  t.same(schemaErrors('FastTrackMerchantResponse', r.body), []);
  t.match(r.body, {
    companyName: 'Fast Co ApS',
    contactEmail: 'ops@fast.test',
    status: 'pending_partner_ais',
    subTppStatus: 'created',
    subTppMessage: null,
    subTppId: /^stpp_[0-9a-f]+$/,
    expiresAt: new Date(Date.parse(T0) + 7 * 86_400_000).toISOString(),
  });
  t.equal(r.body.onboardingUrl, `http://127.0.0.1:4010/onboarding/${r.body.onboardingToken}`);

  const row = app.store.merchants.get(r.body.merchantId, 'sandbox-partner')!;
  t.equal(row.status, 'pending_completion');
  t.equal(row.kind, 'fast_track');
  t.equal(row.sub_tpp_status, 'created');
  t.equal(row.sub_tpp_id, r.body.subTppId);
  t.equal(row.partner_ref_id, 'p-9');
  const details = JSON.parse(row.details).fastTrack;
  t.equal(details.iban, VALID_IBAN, 'IBAN stored in electronic form');
  t.equal(details.primaryUseCase, 'PIS: In store merchant payment', 'primaryUseCase default');
  t.equal(details.address.countryCode, 'DK', 'countryCode default');
  t.same(details.ubos, [person]);
  t.equal(details.mccCode, '5411');

  const status = await call(app, 'GET', `/v1/partner/merchants/${r.body.merchantId}/onboarding-status`);
  t.same(status.body, {
    merchantId: r.body.merchantId,
    onboardingStatus: 'pending_completion',
    subTppId: r.body.subTppId,
    subTppDetails: { status: 'created', isActivated: false },
  });
});

t.test('every primaryUseCase value is accepted; countryCode given is kept', async (t) => {
  const app = await build(t);
  const values = [
    'PIS: In store merchant payment',
    'PIS: eCommerce merchant payment',
    'PIS: Funding an account',
    'PIS: Paying a bill',
    'PIS: Paying off debt',
  ];
  for (const primaryUseCase of values) {
    const r = await call(app, 'POST', URL, fastTrackBody({ primaryUseCase, address: { countryCode: 'SE' } }));
    t.equal(r.status, 200, primaryUseCase);
    const details = JSON.parse(app.store.merchants.get(r.body.merchantId, 'sandbox-partner')!.details).fastTrack;
    t.equal(details.primaryUseCase, primaryUseCase);
    t.equal(details.address.countryCode, 'SE');
  }
});

t.test('sole trader', async (t) => {
  const app = await build(t);
  const ok = await call(
    app,
    'POST',
    URL,
    fastTrackBody({ isSoleTrader: true, soleTrader: { fullName: 'Solo Person', dateOfBirth: '1990-12-31' } }),
  );
  t.equal(ok.status, 200);
  const missing = await call(app, 'POST', URL, fastTrackBody({ isSoleTrader: true }));
  t.equal(missing.status, 400);
  t.match(missing.body, { code: 'validation_failed', field: 'soleTrader' });
});

t.test('sub-TPP failure magic values: 200, pending_onboarding, subTppStatus failed', async (t) => {
  const app = await build(t);
  for (const magic of FAST_TRACK_MAGIC) {
    const r = await call(app, 'POST', URL, fastTrackBody({ [magic.field]: magic.value }));
    t.equal(r.status, 200, magic.value);
    t.same(schemaErrors('FastTrackMerchantResponse', r.body), []);
    t.match(r.body, { status: 'pending_onboarding', subTppStatus: 'failed', subTppMessage: magic.subTppMessage });
    t.notOk('subTppId' in r.body, 'no sub-TPP: subTppId absent, never null');
    t.match(r.body.onboardingUrl, /\/onboarding\/onb_/);
    const row = app.store.merchants.get(r.body.merchantId, 'sandbox-partner')!;
    t.equal(row.status, 'pending_onboarding');
    t.equal(row.sub_tpp_status, 'failed');
    t.equal(row.sub_tpp_message, magic.subTppMessage);
    const status = await call(app, 'GET', `/v1/partner/merchants/${r.body.merchantId}/onboarding-status`);
    t.same(status.body.subTppDetails, { status: 'failed', isActivated: false });
    t.equal(status.body.onboardingStatus, 'pending_onboarding');
    t.notOk('subTppId' in status.body, 'absent in the onboarding status too');
  }
  t.equal(FAST_TRACK_MAGIC[0].subTppMessage, 'Company registry lookup failed: registration number not found');
});

t.test('every validation failure class names the field and changes nothing', async (t) => {
  const app = await build(t);
  const before = count(app, 'merchants');
  const without = (k: string) => {
    const b = fastTrackBody();
    delete b[k];
    return b;
  };
  const cases: [string, Record<string, unknown>, string][] = [
    // missing required
    ...['companyName', 'contactEmail', 'registrationNumber', 'website', 'iban'].map((k): [string, Record<string, unknown>, string] => [
      'missing',
      without(k),
      k,
    ]),
    // wrong types
    ['wrong type', fastTrackBody({ companyName: 1 }), 'companyName'],
    ['wrong type', fastTrackBody({ registrationNumber: 12345678 }), 'registrationNumber'],
    ['wrong type', fastTrackBody({ isSoleTrader: 'yes' }), 'isSoleTrader'],
    ['wrong type', fastTrackBody({ ubos: { fullName: 'A' } }), 'ubos'],
    ['wrong type', fastTrackBody({ address: 'Vej 1' }), 'address'],
    ['wrong type', fastTrackBody({ mccCode: 5411 }), 'mccCode'],
    // bad formats
    ['bad format', fastTrackBody({ contactEmail: 'ops@' }), 'contactEmail'],
    ['bad format', fastTrackBody({ website: 'fast.test' }), 'website'],
    ['bad format', fastTrackBody({ website: 'ftp://fast.test' }), 'website'],
    ['bad format', fastTrackBody({ mccCode: '541' }), 'mccCode'],
    ['bad format', fastTrackBody({ mccCode: '54111' }), 'mccCode'],
    ['bad format', fastTrackBody({ mccCode: '54a1' }), 'mccCode'],
    ['bad format', fastTrackBody({ bic: 'dabadkkk' }), 'bic'],
    ['bad format', fastTrackBody({ bic: 'DABADK' }), 'bic'],
    ['bad format', fastTrackBody({ contactPhone: 'call me' }), 'contactPhone'],
    ['bad format', fastTrackBody({ iban: 'DK50-0040-0440-1162-43' }), 'iban'],
    ['bad format', fastTrackBody({ iban: 'DK500040044011624' }), 'iban'],
    ['bad format', fastTrackBody({ address: { countryCode: 'dk' } }), 'address.countryCode'],
    ['bad format', fastTrackBody({ address: { countryCode: 'DNK' } }), 'address.countryCode'],
    ['bad format', fastTrackBody({ ubos: [{ fullName: 'A', dateOfBirth: '1980-13-01' }] }), 'ubos[0].dateOfBirth'],
    [
      'bad format',
      fastTrackBody({ directors: [{ fullName: 'A' }, { fullName: 'B', dateOfBirth: '01-02-1980' }] }),
      'directors[1].dateOfBirth',
    ],
    ['bad format', fastTrackBody({ soleTrader: { fullName: 'A', dateOfBirth: '1981-02-29' } }), 'soleTrader.dateOfBirth'],
    ['missing', fastTrackBody({ signatories: [{ address: 'x' }] }), 'signatories[0].fullName'],
    [
      'future date',
      fastTrackBody({ directors: [{ fullName: 'A' }, { fullName: 'B', dateOfBirth: '2026-01-15' }] }),
      'directors[1].dateOfBirth',
    ],
    ['future date', fastTrackBody({ soleTrader: { fullName: 'A', dateOfBirth: '2030-01-01' } }), 'soleTrader.dateOfBirth'],
    // bad enum
    ['bad enum', fastTrackBody({ primaryUseCase: 'PIS: Something else' }), 'primaryUseCase'],
    ['bad enum', fastTrackBody({ primaryUseCase: 'pis: in store merchant payment' }), 'primaryUseCase'],
    // too long
    ['too long', fastTrackBody({ companyName: 'x'.repeat(201) }), 'companyName'],
    ['too long', fastTrackBody({ registrationNumber: '1'.repeat(41) }), 'registrationNumber'],
    ['too long', fastTrackBody({ ubos: [{ fullName: 'y'.repeat(201) }] }), 'ubos[0].fullName'],
    ['too long', fastTrackBody({ ubos: Array.from({ length: 26 }, () => ({ fullName: 'A' })) }), 'ubos'],
    ['too long', fastTrackBody({ address: { city: 'c'.repeat(101) } }), 'address.city'],
    // checksum
    ['checksum', fastTrackBody({ iban: 'DK5000400440116244' }), 'iban'],
    ['checksum', fastTrackBody({ iban: 'GB82WEST12345698765433' }), 'iban'],
  ];
  for (const [kind, payload, field] of cases) {
    const r = await call(app, 'POST', URL, payload);
    t.equal(r.status, 400, `${kind}: ${field}`);
    t.match(r.body, { status: 400, code: 'validation_failed', in: 'body' }, `${kind}: ${field} -> ${r.body?.message}`);
    t.equal(r.body.field, at(field), `${kind}: names ${field}`);
    t.same(schemaErrors('ErrorBody', r.body), []);
  }
  const checksum = await call(app, 'POST', URL, fastTrackBody({ iban: 'DK5000400440116244' }));
  t.match(checksum.body.message, /checksum/);
  t.equal(count(app, 'merchants'), before, 'no merchant written by a rejected request');
});

t.test('unknown properties, nested ones included: dropped by default, 400 unknown_field under --strict', async (t) => {
  const lax = await build(t);
  const ok = await call(
    lax,
    'POST',
    URL,
    fastTrackBody({ vatNumber: 'DK1', address: { city: 'Aarhus', region: 'Midt' }, ubos: [{ fullName: 'A', share: 50 }] }),
  );
  t.equal(ok.status, 200);
  const details = JSON.parse(lax.store.merchants.get(ok.body.merchantId, 'sandbox-partner')!.details).fastTrack;
  t.same(details.address, { city: 'Aarhus', countryCode: 'DK' }, 'unknown address property dropped');
  t.same(details.ubos, [{ fullName: 'A' }]);
  t.notOk('vatNumber' in details);

  const strict = await build(t, { config: { strict: true } });
  const top = await call(strict, 'POST', URL, fastTrackBody({ vatNumber: 'DK1' }));
  t.match(top.body, { status: 400, code: 'unknown_field', field: '/vatNumber' });
  const nested = await call(strict, 'POST', URL, fastTrackBody({ ubos: [{ fullName: 'A', share: 50 }] }));
  t.match(nested.body, { status: 400, code: 'unknown_field', field: '/ubos/0/share' });
});
