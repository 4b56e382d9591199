import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import t from 'tap';
import { buildApp } from '../../../src/app.js';
import { VirtualClock } from '../../../src/clock.js';
import { openDatabase } from '../../../src/store/db.js';
import { at, build, json, PARTNER, schemaErrors, T0 } from '../../helpers/app.js';
import { aisApp, createMerchant, JWT_SECRET } from '../../helpers/ais.js';
import { scaled } from '../../helpers/speed.js';

// several app instances per file on a shared machine: more than tap's default 30 s
t.setTimeout(scaled(180_000));

const URL = '/v1/auth/generate-token';

t.test('returns an HS256 JWT with the documented claims, from the virtual clock', async (t) => {
  const { app, merchantId } = await aisApp(t);
  const res = await app.inject({
    method: 'POST',
    url: URL,
    payload: { userId: 'user-typical', merchantId, permissions: ['ais:accounts:read', 'ais:balance:read', 'ais:accounts:read'] },
  });
  t.equal(res.statusCode, 200);
  const body = json(res);
  t.same(schemaErrors('TokenResponse', body), []);
  t.same(Object.keys(body), ['token']);
  t.same(decodeProtectedHeader(body.token), { alg: 'HS256', typ: 'JWT' });
  const claims = decodeJwt(body.token);
  const iat = Date.parse(T0) / 1000;
  t.match(claims, {
    sub: 'user-typical',
    merchantId,
    permissions: ['ais:accounts:read', 'ais:balance:read'],
    iss: 'obsim-sandbox',
    aud: 'obsim-ais',
    iat,
    exp: iat + 3600,
  });
  t.match(claims.jti, /^[0-9a-f-]{36}$/);
  // really signed with the configured secret
  await t.resolves(jwtVerify(body.token, new TextEncoder().encode(JWT_SECRET), { currentDate: new Date(T0) }));
  t.match(res.headers['x-request-id'], /^req_/, 'a request id is generated');
});

t.test('token lifetime follows OBSIM_TOKEN_TTL', async (t) => {
  const { app, merchantId } = await aisApp(t, { tokenTtlMs: 600_000 });
  const res = await app.inject({ method: 'POST', url: URL, payload: { userId: 'u', merchantId, permissions: ['ais:accounts:read'] } });
  const claims = decodeJwt(json(res).token);
  t.equal(claims.exp! - claims.iat!, 600);
});

t.test('400 for missing fields, wrong types, empty or unknown permissions — naming the field', async (t) => {
  const { app, merchantId } = await aisApp(t);
  const cases: [string, Record<string, unknown>, string][] = [
    ['missing userId', { merchantId, permissions: ['ais:accounts:read'] }, 'userId'],
    ['missing merchantId', { userId: 'u', permissions: ['ais:accounts:read'] }, 'merchantId'],
    ['missing permissions', { userId: 'u', merchantId }, 'permissions'],
    ['merchantId as string', { userId: 'u', merchantId: String(merchantId), permissions: ['ais:accounts:read'] }, 'merchantId'],
    ['merchantId fractional', { userId: 'u', merchantId: 1.5, permissions: ['ais:accounts:read'] }, 'merchantId'],
    ['userId as number', { userId: 7, merchantId, permissions: ['ais:accounts:read'] }, 'userId'],
    ['empty userId', { userId: '', merchantId, permissions: ['ais:accounts:read'] }, 'userId'],
    ['permissions not an array', { userId: 'u', merchantId, permissions: 'ais:accounts:read' }, 'permissions'],
    ['empty permissions', { userId: 'u', merchantId, permissions: [] }, 'permissions'],
    ['unknown permission', { userId: 'u', merchantId, permissions: ['ais:accounts:read', 'ais:payments:write'] }, 'permissions[1]'],
  ];
  for (const [name, payload, field] of cases) {
    const res = await app.inject({ method: 'POST', url: URL, payload });
    t.equal(res.statusCode, 400, name);
    t.match(json(res), { status: 400, code: 'validation_failed', in: 'body' }, name);
    t.equal(json(res).field, at(field), name);
    t.same(schemaErrors('ErrorBody', json(res)), [], name);
  }
  const malformed = await app.inject({ method: 'POST', url: URL, headers: { 'content-type': 'application/json' }, payload: '{"userId":' });
  t.match(json(malformed), { status: 400, code: 'malformed_json' });
});

