/**
 * Seeded chaos on the partner API (docs/chaos.md): GET / PUT / DELETE /_sandbox/faults, the
 * faults a profile injects into requests (errors instead of or after the work, a router's 502,
 * latency, dropped connections, windows of the sandbox clock, shipped profiles), each marked in
 * the journal; bad profiles refused with a JSON pointer and nothing applied; one sandbox's
 * profile never touching another.
 */
import t from 'tap';
import { request as undiciRequest } from 'undici';
import { build, PARTNER, schemaErrors } from '../../helpers/app.js';
import { call, count, testMerchant, sandboxHeaders } from '../../helpers/partner.js';

type App = Awaited<ReturnType<typeof build>>;
const pay = (app: App, clientId: string, ref: string, headers = PARTNER) =>
  call(app, 'POST', '/v1/partner/payments', { merchantClientId: clientId, amount: 10, referenceNumber: ref }, headers);
const setFaults = (app: App, body: unknown, headers = PARTNER) => call(app, 'PUT', '/_sandbox/faults', body, headers);
const newestEntry = async (app: App) => (await call(app, 'GET', '/_sandbox/requests?limit=1')).body.items[0];

t.test('a profile is put in force, shown with its seed and counts, and cleared', async (t) => {
  const app = await build(t);
  const none = await call(app, 'GET', '/_sandbox/faults');
  t.same(none.body, { sandboxId: 'default', active: false, rules: [], injected: [] });
  const set = await setFaults(app, { rules: [{ kind: 'error', operation: 'createPayment', rate: 1, status: 503 }] });
  t.equal(set.status, 200);
  t.same(schemaErrors('FaultProfile', set.body), []);
  t.ok(Number.isInteger(set.body.seed), 'a seed was chosen, and shown');
  t.equal(set.body.setAt, '2026-01-15T09:00:00.000Z', 'set on the sandbox clock');
  const m = await testMerchant(app);
  await pay(app, m.clientId, 'c-1');
  t.same((await call(app, 'GET', '/_sandbox/faults')).body.injected, [1], 'one fault injected by rule 0');
  await call(app, 'POST', '/_sandbox/reset', {});
  t.same((await call(app, 'GET', '/_sandbox/faults')).body.injected, [1], 'a reset keeps the profile and its counts');
  const cleared = await call(app, 'DELETE', '/_sandbox/faults');
  t.equal(cleared.body.active, false);
  const again = await testMerchant(app); // the reset deleted the first
  t.equal((await pay(app, again.clientId, 'c-2')).status, 200, 'nothing injected any more');
});

t.test('an error instead of the work: the documented body, Retry-After, nothing changed, marked in the journal', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  await setFaults(app, { seed: 1, rules: [{ kind: 'error', operation: 'createPayment', rate: 1, status: 503, retryAfterSeconds: 7 }] });
  const before = count(app, 'payments');
  const r = await app.inject({
    method: 'POST',
    url: '/v1/partner/payments',
    headers: PARTNER,
    payload: { merchantClientId: m.clientId, amount: 10, referenceNumber: 'i-1' },
  });
  t.equal(r.statusCode, 503);
  t.equal(r.headers['retry-after'], '7');
  t.same(schemaErrors('ErrorBody', r.json()), []);
  t.equal(r.json().code, 'service_unavailable');
  t.equal(count(app, 'payments'), before, 'no payment was made');
  const entry = await newestEntry(app);
  t.match(entry, { path: '/v1/partner/payments', status: 503, fault: { rule: 0, kind: 'error' } });
  t.same(schemaErrors('JournalEntry', entry), []);
  const other = await call(app, 'GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`);
  t.equal(other.status, 200, 'another operation is untouched');
  t.notOk((await newestEntry(app)).fault, 'and carries no fault');
});

t.test('an error after the work: the payment exists, the partner is told 500', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  await setFaults(app, {
    seed: 1,
    rules: [{ kind: 'error', operation: 'POST /v1/partner/payments', rate: 1, status: 500, when: 'after' }],
  });
  const r = await pay(app, m.clientId, 'after-1');
  t.equal(r.status, 500);
  t.equal(r.body.code, 'internal_error');
  t.equal(count(app, 'payments', 'reference_number = ?', 'after-1'), 1, 'the payment was made');
  t.match(await newestEntry(app), { status: 500, fault: { rule: 0, kind: 'error' } });
});

