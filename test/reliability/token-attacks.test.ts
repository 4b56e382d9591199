/**
 * Attacks on the bearer tokens (/v1/ais/*) and header injection over a real socket; partner
 * credentials: partner-attacks.test.ts. Every
 * attack must be rejected with its documented 401/403 code; the figure printed is
 * "rejected with the right code / attacks".
 */
import { generateKeyPairSync, createHmac } from 'node:crypto';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import t from 'tap';
import { json, PARTNER, schemaErrors } from '../helpers/app.js';
import { buildTwo } from '../helpers/partner.js';
import { run, type Attack } from '../helpers/attacks.js';
import { scaled } from '../helpers/speed.js';

const SECRET = 'token-attack-suite-secret-0123456789abcdef';
const USER = 'attack-user';
const PERMS = ['ais:accounts:read', 'ais:balance:read', 'ais:transactions:read'];
t.setTimeout(scaled(180_000));

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const hs256 = (input: string, key: string | Buffer) => createHmac('sha256', key).update(input).digest('base64url');

interface Teardown {
  teardown(fn: () => unknown): void;
}

async function setup(t: Teardown) {
  const app = await buildTwo(t, { config: { jwtSecret: SECRET } });
  const res = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: PARTNER,
    payload: { companyName: 'Attack ApS' },
  });
  const merchantId = json(res).merchantId as number;
  const other = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: PARTNER,
    payload: { companyName: 'Other ApS' },
  });
  const otherMerchantId = json(other).merchantId as number;
  const tok = await app.inject({
    method: 'POST',
    url: '/v1/auth/generate-token',
    payload: { userId: USER, merchantId, permissions: PERMS },
  });
  const token = json(tok).token as string;
  const now = Math.floor(app.clock.nowMs() / 1000);
  const claims = {
    merchantId,
    permissions: PERMS,
    sub: USER,
    iss: 'obsim-sandbox',
    aud: 'obsim-ais',
    iat: now,
    exp: now + 3600,
    jti: 'attack-jti',
  };
  return { app, merchantId, otherMerchantId, token, now, claims };
}

async function sign(claims: Record<string, unknown>, key: string | Uint8Array = SECRET, alg = 'HS256'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(typeof key === 'string' ? new TextEncoder().encode(key) : key);
}

function unsigned(header: Record<string, unknown>, payload: unknown, signature = ''): string {
  return `${b64(header)}.${b64(payload)}.${signature}`;
}

