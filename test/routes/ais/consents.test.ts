import t from 'tap';
import { at, forceMerchantStatus, json, schemaErrors, T0 } from '../../helpers/app.js';
import { aisApp, createMerchant, normalise } from '../../helpers/ais.js';
import { scaled } from '../../helpers/speed.js';

// several app instances per file on a shared machine: more than tap's default 30 s
t.setTimeout(scaled(180_000));

const DAY = 86_400_000;

t.test('POST /v1/ais/consents creates a pending consent with an authorization URL', async (t) => {
  const { app, merchantId, bearer } = await aisApp(t);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/ais/consents',
    headers: { ...(await bearer('user-typical', ['ais:balance:read'])), 'x-request-id': 'trace-42' },
    payload: {
      merchantId,
      userId: 'user-typical',
      permissions: ['ReadAccountsDetail', 'ReadBalances', 'ReadBalances'],
      expirationDateTime: '2026-04-15T09:00:00+02:00',
      transactionFromDateTime: '2025-07-01',
      callbackUrl: 'https://merchant.test/ais/return',
    },
  });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['x-request-id'], 'trace-42');
  const body = json(res);
  t.same(schemaErrors('Consent', body), []);
  t.match(body, {
    merchantId,
    userId: 'user-typical',
    permissions: ['ReadAccountsDetail', 'ReadBalances'],
    expirationDateTime: '2026-04-15T07:00:00.000Z',
    transactionFromDateTime: '2025-07-01T00:00:00.000Z',
    status: 'pending',
    createdAt: T0,
    updatedAt: T0,
  });
  t.match(body.requestId, /^[0-9a-f-]{36}$/);
  t.match(body.authorizationUrl, /^http:\/\/127\.0\.0\.1:4010\/consent\/ctk_[A-Za-z0-9_-]{32}$/);
  t.notOk('consentId' in body);
  t.notOk('callbackUrl' in body, 'callbackUrl is not echoed (contract: absent in response)');
  const row = app.store.consents.get(body.requestId);
  t.equal(row?.callback_url, 'https://merchant.test/ais/return');
  t.equal(row?.status, 'pending');
  t.equal(
    app.db.prepare("SELECT count(*) FROM timers WHERE aggregate = 'consent' AND aggregate_id = ?").pluck().get(body.requestId),
    1,
    'expiry timer scheduled',
  );
  t.matchSnapshot(normalise(body), 'created consent');
});

t.test('400s: dates, permissions, callbackUrl, missing fields — nothing stored', async (t) => {
  const { app, merchantId, bearer } = await aisApp(t);
  const headers = await bearer('u1');
  const base = {
    merchantId,
    userId: 'u1',
    permissions: ['ReadBalances'],
    expirationDateTime: '2026-03-01T00:00:00Z',
    transactionFromDateTime: '2025-01-01T00:00:00Z',
  };
  const cases: [string, Record<string, unknown>, string][] = [
    ['expiration in the past', { expirationDateTime: '2026-01-15T08:59:59Z' }, 'expirationDateTime'],
    ['expiration exactly now', { expirationDateTime: T0 }, 'expirationDateTime'],
    ['transactionFrom after expiration', { transactionFromDateTime: '2026-03-02T00:00:00Z' }, 'transactionFromDateTime'],
    ['not a date', { expirationDateTime: 'next tuesday' }, 'expirationDateTime'],
    ['impossible calendar date', { expirationDateTime: '2026-02-31T00:00:00Z' }, 'expirationDateTime'],
    ['unknown permission', { permissions: ['ReadEverything'] }, 'permissions[0]'],
    ['empty permissions', { permissions: [] }, 'permissions'],
    ['callbackUrl not http(s)', { callbackUrl: 'javascript:alert(1)' }, 'callbackUrl'],
    ['callbackUrl not a URL', { callbackUrl: 'not a url' }, 'callbackUrl'],
    ['merchantId as string', { merchantId: String(merchantId) }, 'merchantId'],
    ['missing transactionFromDateTime', { transactionFromDateTime: undefined }, 'transactionFromDateTime'],
  ];
  for (const [name, patch, field] of cases) {
    const res = await app.inject({ method: 'POST', url: '/v1/ais/consents', headers, payload: { ...base, ...patch } });
    t.equal(res.statusCode, 400, name);
    t.match(json(res), { code: 'validation_failed', in: 'body' }, name);
    t.equal(json(res).field, at(field), name);
  }
  t.equal(app.db.prepare('SELECT count(*) FROM consents').pluck().get(), 0);
});

