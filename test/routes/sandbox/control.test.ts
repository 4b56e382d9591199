import t from 'tap';
import { FAST_TRACK_MAGIC, MAGIC_AMOUNTS } from '../../../src/domain/magic.js';

import { CLOCK_META_KEY } from '../../../src/engine/clock-state.js';
import { parsePrefer, PREFER_MAX_DELAY_MS } from '../../../src/plugins/prefer.js';
import { SPECIAL_USERS } from '../../../fixtures/users.js';
import { build, OTHER_PARTNER, PARTNER, schemaErrors, T0 } from '../../helpers/app.js';
import { buildTwo, call, count, testMerchant } from '../../helpers/partner.js';
import { TEST_CAUSE } from '../../helpers/engine.js';

t.test('clock: read, advance by ms / duration / to, validation', async (t) => {
  const app = await build(t);
  const c = await call(app, 'GET', '/_sandbox/clock');
  t.same(c.body, { now: T0, frozen: true, offsetMs: 0 });
  t.same(schemaErrors('SandboxClock', c.body), []);
  t.same((await call(app, 'POST', '/_sandbox/clock/advance', { ms: 1500 })).body, { now: '2026-01-15T09:00:01.500Z', fired: 0 });
  t.same((await call(app, 'POST', '/_sandbox/clock/advance', { duration: '2m' })).body.now, '2026-01-15T09:02:01.500Z');
  t.same((await call(app, 'POST', '/_sandbox/clock/advance', { to: '2026-01-16T00:00:00Z' })).body.now, '2026-01-16T00:00:00.000Z');
  t.equal(JSON.parse(app.meta.get(CLOCK_META_KEY)!).frozenAtMs, Date.parse('2026-01-16T00:00:00Z'), 'persisted');
  for (const [body, field] of [
    [{}, 'ms'],
    [{ ms: 1, duration: '1s' }, 'duration'],
    [{ to: '2026-01-15T00:00:00Z' }, 'to'],
    [{ ms: -1 }, 'ms'],
    [{ ms: '5' }, 'ms'],
    [{ duration: 'soon' }, 'duration'],
    [{ to: 'tomorrow' }, 'to'],
  ] as const) {
    const r = await call(app, 'POST', '/_sandbox/clock/advance', body);
    t.equal(r.status, 400, JSON.stringify(body));
    t.match(r.body, { code: 'validation_failed', field });
  }
  t.equal((await call(app, 'GET', '/_sandbox/clock')).body.now, '2026-01-16T00:00:00.000Z', 'rejected advances moved nothing');
  t.equal((await call(app, 'GET', '/_sandbox/clock', undefined, {})).status, 401, 'partner credentials required');
});

t.test('clock: resume and freeze', async (t) => {
  const app = await build(t);
  const r = await call(app, 'POST', '/_sandbox/clock/resume');
  t.equal(r.body.frozen, false);
  t.same(schemaErrors('SandboxClock', r.body), []);
  const f = await call(app, 'POST', '/_sandbox/clock/freeze');
  t.equal(f.body.frozen, true);
  t.ok(Date.parse(f.body.now) >= Date.parse(T0));
});

t.test("reset deletes only the calling partner's data and re-seeds the default merchant", async (t) => {
  const app = await buildTwo(t);
  const mine = await testMerchant(app);
  const theirs = await testMerchant(app, OTHER_PARTNER);
  for (const [m, h] of [
    [mine, PARTNER],
    [theirs, OTHER_PARTNER],
  ] as const) {
    await call(app, 'POST', '/v1/partner/webhooks', { url: 'http://127.0.0.1:9/x', events: ['payment.completed'] }, h);
    await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 5, referenceNumber: 'r' }, h);
  }
  app.store.tx(() => {
    const row = app.store.consents.insert(
      {
        merchant_id: mine.merchantId,
        user_id: 'u',
        permissions: ['ReadBalances'],
        expiration_date_time: '2026-06-01T00:00:00.000Z',
        transaction_from_date_time: '2025-01-01T00:00:00.000Z',
        callback_url: null,
      },
      T0,
    );
    app.engine.onConsentCreated(row, 'sandbox-partner', TEST_CAUSE);
  });
  await app.webhooks.stop(); // keep deliveries pending
  const defaultBefore = Number(app.meta.get('default_merchant:sandbox-partner'));
  const r = await call(app, 'POST', '/_sandbox/reset');
  t.equal(r.status, 200);
  t.same(schemaErrors('SandboxResetResponse', r.body), []);
  t.match(r.body.deleted, { merchants: 2, payments: 1, webhooks: 1, consents: 1, timers: 2 }); // the payment's one timer, the consent's expiry
  t.equal(r.body.deleted.events, 1, 'the test merchant activation event');
  t.equal(count(app, 'merchants', 'partner_id = ?', 'sandbox-partner'), 1, 'only the fresh default merchant');
  t.not(r.body.defaultMerchantId, defaultBefore);
  t.equal(app.store.merchants.get(r.body.defaultMerchantId, 'sandbox-partner')?.status, 'activated');
  t.equal(count(app, 'merchants', 'partner_id = ?', 'other-partner'), 1, "the other partner's merchant is untouched");
  t.equal(count(app, 'payments', 'partner_id = ?', 'other-partner'), 1);
  t.equal(count(app, 'webhooks', 'partner_id = ?', 'other-partner'), 1);
  t.equal(count(app, 'timers', 'partner_id = ?', 'other-partner'), 1, 'its payment keeps its one timer');
  const other = await call(app, 'POST', '/_sandbox/reset', undefined, OTHER_PARTNER);
  t.match(other.body, { deleted: { merchants: 1, payments: 1 }, defaultMerchantId: null });
});