t.test('bearer token attacks: each rejected with the right 401/403', async (t) => {
  const hasAis = (await buildTwo(t)).routeTable.some((r) => r.url === '/v1/ais/accounts');
  if (!hasAis) {
    t.comment('no /v1/ais/accounts route yet');
    return;
  }
  const { app, merchantId, otherMerchantId, token, now, claims } = await setup(t);
  const body = { userId: USER, merchantId };
  const [h, p, s] = token.split('.') as [string, string, string];
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString());

  // control: the genuine token passes authentication (the request then fails on the consent)
  const control = await app.inject({
    method: 'POST',
    url: '/v1/ais/accounts',
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });
  t.notOk(json(control).code?.startsWith('token_'), `genuine token authenticates (${control.statusCode} ${json(control).code ?? ''})`);
  const withinLeeway = await sign({ ...claims, exp: now - 4 });
  const lee = await app.inject({
    method: 'POST',
    url: '/v1/ais/accounts',
    headers: { authorization: `Bearer ${withinLeeway}` },
    payload: body,
  });
  t.notOk(json(lee).code?.startsWith('token_'), 'expired 4 s ago (inside the 5 s leeway) still authenticates');

  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const rs256 = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(privateKey);
  const hsWithPublic = (() => {
    const head = b64({ alg: 'HS256', typ: 'JWT' });
    const body64 = b64(claims);
    return `${head}.${body64}.${hs256(`${head}.${body64}`, publicPem)}`;
  })();

  // the other environment: a production instance with its own secret, and one sharing the secret
  const prod = await buildTwo(t, { config: { environment: 'production', jwtSecret: 'production-secret-zyxwvutsrqponmlkjihgfedcba' } });
  const prodTokens = (prod as unknown as { tokens?: { sign(i: unknown): Promise<{ token: string }> } }).tokens;
  const prodToken = prodTokens
    ? (await prodTokens.sign({ userId: USER, merchantId, permissions: PERMS })).token
    : await sign({ ...claims, iss: 'obsim-production' }, 'production-secret-zyxwvutsrqponmlkjihgfedcba');
  const prodIssSameKey = await sign({ ...claims, iss: 'obsim-production' });

  const bearer = (tok: string) => ({ authorization: `Bearer ${tok}` });
  const attacks: Attack[] = [
    ...['none', 'None', 'NONE', 'nOnE'].map((alg) => ({
      name: `alg ${alg}, no signature`,
      headers: bearer(unsigned({ alg, typ: 'JWT' }, payload)),
      status: 401,
      code: 'token_invalid',
    })),
    {
      name: 'alg none with the original signature',
      headers: bearer(unsigned({ alg: 'none', typ: 'JWT' }, payload, s)),
      status: 401,
      code: 'token_invalid',
    },
    { name: 'empty signature', headers: bearer(`${h}.${p}.`), status: 401, code: 'token_invalid' },
    {
      name: 'tampered payload (merchantId)',
      headers: bearer(`${h}.${b64({ ...payload, merchantId: otherMerchantId })}.${s}`),
      body: { userId: USER, merchantId: otherMerchantId },
      status: 401,
      code: 'token_invalid',
    },
    {
      name: 'tampered payload (exp pushed out)',
      headers: bearer(`${h}.${b64({ ...payload, exp: payload.exp + 86400 })}.${s}`),
      status: 401,
      code: 'token_invalid',
    },
    { name: 'signature of another token', headers: bearer(`${h}.${p}.${hs256('x.y', SECRET)}`), status: 401, code: 'token_invalid' },
    { name: 'wrong key', headers: bearer(await sign(claims, 'not-the-secret-not-the-secret-not-the')), status: 401, code: 'token_invalid' },
    { name: 'HS512 with the right key', headers: bearer(await sign(claims, SECRET, 'HS512')), status: 401, code: 'token_invalid' },
    { name: 'RS256 token (HS/RS confusion)', headers: bearer(rs256), status: 401, code: 'token_invalid' },
    { name: 'HS256 signed with a public key PEM', headers: bearer(hsWithPublic), status: 401, code: 'token_invalid' },
    {
      name: 'expired 6 s ago (beyond the 5 s leeway)',
      headers: bearer(await sign({ ...claims, iat: now - 3600, exp: now - 6 })),
      status: 401,
      code: 'token_expired',
    },
    {
      name: 'expired a day ago',
      headers: bearer(await sign({ ...claims, iat: now - 90000, exp: now - 86400 })),
      status: 401,
      code: 'token_expired',
    },
    { name: 'nbf 60 s in the future', headers: bearer(await sign({ ...claims, nbf: now + 60 })), status: 401, code: 'token_not_yet_valid' },
    { name: 'iat 60 s in the future', headers: bearer(await sign({ ...claims, iat: now + 60 })), status: 401, code: 'token_not_yet_valid' },
    { name: 'wrong issuer', headers: bearer(await sign({ ...claims, iss: 'someone-else' })), status: 401, code: 'token_claims_invalid' },
    { name: 'wrong audience', headers: bearer(await sign({ ...claims, aud: 'obsim-partner' })), status: 401, code: 'token_claims_invalid' },
    { name: 'no exp', headers: bearer(await sign({ ...claims, exp: undefined })), status: 401, code: 'token_claims_invalid' },
    {
      name: 'unknown permission',
      headers: bearer(await sign({ ...claims, permissions: ['ais:admin'] })),
      status: 401,
      code: 'token_claims_invalid',
    },
    {
      name: 'merchantId as a string',
      headers: bearer(await sign({ ...claims, merchantId: String(merchantId) })),
      status: 401,
      code: 'token_claims_invalid',
    },
    {
      name: 'JSON-array payload',
      headers: bearer(`${h}.${b64([claims])}.${hs256(`${h}.${b64([claims])}`, SECRET)}`),
      status: 401,
      code: 'token_malformed',
    },
    {
      name: 'payload not JSON',
      headers: bearer(`${h}.${b64('not json')}.${hs256(`${h}.${b64('not json')}`, SECRET)}`),
      status: 401,
      code: 'token_malformed',
    },
    { name: 'token of the production environment (other secret)', headers: bearer(prodToken), status: 401, code: 'token_invalid' },
    { name: 'production issuer signed with the sandbox key', headers: bearer(prodIssSameKey), status: 401, code: 'token_claims_invalid' },
    { name: 'two segments', headers: bearer(`${h}.${p}`), status: 401, code: 'token_malformed' },
    { name: 'four segments', headers: bearer(`${token}.x`), status: 401, code: 'token_malformed' },
    { name: 'garbage', headers: bearer('%%%'), status: 401, code: 'token_malformed' },
    { name: 'overlong token (64 KiB)', headers: bearer(`${h}.${'A'.repeat(65536)}.${s}`), status: 401, code: 'token_invalid' },
    {
      name: 'Basic scheme',
      headers: { authorization: `Basic ${Buffer.from('sandbox-partner:sandbox-secret').toString('base64')}` },
      status: 401,
      code: 'token_malformed',
    },
    { name: 'no Authorization', headers: {}, status: 401, code: 'token_missing' },
    { name: 'partner credentials instead of a token', headers: { ...PARTNER }, status: 401, code: 'token_missing' },
    {
      name: 'valid token used for another user',
      headers: bearer(token),
      body: { userId: 'someone-else', merchantId },
      status: 403,
      code: 'token_subject_mismatch',
    },
    {
      name: 'valid token used for another merchant',
      headers: bearer(token),
      body: { userId: USER, merchantId: otherMerchantId },
      status: 403,
      code: 'token_subject_mismatch',
    },
    {
      name: 'token without the endpoint permission',
      headers: bearer(await sign({ ...claims, permissions: ['ais:balance:read'] })),
      status: 403,
      code: 'token_permission_missing',
    },
  ];

  // the sandbox token on the production instance
  const onProd = await prod.inject({ method: 'POST', url: '/v1/ais/accounts', headers: bearer(token), payload: body });
  const prodRight = onProd.statusCode === 401 && String(json(onProd).code).startsWith('token_');
  t.ok(prodRight, `sandbox token on production: ${onProd.statusCode} ${json(onProd).code}`);

  const right = (await run(app, t, attacks, body)) + (prodRight ? 1 : 0);
  t.comment(`token attacks: ${right}/${attacks.length + 1} rejected with the right 401/403 code`);
  t.equal(right, attacks.length + 1);
});