t.test('403 when the token is for another user or merchant; 409 for a merchant no longer active', async (t) => {
  const { app, merchantId, bearer } = await aisApp(t);
  const payload = {
    merchantId,
    userId: 'u1',
    permissions: ['ReadBalances'],
    expirationDateTime: '2026-03-01T00:00:00Z',
    transactionFromDateTime: '2025-01-01T00:00:00Z',
  };
  const otherUser = await app.inject({ method: 'POST', url: '/v1/ais/consents', headers: await bearer('u2'), payload });
  t.equal(otherUser.statusCode, 403);
  t.match(json(otherUser), { code: 'token_subject_mismatch', field: 'userId' });
  const second = createMerchant(app, 'activated', 'sandbox-partner', 'Second Shop');
  const otherMerchant = await app.inject({
    method: 'POST',
    url: '/v1/ais/consents',
    headers: await bearer('u1', undefined, second),
    payload,
  });
  t.equal(otherMerchant.statusCode, 403);
  t.match(json(otherMerchant), { code: 'token_subject_mismatch', field: 'merchantId' });
  const headers = await bearer('u1');
  forceMerchantStatus(app, merchantId, 'inactive');
  const inactive = await app.inject({ method: 'POST', url: '/v1/ais/consents', headers, payload });
  t.equal(inactive.statusCode, 409);
  t.match(json(inactive), { code: 'merchant_not_activated' });
  t.equal(app.db.prepare('SELECT count(*) FROM consents').pluck().get(), 0);
});

t.test("GET /v1/ais/users/{userId}/consents lists that merchant's consents, newest first", async (t) => {
  const ctx = await aisApp(t);
  const { app, merchantId, bearer } = ctx;
  const first = await ctx.createConsent('u1');
  app.clock.advance(60_000);
  const second = await ctx.authorizedConsent('u1', { permissions: ['ReadBalances'] });
  app.clock.advance(60_000);
  await ctx.createConsent('u2');
  const other = createMerchant(app, 'activated', 'sandbox-partner', 'Other');
  await app.inject({
    method: 'POST',
    url: '/v1/ais/consents',
    headers: await bearer('u1', undefined, other),
    payload: {
      merchantId: other,
      userId: 'u1',
      permissions: ['ReadBalances'],
      expirationDateTime: '2026-03-01T00:00:00Z',
      transactionFromDateTime: '2025-01-01T00:00:00Z',
    },
  });

  const res = await app.inject({ method: 'GET', url: `/v1/ais/users/u1/consents?merchantId=${merchantId}`, headers: await bearer('u1') });
  t.equal(res.statusCode, 200);
  const list = json(res);
  t.same(schemaErrors('ConsentList', list), []);
  t.same(
    list.map((c: any) => c.requestId),
    [second.requestId, first.requestId],
  );
  t.equal(list[0].status, 'authorized');
  t.match(list[0].consentId, /^cns_/);
  t.notOk('authorizationUrl' in list[0], 'authorizationUrl only while pending');
  t.ok(list[1].authorizationUrl);

  const empty = await app.inject({
    method: 'GET',
    url: `/v1/ais/users/nobody/consents?merchantId=${merchantId}`,
    headers: await bearer('nobody'),
  });
  t.same(json(empty), []);

  const mismatch = await app.inject({
    method: 'GET',
    url: `/v1/ais/users/u2/consents?merchantId=${merchantId}`,
    headers: await bearer('u1'),
  });
  t.equal(mismatch.statusCode, 403);
  t.match(json(mismatch), { code: 'token_subject_mismatch' });
  const missingQuery = await app.inject({ method: 'GET', url: '/v1/ais/users/u1/consents', headers: await bearer('u1') });
  t.equal(missingQuery.statusCode, 400);
  t.match(json(missingQuery), { code: 'validation_failed', field: 'merchantId' });
  const badQuery = await app.inject({ method: 'GET', url: '/v1/ais/users/u1/consents?merchantId=abc', headers: await bearer('u1') });
  t.equal(badQuery.statusCode, 400);
});