t.test('magic values', async (t) => {
  const app = await build(t);
  const r = await call(app, 'GET', '/_sandbox/magic-values');
  t.equal(r.status, 200);
  t.same(schemaErrors('SandboxMagicValues', r.body), []);
  t.same(
    r.body.amounts,
    MAGIC_AMOUNTS.map((m) => ({ ...m })),
  );
  t.same(
    r.body.fastTrack.map((f: any) => f.value),
    FAST_TRACK_MAGIC.map((f) => f.value),
  );
  t.same(
    r.body.users.map((u: any) => u.userId),
    SPECIAL_USERS.map((u) => u.userId),
  );
});

t.test('every /_sandbox route is in the controls document under the sandbox tag, and none in the provider document', async (t) => {
  const app = await build(t);
  const provider = (await call(app, 'GET', '/openapi.json')).body as { paths: Record<string, unknown> };
  t.same(
    Object.keys(provider.paths).filter((p) => !p.startsWith('/v1/')),
    [],
    'the provider document has the /v1 paths only',
  );
  const doc = (await call(app, 'GET', '/_sandbox/openapi.json')).body;
  const paths = Object.entries(doc.paths as Record<string, Record<string, { tags?: string[] }>>).filter(([p]) => p.startsWith('/_sandbox'));
  t.ok(paths.length >= 10);
  for (const [path, ops] of paths) for (const [method, op] of Object.entries(ops)) t.same(op.tags, ['sandbox'], `${method} ${path}`);
});

t.test('Prefer: code forces an error without running the handler', async (t) => {
  const app = await build(t);
  const before = count(app, 'merchants');
  const r = await call(
    app,
    'POST',
    '/v1/partner/merchants',
    { companyName: 'A', contactEmail: 'a@b.test' },
    { ...PARTNER, prefer: 'code=503' },
  );
  t.equal(r.status, 503);
  t.same(schemaErrors('ErrorBody', r.body), []);
  t.match(r.body, { status: 503, code: 'forced_status' });
  t.equal(r.headers['retry-after'], '1');
  t.equal(count(app, 'merchants'), before, 'no state change');
  const nf = await call(app, 'GET', '/v1/partner/merchants', undefined, { ...PARTNER, prefer: 'code=404' });
  t.match(nf.body, { status: 404, code: 'forced_status' });
  const ok = await call(app, 'GET', '/v1/partner/merchants', undefined, { ...PARTNER, prefer: 'code=200' });
  t.equal(ok.status, 200, 'a 2xx preference runs the request normally');
  const bad = await call(app, 'GET', '/v1/partner/merchants', undefined, { ...PARTNER, prefer: 'code=abc' });
  t.match(bad.body, { status: 400, code: 'validation_failed', field: '/prefer', in: 'header' });
  const ignored = await call(app, 'GET', '/_sandbox/clock', undefined, { ...PARTNER, prefer: 'code=500' });
  t.equal(ignored.status, 200, 'only /v1 calls are affected');
  const unknown = await call(app, 'GET', '/v1/partner/merchants', undefined, { ...PARTNER, prefer: 'return=minimal' });
  t.equal(unknown.status, 200, 'other preferences are ignored');
});

t.test('Prefer: delay waits (real time, capped), and combines with code', async (t) => {
  const app = await build(t);
  const started = Date.now();
  const r = await call(app, 'GET', '/v1/partner/merchants', undefined, { ...PARTNER, prefer: 'code=429, delay=120' });
  t.ok(Date.now() - started >= 110, 'delayed');
  t.equal(r.status, 429);
  t.match(r.body, { code: 'forced_status', status: 429 });
  t.same(parsePrefer('delay=999999'), { delayMs: PREFER_MAX_DELAY_MS });
  t.equal(PREFER_MAX_DELAY_MS, 30_000);
  t.same(parsePrefer(['code=500;delay=5']), { code: 500, delayMs: 5 });
  t.same(parsePrefer('respond-async, wait=10'), {});
});
