import t from 'tap';
import { at, build, forceMerchantStatus, PARTNER, schemaErrors, T0 } from '../../helpers/app.js';
import { call, count, standardMerchant, testMerchant } from '../../helpers/partner.js';

const DAY = 86_400_000;

t.test('POST /v1/partner/merchants/test: activated at once, with a message', async (t) => {
  const app = await build(t);
  const r = await call(app, 'POST', '/v1/partner/merchants/test', { companyName: 'Shop ApS' });
  t.equal(r.status, 200);
  t.same(schemaErrors('TestMerchantResponse', r.body), []);
  t.match(r.body, { companyName: 'Shop ApS', status: 'activated', message: /activated/ });
  const row = app.store.merchants.get(r.body.merchantId, 'sandbox-partner')!;
  t.equal(row.status, 'activated');
  t.equal(row.kind, 'test');
  t.equal(row.onboarding_token, null);
  const status = await call(app, 'GET', `/v1/partner/merchants/${r.body.merchantId}/onboarding-status`);
  t.match(status.body, { onboardingStatus: 'activated', subTppId: /^stpp_/, subTppDetails: { status: 'active', isActivated: true } });

  for (const [payload, field] of [
    [{}, 'companyName'],
    [{ companyName: 7 }, 'companyName'],
    [{ companyName: '' }, 'companyName'],
    [{ companyName: 'x'.repeat(201) }, 'companyName'],
  ] as const) {
    const bad = await call(app, 'POST', '/v1/partner/merchants/test', payload);
    t.equal(bad.status, 400);
    t.match(bad.body, { code: 'validation_failed', in: 'body' });
    t.equal(bad.body.field, at(field), field);
  }
});

t.test('test merchants are not available in production (404)', async (t) => {
  const app = await build(t, {
    config: { environment: 'production', partnerClientId: 'sandbox-partner', partnerClientSecret: 'sandbox-secret' },
  });
  const before = count(app, 'merchants');
  const r = await call(app, 'POST', '/v1/partner/merchants/test', { companyName: 'Shop ApS' });
  t.equal(r.status, 404);
  t.match(r.body, { code: 'not_available_in_production' });
  t.equal(count(app, 'merchants'), before);
  t.equal(before, 0, 'no default merchant is seeded in production');
});