t.test('a consent reads expired once the virtual clock passes expirationDateTime', async (t) => {
  const ctx = await aisApp(t);
  const { app, merchantId } = ctx;
  const pending = await ctx.createConsent('u1', { expirationDateTime: app.clock.iso(DAY) });
  const authorized = await ctx.authorizedConsent('u1', { expirationDateTime: app.clock.iso(2 * DAY) });
  app.clock.advance(DAY);
  // the token is 1 h old by now: take a fresh one
  let list = json(
    await app.inject({ method: 'GET', url: `/v1/ais/users/u1/consents?merchantId=${merchantId}`, headers: await ctx.bearer('u1') }),
  );
  t.match(
    list.find((c: any) => c.requestId === pending.requestId),
    { status: 'expired', updatedAt: pending.expirationDateTime },
  );
  t.equal(list.find((c: any) => c.requestId === authorized.requestId).status, 'authorized');
  app.clock.advance(DAY);
  list = json(
    await app.inject({ method: 'GET', url: `/v1/ais/users/u1/consents?merchantId=${merchantId}`, headers: await ctx.bearer('u1') }),
  );
  t.same(
    list.map((c: any) => c.status),
    ['expired', 'expired'],
  );
  t.equal(app.store.consents.get(authorized.requestId)?.consent_id, authorized.consent_id, 'consentId kept');
});

t.test('expiry is applied on read even when no timer fired (engine level), and persisted', async (t) => {
  const ctx = await aisApp(t);
  const { app } = ctx;
  const c = await ctx.createConsent('u1', { expirationDateTime: app.clock.iso(1000) });
  app.db.prepare('DELETE FROM timers').run();
  app.clock.advance(999);
  t.equal(app.engine.consentAsOf(app.store.consents.get(c.requestId)!).status, 'pending');
  app.clock.advance(1);
  t.match(
    app.engine.consentAsOf(app.store.consents.get(c.requestId)!),
    { status: 'expired', updated_at: c.expirationDateTime },
    'at the instant itself',
  );
  t.equal(app.store.consents.get(c.requestId)?.status, 'expired', 'written through the engine');
});

t.test('404 when the merchant disappeared after the token was issued; strict mode rejects unknown fields', async (t) => {
  const ctx = await aisApp(t);
  const headers = await ctx.bearer('u1');
  ctx.app.db.prepare('DELETE FROM merchants WHERE id = ?').run(ctx.merchantId);
  const payload = {
    merchantId: ctx.merchantId,
    userId: 'u1',
    permissions: ['ReadBalances'],
    expirationDateTime: '2026-03-01',
    transactionFromDateTime: '2025-01-01',
  };
  const gone = await ctx.app.inject({ method: 'POST', url: '/v1/ais/consents', headers, payload });
  t.equal(gone.statusCode, 404);
  t.match(json(gone), { code: 'merchant_not_found', field: 'merchantId' });

  const strict = await aisApp(t, { strict: true });
  const res = await strict.app.inject({
    method: 'POST',
    url: '/v1/ais/consents',
    headers: await strict.bearer('u1'),
    payload: { ...payload, merchantId: strict.merchantId, scope: 'everything' },
  });
  t.equal(res.statusCode, 400);
  t.match(json(res), { code: 'unknown_field', field: 'scope' });
  const lenient = await ctx.app.inject({ method: 'POST', url: '/v1/ais/consents', headers, payload: { ...payload, scope: 'x' } });
  t.equal(lenient.statusCode, 404, 'default mode ignores the unknown field (and then finds no merchant)');
});
