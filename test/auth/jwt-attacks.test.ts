/**
 * Bearer token verification on /v1/ais/*: every way a token can be wrong gets a 401 with its
 * own error code (and no data); an expired token expires on the VIRTUAL clock.
 */
import { base64url, decodeJwt, generateKeyPair, SignJWT } from 'jose';
import t from 'tap';
import { build, json, schemaErrors, T0 } from '../helpers/app.js';
import { aisApp, createMerchant, JWT_SECRET } from '../helpers/ais.js';
import { scaled } from '../helpers/speed.js';

// several app instances per file on a shared machine: more than tap's default 30 s
t.setTimeout(scaled(180_000));

const key = new TextEncoder().encode(JWT_SECRET);
const iat = Date.parse(T0) / 1000;

function claims(merchantId: number, extra: Record<string, unknown> = {}) {
  return {
    sub: 'user-typical',
    merchantId,
    permissions: ['ais:accounts:read'],
    iss: 'obsim-sandbox',
    aud: 'obsim-ais',
    iat,
    exp: iat + 3600,
    jti: 'j-1',
    ...extra,
  };
}

async function sign(payload: Record<string, unknown>, alg = 'HS256', secret: Parameters<SignJWT['sign']>[0] = key) {
  return new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(secret);
}

t.test('401 branches, each with its own code, the error body and a WWW-Authenticate challenge', async (t) => {
  const { app, merchantId, token } = await aisApp(t);
  const url = `/v1/ais/users/user-typical/consents?merchantId=${merchantId}`;
  const call = (authorization?: string) =>
    app.inject({ method: 'GET', url, headers: authorization === undefined ? {} : { authorization } });
  const good = await token('user-typical', ['ais:accounts:read']);
  t.equal((await call(`Bearer ${good}`)).statusCode, 200, 'the genuine token works');
  t.equal((await call(`bearer ${good}`)).statusCode, 200, 'the scheme is case-insensitive');

  const [h, p, s] = good.split('.') as [string, string, string];
  const tampered = JSON.stringify({ ...decodeJwt(good), sub: 'someone-else' });
  const unsignedNone = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${p}.`;
  const noneWithSig = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${p}.${s}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });

  const cases: [string, string | undefined, string][] = [
    ['no Authorization header', undefined, 'token_missing'],
    ['empty header', '', 'token_missing'],
    ['Basic scheme', 'Basic dXNlcjpwYXNz', 'token_malformed'],
    ['Bearer without a token', 'Bearer ', 'token_malformed'],
    ['not a JWT', 'Bearer not-a-jwt', 'token_malformed'],
    ['two segments', `Bearer ${h}.${p}`, 'token_malformed'],
    ['garbage header segment', `Bearer !!!.${p}.${s}`, 'token_malformed'],
    ['alg none, empty signature', `Bearer ${unsignedNone}`, 'token_invalid'],
    ['alg none, signature kept', `Bearer ${noneWithSig}`, 'token_invalid'],
    ['tampered payload', `Bearer ${h}.${base64url.encode(tampered)}.${s}`, 'token_invalid'],
    ['signature of another token', `Bearer ${h}.${p}.${base64url.encode('x'.repeat(32))}`, 'token_invalid'],
    [
      'wrong key',
      `Bearer ${await sign(claims(merchantId), 'HS256', new TextEncoder().encode('another-secret-another-secret-another'))}`,
      'token_invalid',
    ],
    ['other algorithm HS512 (same secret)', `Bearer ${await sign(claims(merchantId), 'HS512')}`, 'token_invalid'],
    ['other algorithm RS256', `Bearer ${await sign(claims(merchantId), 'RS256', privateKey)}`, 'token_invalid'],
    ['expired', `Bearer ${await sign(claims(merchantId, { iat: iat - 7200, exp: iat - 3600 }))}`, 'token_expired'],
    ['not before in the future', `Bearer ${await sign(claims(merchantId, { nbf: iat + 600 }))}`, 'token_not_yet_valid'],
    ['issued in the future', `Bearer ${await sign(claims(merchantId, { iat: iat + 600, exp: iat + 4200 }))}`, 'token_not_yet_valid'],
    ['wrong issuer (production)', `Bearer ${await sign(claims(merchantId, { iss: 'obsim-production' }))}`, 'token_claims_invalid'],
    ['wrong audience', `Bearer ${await sign(claims(merchantId, { aud: 'someone-else' }))}`, 'token_claims_invalid'],
    ['no exp', `Bearer ${await sign(claims(merchantId, { exp: undefined }))}`, 'token_claims_invalid'],
    ['no sub', `Bearer ${await sign(claims(merchantId, { sub: undefined }))}`, 'token_claims_invalid'],
    ['merchantId as string', `Bearer ${await sign(claims(merchantId, { merchantId: String(merchantId) }))}`, 'token_claims_invalid'],
    ['unknown permission claim', `Bearer ${await sign(claims(merchantId, { permissions: ['ais:admin'] }))}`, 'token_claims_invalid'],
  ];
  for (const [name, header, code] of cases) {
    const res = await call(header);
    t.equal(res.statusCode, 401, name);
    const body = json(res);
    t.equal(body.code, code, name);
    t.same(schemaErrors('ErrorBody', body), [], name);
    t.match(res.headers['www-authenticate'], /^Bearer realm="obsim"/, name);
    t.equal(body.requestId, res.headers['x-request-id'], name);
  }
  t.equal(app.db.prepare('SELECT count(*) FROM consents').pluck().get(), 0);
});

t.test('a token expires when the virtual clock passes exp (5 s tolerance)', async (t) => {
  const { app, merchantId, bearer } = await aisApp(t);
  const headers = await bearer('u1', ['ais:accounts:read']);
  const url = `/v1/ais/users/u1/consents?merchantId=${merchantId}`;
  app.clock.advance(3600_000 + 4_000);
  t.equal((await app.inject({ method: 'GET', url, headers })).statusCode, 200, 'inside the tolerance');
  app.clock.advance(2_000);
  const res = await app.inject({ method: 'GET', url, headers });
  t.equal(res.statusCode, 401);
  t.match(json(res), { code: 'token_expired' });
  t.match(res.headers['www-authenticate'], /error="invalid_token"/);
});

t.test('a token of the other environment is rejected even with the same secret', async (t) => {
  const prod = await build(t, {
    config: { environment: 'production', jwtSecret: JWT_SECRET, partnerClientId: 'p', partnerClientSecret: 's' },
  });
  const prodMerchant = createMerchant(prod, 'activated', 'p');
  const res = await prod.inject({
    method: 'POST',
    url: '/v1/auth/generate-token',
    headers: { 'x-partner-client-id': 'p', 'x-partner-client-secret': 's' },
    payload: { userId: 'u', merchantId: prodMerchant, permissions: ['ais:accounts:read'] },
  });
  const prodToken = json(res).token;
  const { app } = await aisApp(t);
  const sandboxRes = await app.inject({
    method: 'GET',
    url: `/v1/ais/users/u/consents?merchantId=${prodMerchant}`,
    headers: { authorization: `Bearer ${prodToken}` },
  });
  t.equal(sandboxRes.statusCode, 401);
  t.match(json(sandboxRes), { code: 'token_claims_invalid' });
});

t.test('authentication runs before validation: no token + bad body is a 401', async (t) => {
  const { app } = await aisApp(t);
  const res = await app.inject({ method: 'POST', url: '/v1/ais/accounts', payload: { nonsense: true } });
  t.equal(res.statusCode, 401);
  t.match(json(res), { code: 'token_missing' });
});