/** Send raw bytes to a listening server; resolves with the status line and body. */
function raw(port: number, request: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    socket.end(request, 'latin1');
  });
}

t.test('header injection over a real socket: CRLF, duplicates, obs-fold, NUL, overlong', async (t) => {
  const { app, merchantId, token } = await setup(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const req = (headers: string) => `GET /v1/partner/merchants HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`;
  const ok = `X-Partner-Client-Id: sandbox-partner\r\nX-Partner-Client-Secret: sandbox-secret\r\n`;
  t.equal((await raw(port, req(ok))).status, 200, 'control: the genuine credentials work over the socket');
  const aisBody = JSON.stringify({ userId: USER, merchantId });
  const cases: { name: string; headers: string; status: number; code: string; ais?: boolean; post?: string }[] = [
    {
      name: 'bare CR in a header value',
      headers: `X-Partner-Client-Id: sandbox-partner\rX-Injected: 1\r\nX-Partner-Client-Secret: sandbox-secret\r\n`,
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'bare LF in a header value',
      headers: `X-Partner-Client-Id: sandbox-partner\nX-Partner-Client-Secret: sandbox-secret\r\n`,
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'NUL in a header value',
      headers: `X-Partner-Client-Id: sandbox\u0000-partner\r\nX-Partner-Client-Secret: sandbox-secret\r\n`,
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'obs-fold continuation line',
      headers: `X-Partner-Client-Id: sandbox-partner\r\nX-Partner-Client-Secret:\r\n sandbox-secret\r\n`,
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'duplicated secret (wrong, right)',
      headers: `${ok}X-Partner-Client-Secret: wrong\r\n`,
      status: 401,
      code: 'partner_credentials_invalid',
    },
    {
      name: 'duplicated secret (right, right)',
      headers: `${ok}X-Partner-Client-Secret: sandbox-secret\r\n`,
      status: 401,
      code: 'partner_credentials_invalid',
    },
    {
      name: 'duplicated client id',
      headers: `${ok}X-Partner-Client-Id: other-partner\r\n`,
      status: 401,
      code: 'partner_credentials_invalid',
    },
    {
      name: 'duplicated Authorization',
      headers: `${ok}Authorization: Bearer a.b.c\r\nAuthorization: Bearer d.e.f\r\n`,
      status: 401,
      code: 'token_malformed',
    },
    {
      name: 'duplicated Authorization, the genuine token first (Node would keep only the first)',
      headers: `Authorization: Bearer ${token}\r\nAuthorization: Bearer junk\r\n`,
      status: 401,
      code: 'token_malformed',
      ais: true,
    },
    {
      name: 'duplicated Content-Type (Node would keep only the first)',
      headers: `${ok}Content-Type: application/json\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n`,
      status: 415,
      code: 'unsupported_media_type',
      post: '{}',
    },
    { name: 'headers over 16 KiB', headers: `${ok}X-Pad: ${'p'.repeat(20_000)}\r\n`, status: 431, code: 'headers_too_large' },
  ];
  let right = 0;
  for (const c of cases) {
    const res = await raw(
      port,
      c.ais
        ? `POST /v1/ais/accounts HTTP/1.1\r\nHost: x\r\n${c.headers}Content-Type: application/json\r\nContent-Length: ${aisBody.length}\r\nConnection: close\r\n\r\n${aisBody}`
        : c.post !== undefined
          ? `POST /v1/partner/merchants HTTP/1.1\r\nHost: x\r\n${c.headers}Connection: close\r\n\r\n${c.post}`
          : req(c.headers),
    );
    let body: { code?: string } = {};
    try {
      body = JSON.parse(res.body);
    } catch {
      /* not JSON */
    }
    const good = res.status === c.status && body.code === c.code && schemaErrors('ErrorBody', body).length === 0;
    if (good) right++;
    t.ok(good, `${c.name}: ${res.status} ${body.code ?? res.body.slice(0, 80)} (want ${c.status} ${c.code})`);
  }
  t.comment(`header injection: ${right}/${cases.length} rejected with the right code`);
  t.equal((await raw(port, req(ok))).status, 200, 'the server still answers afterwards');
});