t.test('a 502 and a 504 as the router in front answers them: HTML, no error body', async (t) => {
  const app = await build(t);
  for (const status of [502, 504]) {
    await setFaults(app, { seed: 1, rules: [{ kind: 'error', operation: 'listMerchants', rate: 1, status }] });
    const r = await app.inject({ method: 'GET', url: '/v1/partner/merchants', headers: PARTNER });
    t.equal(r.statusCode, status);
    t.match(r.headers['content-type'], /^text\/html/);
    t.match(r.body, new RegExp(`<h1>${status} `));
  }
});

t.test('latency: the request is answered, later, and the journal says why', async (t) => {
  const app = await build(t);
  await setFaults(app, { seed: 3, rules: [{ kind: 'latency', rate: 1, latency: { distribution: 'fixed', ms: 40 } }] });
  const r = await call(app, 'GET', '/v1/partner/merchants');
  t.equal(r.status, 200);
  const entry = await newestEntry(app);
  t.same(entry.fault, { rule: 0, kind: 'latency' });
  t.ok(entry.durationMs >= 40, `the answer waited (${entry.durationMs} ms)`);
});

t.test('a dropped connection, instead of or after the work, over a real socket', async (t) => {
  const app = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const m = await testMerchant(app);
  const post = (ref: string) =>
    undiciRequest(`http://127.0.0.1:${port}/v1/partner/payments`, {
      method: 'POST',
      headers: { ...PARTNER, 'content-type': 'application/json' },
      body: JSON.stringify({ merchantClientId: m.clientId, amount: 10, referenceNumber: ref }),
    });
  await setFaults(app, { seed: 1, rules: [{ kind: 'drop', operation: 'createPayment', rate: 1 }] });
  await t.rejects(post('drop-instead'), 'no answer: the socket was closed');
  t.equal(count(app, 'payments', 'reference_number = ?', 'drop-instead'), 0, 'nothing was made');
  t.match(await newestEntry(app), { status: 0, fault: { kind: 'drop' } });
  await setFaults(app, { seed: 1, rules: [{ kind: 'drop', operation: 'createPayment', rate: 1, when: 'after' }] });
  await t.rejects(post('drop-after'));
  t.equal(count(app, 'payments', 'reference_number = ?', 'drop-after'), 1, 'the payment was made, the answer lost');
  t.match(await newestEntry(app), { status: 200, fault: { kind: 'drop' } });
});

t.test('a window of the sandbox clock: faults only inside it', async (t) => {
  const app = await build(t);
  // the test clock is frozen at 2026-01-15T09:00:00Z
  await setFaults(app, {
    seed: 1,
    rules: [{ kind: 'error', rate: 1, status: 503, window: { from: '2026-01-15T10:00:00Z', to: '2026-01-15T10:05:00Z' } }],
  });
  t.equal((await call(app, 'GET', '/v1/partner/merchants')).status, 200, 'before the window');
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '1h' });
  t.equal((await call(app, 'GET', '/v1/partner/merchants')).status, 503, 'inside');
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '5m' });
  t.equal((await call(app, 'GET', '/v1/partner/merchants')).status, 200, 'after');
});

t.test('provider-outage: five minutes of 503 with Retry-After: 30 from when it is set', async (t) => {
  const app = await build(t);
  const set = await setFaults(app, { profile: 'provider-outage', seed: 7 });
  t.equal(set.body.profile, 'provider-outage');
  t.same(set.body.rules[0].window, { from: '2026-01-15T09:00:00.000Z', to: '2026-01-15T09:05:00.000Z' });
  const r = await app.inject({ method: 'GET', url: '/v1/partner/merchants', headers: PARTNER });
  t.equal(r.statusCode, 503);
  t.equal(r.headers['retry-after'], '30');
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '5m' });
  t.equal((await call(app, 'GET', '/v1/partner/merchants')).status, 200, 'the outage is over');
});

