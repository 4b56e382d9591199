/**
 * Per-partner rate limiting (src/plugins/rate-limit.ts): off by default; when on, 429
 * rate_limited with Retry-After for the partner over its budget, nobody else.
 */
import t from 'tap';
import { json, OTHER_PARTNER, PARTNER, schemaErrors } from '../helpers/app.js';
import { buildTwo } from '../helpers/partner.js';
import { scaled } from '../helpers/speed.js';

const list = { method: 'GET' as const, url: '/v1/partner/merchants' };
t.setTimeout(scaled(180_000));

t.test('off by default: 70 quick requests, no 429', async (t) => {
  const app = await buildTwo(t);
  t.equal(app.config.rateLimit, 0);
  let limited = 0;
  for (let i = 0; i < 70; i++) {
    const res = await app.inject({ ...list, headers: PARTNER });
    if (res.statusCode === 429) limited++;
  }
  t.equal(limited, 0);
});

t.test('over the limit: 429 rate_limited with Retry-After; other partners unaffected; nothing changes', async (t) => {
  const app = await buildTwo(t, { config: { rateLimit: 5 } });
  // someone who only knows PARTNER's client id cannot spend its budget
  for (let i = 0; i < 10; i++) {
    const spoof = await app.inject({ ...list, headers: { ...PARTNER, 'x-partner-client-secret': 'guess' } });
    t.equal(spoof.statusCode, 401);
  }
  for (let i = 0; i < 5; i++) {
    const ok = await app.inject({ ...list, headers: PARTNER });
    t.equal(ok.statusCode, 200, `request ${i + 1} within the limit`);
    t.equal(ok.headers['x-ratelimit-limit'], '5');
  }
  const before = app.db.prepare('SELECT count(*) FROM merchants').pluck().get();
  const limited = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants',
    headers: PARTNER,
    payload: { companyName: 'Over ApS', contactEmail: 'o@x.test' },
  });
  t.equal(limited.statusCode, 429);
  const body = json(limited);
  t.same(schemaErrors('ErrorBody', body), []);
  t.match(body, { status: 429, code: 'rate_limited' });
  const retryAfter = Number(limited.headers['retry-after']);
  t.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${limited.headers['retry-after']}`);
  t.equal(app.db.prepare('SELECT count(*) FROM merchants').pluck().get(), before, 'the limited request created nothing');

  // the other partner has its own budget
  for (let i = 0; i < 5; i++) t.equal((await app.inject({ ...list, headers: OTHER_PARTNER })).statusCode, 200);
  t.equal((await app.inject({ ...list, headers: OTHER_PARTNER })).statusCode, 429);
  // unauthenticated endpoints are not limited
  t.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  t.comment(`rate limit: 6th request of a partner in a minute -> 429, Retry-After ${retryAfter} s; other partner unaffected`);
});

t.test('the window is the wall clock: advancing the virtual clock does not reset it', async (t) => {
  const app = await buildTwo(t, { config: { rateLimit: 2 } });
  await app.inject({ ...list, headers: PARTNER });
  await app.inject({ ...list, headers: PARTNER });
  app.clock.advance(3_600_000);
  t.equal((await app.inject({ ...list, headers: PARTNER })).statusCode, 429);
});

t.test('AIS calls are counted per token subject (merchant + user), apart from the partner', async (t) => {
  const app = await buildTwo(t, { config: { rateLimit: 3 } });
  const m = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Rate ApS' } }),
  );
  const token = async (userId: string) =>
    json(
      await app.inject({
        method: 'POST',
        url: '/v1/auth/generate-token',
        payload: { userId, merchantId: m.merchantId, permissions: ['ais:accounts:read'] },
      }),
    ).token as string;
  const alice = await token('alice');
  const bob = await token('bob');
  const ais = (tok: string, userId: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/ais/accounts',
      headers: { authorization: `Bearer ${tok}` },
      payload: { userId, merchantId: m.merchantId },
    });
  for (let i = 0; i < 3; i++) t.not((await ais(alice, 'alice')).statusCode, 429, `alice ${i + 1}`);
  const over = await ais(alice, 'alice');
  t.equal(over.statusCode, 429, "alice's 4th call is limited");
  t.match(json(over), { code: 'rate_limited' });
  t.ok(over.headers['retry-after'], 'with Retry-After');
  t.not((await ais(bob, 'bob')).statusCode, 429, 'bob (same merchant, other user) is not');
  t.not((await ais('junk.token.value', 'alice')).statusCode, 429, 'an invalid token is a 401, never counted');
  t.equal(
    (await app.inject({ method: 'GET', url: '/v1/partner/merchants', headers: PARTNER })).statusCode,
    200,
    'the partner API budget is separate',
  );
});