t.test('the merchant must exist and be activated: 400 naming merchantId (the contract lists 200, 400 and 500 only)', async (t) => {
  const { app } = await aisApp(t);
  const missing = await app.inject({
    method: 'POST',
    url: URL,
    payload: { userId: 'u', merchantId: 999_999, permissions: ['ais:accounts:read'] },
  });
  t.equal(missing.statusCode, 400);
  t.match(json(missing), { status: 400, code: 'merchant_id_unknown', field: 'merchantId' });
  t.same(schemaErrors('ErrorBody', json(missing)), []);
  const pending = createMerchant(app, 'pending_onboarding');
  const res = await app.inject({
    method: 'POST',
    url: URL,
    payload: { userId: 'u', merchantId: pending, permissions: ['ais:accounts:read'] },
  });
  t.equal(res.statusCode, 400);
  t.match(json(res), { status: 400, code: 'merchant_id_not_activated', field: 'merchantId' });
});

t.test('partner headers are optional in the sandbox, checked when sent, and scope the merchant', async (t) => {
  const { app, merchantId } = await aisApp(t, { partnersFile: undefined });
  const ok = await app.inject({
    method: 'POST',
    url: URL,
    headers: PARTNER,
    payload: { userId: 'u', merchantId, permissions: ['ais:accounts:read'] },
  });
  t.equal(ok.statusCode, 200);
  const bad = await app.inject({
    method: 'POST',
    url: URL,
    headers: { ...PARTNER, 'x-partner-client-secret': 'wrong' },
    payload: { userId: 'u', merchantId, permissions: ['ais:accounts:read'] },
  });
  t.equal(bad.statusCode, 401);
  t.match(json(bad), { code: 'partner_credentials_invalid' });
  const half = await app.inject({
    method: 'POST',
    url: URL,
    headers: { 'x-partner-client-id': 'sandbox-partner' },
    payload: { userId: 'u', merchantId, permissions: ['ais:accounts:read'] },
  });
  t.equal(half.statusCode, 401);
  // a merchant of another partner is not found when the caller identifies as a partner
  const foreign = createMerchant(app, 'activated', 'other-partner');
  const scoped = await app.inject({
    method: 'POST',
    url: URL,
    headers: PARTNER,
    payload: { userId: 'u', merchantId: foreign, permissions: ['ais:accounts:read'] },
  });
  t.equal(scoped.statusCode, 400);
  t.match(json(scoped), { code: 'merchant_id_unknown', field: 'merchantId' });
});

t.test('production requires the partner headers and issues production tokens', async (t) => {
  const app = await build(t, {
    config: { environment: 'production', jwtSecret: JWT_SECRET, partnerClientId: 'prod-id', partnerClientSecret: 'prod-secret' },
  });
  const merchantId = createMerchant(app, 'activated', 'prod-id');
  const anon = await app.inject({ method: 'POST', url: URL, payload: { userId: 'u', merchantId, permissions: ['ais:accounts:read'] } });
  t.equal(anon.statusCode, 401);
  t.match(json(anon), { code: 'partner_credentials_missing' });
  const res = await app.inject({
    method: 'POST',
    url: URL,
    headers: { 'x-partner-client-id': 'prod-id', 'x-partner-client-secret': 'prod-secret' },
    payload: { userId: 'u', merchantId, permissions: ['ais:accounts:read'] },
  });
  t.equal(res.statusCode, 200);
  t.equal(decodeJwt(json(res).token).iss, 'obsim-production');
});

t.test('without a configured secret, a random one is persisted: tokens survive a restart', async (t) => {
  const db = openDatabase(':memory:');
  t.teardown(() => db.close());
  const start = async () => {
    const app = await buildApp({ logger: false, db, clock: VirtualClock.create({ start: T0, frozen: true }), config: { db: ':memory:' } });
    await app.ready();
    return app;
  };
  const first = await start();
  const merchantId = createMerchant(first);
  const res = await first.inject({ method: 'POST', url: URL, payload: { userId: 'u', merchantId, permissions: ['ais:accounts:read'] } });
  const token = json(res).token;
  await first.close();
  t.ok(db.prepare("SELECT value FROM meta WHERE key = 'jwt_secret:sandbox'").pluck().get(), 'secret stored per environment');

  const second = await start();
  t.teardown(() => second.close());
  const list = await second.inject({
    method: 'GET',
    url: `/v1/ais/users/u/consents?merchantId=${merchantId}`,
    headers: { authorization: `Bearer ${token}` },
  });
  t.equal(list.statusCode, 200, 'the token from before the restart is still accepted');
  t.same(json(list), []);
});