t.test('bad profiles: 400 with a JSON pointer, nothing applied', async (t) => {
  const app = await build(t);
  const good = await setFaults(app, { seed: 5, rules: [{ kind: 'error', rate: 0.5, status: 429 }] });
  const cases: [unknown, string, RegExp][] = [
    [
      {
        rules: [
          { kind: 'error', rate: 0.1, status: 503 },
          { kind: 'error', rate: 1.5, status: 503 },
        ],
      },
      '/rules/1/rate',
      /<= 1/,
    ],
    [{ rules: [{ kind: 'error', rate: -0.1, status: 503 }] }, '/rules/0/rate', />= 0/],
    [{ rules: [{ kind: 'error', rate: 1, status: 503, operation: 'deletePayment' }] }, '/rules/0/operation', /not a partner operation/],
    [{ rules: [{ kind: 'latency', rate: 1, latency: { distribution: 'fixed', ms: -5 } }] }, '/rules/0/latency/ms', />= 0/],
    [{ rules: [{ kind: 'latency', rate: 1, latency: { distribution: 'fixed', ms: 600000 } }] }, '/rules/0/latency/ms', /<= 30000/],
    [
      { rules: [{ kind: 'latency', rate: 1, latency: { distribution: 'uniform', minMs: 500, maxMs: 100 } }] },
      '/rules/0/latency/maxMs',
      /less than minMs/,
    ],
    [{ rules: [{ kind: 'latency', rate: 1 }] }, '/rules/0/latency', /required/],
    [{ rules: [{ kind: 'error', rate: 1, status: 418 }] }, '/rules/0/status', /one of/],
    [{ rules: [{ kind: 'webhook_drop', rate: 1, event: 'payment.exploded' }] }, '/rules/0/event', /one of/],
    [
      { rules: [{ kind: 'error', rate: 1, status: 503, window: { from: '2026-01-15T10:00:00Z', to: '2026-01-15T09:00:00Z' } }] },
      '/rules/0/window/to',
      /after from/,
    ],
    [{ profile: 'meteor-strike' }, '/profile', /one of: flaky-network/],
    [{ rules: [] }, '/rules', /needs rules/],
    [{ seed: -1, profile: 'flaky-network' }, '/seed', />= 0/],
  ];
  for (const [body, field, message] of cases) {
    const r = await setFaults(app, body);
    t.equal(r.status, 400, field);
    t.equal(r.body.field, field);
    t.match(r.body.message, message);
    t.same(schemaErrors('ErrorBody', r.body), []);
  }
  t.same((await call(app, 'GET', '/_sandbox/faults')).body, good.body, 'the profile in force is the one set before');
});

t.test("a created sandbox's profile: set at creation, its seed shown; never touching another sandbox", async (t) => {
  const app = await build(t);
  const created = await call(app, 'POST', '/_sandbox/sandboxes', { faults: { rules: [{ kind: 'error', rate: 1, status: 503 }] } }, {});
  t.equal(created.status, 200);
  t.same(schemaErrors('SandboxCreated', created.body), []);
  t.ok(Number.isInteger(created.body.faults.seed));
  const mine = sandboxHeaders(created.body);
  t.equal((await call(app, 'GET', '/v1/partner/merchants', undefined, mine)).status, 503, 'the created sandbox has faults');
  t.equal((await call(app, 'GET', '/v1/partner/merchants')).status, 200, 'the default sandbox has none');
  t.equal((await call(app, 'GET', '/_sandbox/faults')).body.active, false);
  const deleted = await call(app, 'DELETE', `/_sandbox/sandboxes/${created.body.sandboxId}`, undefined, {});
  t.equal(deleted.status, 200);
  t.equal(count(app, 'fault_profiles', 'sandbox_id = ?', created.body.sandboxId), 0, 'its profile went with it');
});

t.test('a bad profile at creation: a pointer under /faults, and no sandbox', async (t) => {
  const app = await build(t);
  const before = count(app, 'sandboxes');
  const r = await call(
    app,
    'POST',
    '/_sandbox/sandboxes',
    {
      faults: {
        rules: [
          { kind: 'error', rate: 0.1, status: 503 },
          { kind: 'error', rate: 2, status: 503 },
        ],
      },
    },
    {},
  );
  t.equal(r.status, 400);
  t.equal(r.body.field, '/faults/rules/1/rate');
  const unknownOp = await call(
    app,
    'POST',
    '/_sandbox/sandboxes',
    { faults: { rules: [{ kind: 'drop', rate: 1, operation: 'GET /v1/nowhere' }] } },
    {},
  );
  t.equal(unknownOp.body.field, '/faults/rules/0/operation');
  t.equal(count(app, 'sandboxes'), before, 'nothing created');
  const elsewhere = await call(app, 'POST', '/_sandbox/sandboxes', { ttl: true }, {});
  t.equal(elsewhere.body.field, '/ttl', 'other fields by their pointer too');
});

t.test('a slow token endpoint: generate-token is placed by its merchant when it names no partner', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  await setFaults(app, {
    seed: 2,
    rules: [{ kind: 'latency', operation: 'generateToken', rate: 1, latency: { distribution: 'fixed', ms: 20 } }],
  });
  const r = await call(
    app,
    'POST',
    '/v1/auth/generate-token',
    { userId: 'u-1', merchantId: m.merchantId, permissions: ['ais:accounts:read'] },
    {},
  );
  t.equal(r.status, 200);
  t.match(await newestEntry(app), { path: '/v1/auth/generate-token', fault: { kind: 'latency' } });
  t.same((await call(app, 'GET', '/_sandbox/faults')).body.injected, [1]);
});