t.test('onboarding-status of a standard merchant, unknown ids and bad params', async (t) => {
  const app = await build(t);
  const m = await standardMerchant(app);
  const r = await call(app, 'GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`);
  t.equal(r.status, 200);
  t.same(schemaErrors('OnboardingStatusResponse', r.body), []);
  t.same(r.body, {
    merchantId: m.merchantId,
    onboardingStatus: 'pending_onboarding',
    subTppDetails: { status: 'not_created', isActivated: false },
  });
  t.notOk('subTppId' in r.body, 'no sub-TPP yet: subTppId is absent, never null (the contract types it as a string)');

  const missing = await call(app, 'GET', '/v1/partner/merchants/999999/onboarding-status');
  t.equal(missing.status, 404);
  t.match(missing.body, { code: 'merchant_not_found' });
  const bad = await call(app, 'GET', '/v1/partner/merchants/abc/onboarding-status');
  t.equal(bad.status, 400);
  t.match(bad.body, { code: 'validation_failed', field: 'merchantId' });
  const zero = await call(app, 'GET', '/v1/partner/merchants/0/onboarding-status');
  t.equal(zero.status, 400);
});

t.test('onboarding-status follows the merchant through later states', async (t) => {
  const app = await build(t);
  const m = await standardMerchant(app);
  const expected = {
    awaiting_approval: { status: 'created', isActivated: false },
    activated: { status: 'active', isActivated: true },
    inactive: { status: 'inactive', isActivated: false },
    rejected: { status: 'rejected', isActivated: false },
  } as const;
  for (const [state, details] of Object.entries(expected)) {
    forceMerchantStatus(app, m.merchantId, state as keyof typeof expected);
    const r = await call(app, 'GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`);
    t.same(schemaErrors('OnboardingStatusResponse', r.body), []);
    t.equal(r.body.onboardingStatus, state);
    t.same(r.body.subTppDetails, details, state);
    t.match(r.body.subTppId, /^stpp_/, `${state}: the sub-TPP exists once onboarding is submitted`);
  }
});

t.test('GET /v1/partner/merchants: paginated by id, defaults 20/100, envelope', async (t) => {
  const app = await build(t);
  // the seeded default merchant is 100001; add 24 more
  for (let i = 0; i < 12; i++) await standardMerchant(app);
  for (let i = 0; i < 12; i++) await testMerchant(app);
  const first = await call(app, 'GET', '/v1/partner/merchants');
  t.equal(first.status, 200);
  t.same(schemaErrors('MerchantList', first.body), []);
  t.match(first.body, { page: 1, limit: 20, total: 25 });
  t.equal(first.body.items.length, 20);
  t.same(
    first.body.items.map((m: { merchantId: number }) => m.merchantId),
    Array.from({ length: 20 }, (_, i) => 100001 + i),
    'ordered by merchantId',
  );
  const second = await call(app, 'GET', '/v1/partner/merchants?page=2');
  t.same(
    second.body.items.map((m: { merchantId: number }) => m.merchantId),
    [100021, 100022, 100023, 100024, 100025],
  );
  const past = await call(app, 'GET', '/v1/partner/merchants?page=9&limit=10');
  t.same(past.body, { items: [], page: 9, limit: 10, total: 25 });
  const max = await call(app, 'GET', '/v1/partner/merchants?limit=100');
  t.equal(max.body.items.length, 25);
  const small = await call(app, 'GET', '/v1/partner/merchants?page=3&limit=2');
  t.same(
    small.body.items.map((m: { merchantId: number }) => m.merchantId),
    [100005, 100006],
  );
  t.match(first.body.items[0], { merchantId: 100001, type: 'test', status: 'activated', subTppStatus: 'active' });
  t.match(first.body.items[1], {
    type: 'standard',
    status: 'pending_onboarding',
    subTppStatus: 'not_created',
    contactEmail: 'std@shop.test',
  });
  t.notOk('subTppId' in first.body.items[1], 'no sub-TPP yet: subTppId absent');
  for (const item of first.body.items) {
    for (const field of ['contactEmail', 'partnerRefId', 'subTppId'])
      t.not(item[field], null, `${item.merchantId} ${field}: absent or a string, never null`);
  }

  for (const [qs, field] of [
    ['limit=101', 'limit'],
    ['limit=0', 'limit'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['limit=2.5', 'limit'],
  ]) {
    const r = await call(app, 'GET', `/v1/partner/merchants?${qs}`);
    t.equal(r.status, 400, qs);
    t.match(r.body, { code: 'validation_failed', field }, qs);
  }
});

t.test('resend-onboarding: new token and link, fresh 7 days, old link dead', async (t) => {
  const app = await build(t);
  const m = await standardMerchant(app);
  app.clock.advance(3 * DAY);
  const r = await call(app, 'POST', `/v1/partner/merchants/${m.merchantId}/resend-onboarding`);
  t.equal(r.status, 200);
  t.same(schemaErrors('ResendOnboardingResponse', r.body), []);
  t.equal(r.body.merchantId, m.merchantId);
  t.equal(r.body.status, 'pending_onboarding');
  t.not(r.body.onboardingToken, m.onboardingToken);
  t.equal(r.body.onboardingUrl, `http://127.0.0.1:4010/onboarding/${r.body.onboardingToken}`);
  t.equal(r.body.expiresAt, new Date(Date.parse(T0) + 10 * DAY).toISOString());
  t.equal(app.store.merchants.getByOnboardingToken(m.onboardingToken), undefined, 'previous token no longer finds the merchant');
  t.equal(app.store.merchants.getByOnboardingToken(r.body.onboardingToken)?.id, m.merchantId);
  const row = app.store.merchants.get(m.merchantId, 'sandbox-partner')!;
  t.equal(row.onboarding_expires_at, r.body.expiresAt);
  t.equal(row.updated_at, app.clock.iso());

  // a fast-tracked merchant may also get a new link (pending_completion)
  const ft = await call(app, 'POST', '/v1/partner/merchants/fast-track', {
    companyName: 'F',
    contactEmail: 'f@f.test',
    registrationNumber: '1',
    website: 'https://f.test',
    iban: 'DK5000400440116243',
  });
  const again = await call(app, 'POST', `/v1/partner/merchants/${ft.body.merchantId}/resend-onboarding`);
  t.equal(again.status, 200);
  t.equal(again.body.status, 'pending_completion');

  // an expired link (the contract's use case) can be replaced too
  app.clock.advance(8 * DAY);
  const late = await call(app, 'POST', `/v1/partner/merchants/${m.merchantId}/resend-onboarding`);
  t.equal(late.status, 200);
  t.equal(late.body.expiresAt, new Date(Date.parse(T0) + 18 * DAY).toISOString());

  // no body is expected; a JSON body is ignored
  const withBody = await call(app, 'POST', `/v1/partner/merchants/${m.merchantId}/resend-onboarding`, { x: 1 });
  t.equal(withBody.status, 200);
  // clients that send Content-Type: application/json with no body are fine; malformed JSON is not
  const url = `/v1/partner/merchants/${m.merchantId}/resend-onboarding`;
  const empty = await app.inject({ method: 'POST', url, headers: { ...PARTNER, 'content-type': 'application/json' }, payload: '' });
  t.equal(empty.statusCode, 200, 'empty JSON body accepted');
  const bare = await app.inject({ method: 'POST', url, headers: PARTNER });
  t.equal(bare.statusCode, 200, 'no body, no content type');
  const broken = await app.inject({ method: 'POST', url, headers: { ...PARTNER, 'content-type': 'application/json' }, payload: '{"x":' });
  t.equal(broken.statusCode, 400);
  t.equal(JSON.parse(broken.body).code, 'malformed_json');
  const tokenBefore = app.store.merchants.get(m.merchantId, 'sandbox-partner')!.onboarding_token;
  for (const payload of ['123', '"x"', '[]', '1e999']) {
    const notObject = await app.inject({ method: 'POST', url, headers: { ...PARTNER, 'content-type': 'application/json' }, payload });
    t.equal(notObject.statusCode, 400, `body ${payload}`);
    t.match(JSON.parse(notObject.body), { code: 'validation_failed', field: '', in: 'body' });
  }
  // a body in another Content-Type is not ignored silently: 415 (found by the long fuzz run)
  for (const [type, payload] of [
    ['text/plain; charset=utf-8', '1e999'],
    ['text/plain', 'x'],
    ['application/x-www-form-urlencoded', '-1e999'],
    ['application/x-www-form-urlencoded', 'a=1'],
  ]) {
    const other = await app.inject({ method: 'POST', url, headers: { ...PARTNER, 'content-type': type }, payload });
    t.equal(other.statusCode, 415, `${type} body ${payload}`);
    t.same(schemaErrors('ErrorBody', JSON.parse(other.body)), []);
    t.equal(JSON.parse(other.body).code, 'unsupported_media_type');
  }
  t.equal(app.store.merchants.get(m.merchantId, 'sandbox-partner')!.onboarding_token, tokenBefore, 'rejected bodies change nothing');
  for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
    const emptyOther = await app.inject({ method: 'POST', url, headers: { ...PARTNER, 'content-type': type }, payload: '' });
    t.equal(emptyOther.statusCode, 200, `an empty ${type} body is no body`);
  }
});

t.test('resend-onboarding: 409 once onboarding is over, 404 for unknown ids', async (t) => {
  const app = await build(t);
  const tm = await testMerchant(app);
  const r = await call(app, 'POST', `/v1/partner/merchants/${tm.merchantId}/resend-onboarding`);
  t.equal(r.status, 409);
  t.match(r.body, { code: 'onboarding_closed' });
  const m = await standardMerchant(app);
  forceMerchantStatus(app, m.merchantId, 'awaiting_approval');
  const after = await call(app, 'POST', `/v1/partner/merchants/${m.merchantId}/resend-onboarding`);
  t.equal(after.status, 409);
  t.equal(app.store.merchants.get(m.merchantId, 'sandbox-partner')!.onboarding_token, m.onboardingToken, 'unchanged');
  const missing = await call(app, 'POST', '/v1/partner/merchants/123/resend-onboarding');
  t.equal(missing.status, 404);
  t.match(missing.body, { code: 'merchant_not_found' });
});

t.test('POST /v1/partner/merchants/{id}/stores', async (t) => {
  const app = await build(t);
  const tm = await testMerchant(app);
  const r = await call(app, 'POST', `/v1/partner/merchants/${tm.merchantId}/stores`, {
    name: 'Main Street',
    address: { street: 'Strøget 1', city: 'København', postalCode: '1160' },
    mccCode: '5812',
    partnerRefId: 'store-1',
  });
  t.equal(r.status, 200);
  t.same(schemaErrors('StoreResponse', r.body), []);
  t.same(r.body, {
    storeId: r.body.storeId,
    merchantId: tm.merchantId,
    name: 'Main Street',
    address: { street: 'Strøget 1', city: 'København', postalCode: '1160', countryCode: 'DK' },
    mccCode: '5812',
    partnerRefId: 'store-1',
    createdAt: T0,
  });
  const minimal = await call(app, 'POST', `/v1/partner/merchants/${tm.merchantId}/stores`, { name: 'Web shop' });
  t.match(minimal.body, { name: 'Web shop', address: null, mccCode: null, partnerRefId: null });
  t.ok(minimal.body.storeId > r.body.storeId);
  t.same(
    app.store.stores.listForMerchant(tm.merchantId, 'sandbox-partner').map((s) => s.name),
    ['Main Street', 'Web shop'],
  );

  const before = count(app, 'stores');
  for (const [payload, field] of [
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 5 }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ name: 'S', mccCode: '12' }, 'mccCode'],
    [{ name: 'S', address: { countryCode: 'Denmark' } }, 'address.countryCode'],
  ] as const) {
    const bad = await call(app, 'POST', `/v1/partner/merchants/${tm.merchantId}/stores`, payload);
    t.equal(bad.status, 400, field);
    t.match(bad.body, { code: 'validation_failed', in: 'body' });
    t.equal(bad.body.field, at(field), field);
  }

  const pending = await standardMerchant(app);
  const notActive = await call(app, 'POST', `/v1/partner/merchants/${pending.merchantId}/stores`, { name: 'S' });
  t.equal(notActive.status, 409);
  t.match(notActive.body, { code: 'merchant_not_activated' });
  const missing = await call(app, 'POST', '/v1/partner/merchants/424242/stores', { name: 'S' });
  t.equal(missing.status, 404);
  t.equal(count(app, 'stores'), before, 'rejected requests write no store');
});
