import t from 'tap';
import { build } from '../helpers/app.js';
import { startReceiver } from '../../src/scenarios/receiver.js';
import { sign } from '../../src/webhooks/sign.js';
import { runScenario } from '../../src/scenarios/runner.js';
import type { Step } from '../../src/scenarios/types.js';
import { validateScenario } from '../../src/scenarios/loader.js';
import { failure, fakeTransport, runSteps, TEST_MERCHANT } from '../helpers/scenarios.js';
import { scaled } from '../helpers/speed.js';

// generous: CI runs many test files at once on few cores (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

// one simulator for the whole file (building one costs ~1s); steps create uniquely named data
const app = await build(t);

const PAYMENT = (amount: number): Step => ({
  request: {
    method: 'POST',
    path: '/v1/partner/payments',
    body: { merchantClientId: '${merchant.clientId}', amount, referenceNumber: 'ref-${unique}' },
    capture: { 'payment.id': 'paymentId' },
  },
});

t.test('request: partner auth, capture, status/body/header expectations, query, raw body, auth none', async (t) => {
  const ok = await runSteps(app, [
    TEST_MERCHANT,
    {
      request: {
        method: 'GET',
        path: '/v1/partner/merchants',
        query: { page: 1, limit: 5 },
        expect: { status: 200, body: { page: 1, limit: 5 } },
      },
    },
    {
      request: {
        method: 'GET',
        path: '/v1/partner/merchants/${merchant.id}/onboarding-status',
        expect: { body: { merchantId: '${merchant.id}', onboardingStatus: 'activated' } },
      },
    },
    {
      request: {
        method: 'GET',
        path: '/v1/partner/merchants',
        auth: 'none',
        expect: { status: 401, body: { code: 'partner_credentials_missing' } },
      },
    },
    {
      request: {
        method: 'POST',
        path: '/v1/partner/merchants',
        rawBody: '{"companyName":',
        expect: { status: 400, body: { code: 'malformed_json' } },
      },
    },
    {
      request: {
        method: 'GET',
        path: '/healthz',
        auth: 'none',
        headers: { 'x-request-id': 'rq-${run.id}' },
        expect: { headers: { 'X-Request-Id': 'rq-${run.id}' } },
      },
    },
  ]);
  t.ok(ok.passed, failure(ok));
  t.same(
    ok.steps.map((s) => s.status),
    ['passed', 'passed', 'passed', 'passed', 'passed', 'passed'],
  );
  t.match(ok.steps[0].detail, /POST \/v1\/partner\/merchants\/test → 200 \(captured merchant\.id, merchant\.clientId\)/);
});

t.test('request: a wrong status stops the scenario with the response body; later steps are skipped', async (t) => {
  const r = await runSteps(app, [
    { request: { method: 'GET', path: '/v1/partner/merchants/999999/onboarding-status', expect: { status: 200 } } },
    { wait: 1 },
  ]);
  t.notOk(r.passed);
  t.same(
    r.steps.map((s) => s.status),
    ['failed', 'skipped'],
  );
  t.match(
    failure(r),
    /GET \/v1\/partner\/merchants\/999999\/onboarding-status: expected status 200, got 404\n {2}response body:\n.*"code": "merchant_not_found"/s,
  );
});

t.test('request: a body mismatch names the path, expected and actual', async (t) => {
  const r = await runSteps(app, [
    TEST_MERCHANT,
    {
      request: {
        method: 'GET',
        path: '/v1/partner/merchants/${merchant.id}/onboarding-status',
        expect: { body: { onboardingStatus: 'inactive' } },
      },
    },
  ]);
  t.match(
    failure(r),
    /response body does not match:\n {2}at onboardingStatus: differs\n {4}expected: "inactive"\n {4}actual: {3}"activated"/,
  );
});

t.test('request: bearer token from ${token} or from `token`; capture of a missing path fails', async (t) => {
  const r = await runSteps(app, [
    TEST_MERCHANT,
    {
      request: {
        method: 'POST',
        path: '/v1/auth/generate-token',
        auth: 'none',
        body: { userId: 'u-1', merchantId: '${merchant.id}', permissions: ['ais:accounts:read'] },
        capture: { token: 'token' },
      },
    },
    {
      request: {
        method: 'GET',
        path: '/v1/ais/users/u-1/consents',
        auth: 'bearer',
        query: { merchantId: '${merchant.id}' },
        expect: { status: 200, body: [] },
      },
    },
    {
      request: {
        method: 'GET',
        path: '/v1/ais/users/u-1/consents',
        auth: 'bearer',
        token: 'not-a-jwt',
        query: { merchantId: '${merchant.id}' },
        expect: { status: 401 },
      },
    },
    { request: { method: 'GET', path: '/healthz', auth: 'none', capture: { x: 'no.such.path' } } },
  ]);
  t.equal(r.steps[4].status, 'failed');
  t.match(failure(r), /capture x: the response body has no value at "no\.such\.path"/);
  t.same(
    r.steps.slice(0, 4).map((s) => s.status),
    ['passed', 'passed', 'passed', 'passed'],
  );
});

t.test('an unknown variable fails the step that uses it', async (t) => {
  const r = await runSteps(app, [{ request: { method: 'GET', path: '/v1/partner/merchants/${merchant.id}/onboarding-status' } }]);
  t.match(failure(r), /unknown variable \$\{merchant\.id\}/);
});

t.test('set and scenario variables', async (t) => {
  const r = await runSteps(
    app,
    [{ set: { a: 1, b: 'x-${a}' } }, { set: { c: '${b}' } }, { request: { method: 'GET', path: '/healthz?c=${c}', auth: 'none' } }],
    { variables: { start: 'v' } },
  );
  t.ok(r.passed, failure(r));
  t.match(r.steps[0].detail, /a = 1/);
});

t.test('control + advanceClock + registerWebhook + expectWebhook + expectNoWebhook', async (t) => {
  const startMs = app.clock.nowMs();
  const r = await runSteps(app, [
    TEST_MERCHANT,
    { registerWebhook: { events: ['payment.completed', 'payment.failed'], as: 'hook' } },
    PAYMENT(20),
    { control: { payment: '${payment.id}', action: 'approve', expect: { body: { status: 'processing' } } } },
    { expectNoWebhook: { event: 'payment.completed' } },
    { advanceClock: '5s' },
    {
      expectWebhook: {
        event: 'payment.completed',
        webhook: 'hook',
        data: { paymentId: '${payment.id}', status: 'paid' },
        capture: { evt: 'data.paymentId' },
      },
    },
    { request: { method: 'GET', path: '/healthz?e=${evt}&h=${hook.id}', auth: 'none' } },
    PAYMENT(30),
    { control: { payment: '${payment.id}', action: 'fail', body: { reason: 'payer_abandoned' } } },
    { expectWebhook: { event: 'payment.failed', data: { failureReason: 'payer_abandoned' } } },
    { advanceClock: { by: '1m' } },
    { advanceClock: { to: '${now+1h}' } },
    { control: { merchant: '${merchant.id}', action: 'deactivate', capture: { st: 'status' } } },
  ]);
  t.ok(r.passed, failure(r));
  t.equal(app.clock.nowMs() - startMs, 5_000 + 60_000 + 3_600_000, 'the virtual clock moved by 5s, 1m, then to now+1h');
  t.match(r.steps[5].detail, new RegExp(`now ${new Date(startMs + 5000).toISOString()}, 1 transition\\(s\\) fired`));
  t.match(r.steps[6].detail, /^evt_\w+ signature valid$/);
});

t.test('expectWebhook: a delivery satisfies one expectation only; a miss lists what was delivered', async (t) => {
  const r = await runSteps(app, [
    TEST_MERCHANT,
    { registerWebhook: { events: ['payment.completed'] } },
    PAYMENT(20),
    { control: { payment: '${payment.id}', action: 'complete' } },
    { expectWebhook: { event: 'payment.completed' } },
    { expectWebhook: { event: 'payment.completed', data: { status: 'failed' }, timeoutMs: 200 } },
  ]);
  t.equal(r.steps[5].status, 'failed');
  const msg = failure(r);
  t.match(msg, /expected a payment\.completed delivery to webhook wh_\w+ with data matching \{"status":"failed"\}; none arrived in 200ms/);
  t.match(msg, /deliveries made to this webhook \(1\):\n {4}- payment\.completed \{"paymentId":/);
  t.match(msg, /at status: differs\n {4}expected: "failed"\n {4}actual: {3}"paid"/);
});

t.test('expectWebhook within: advances the virtual clock when the webhook has not arrived', async (t) => {
  const startMs = app.clock.nowMs();
  const r = await runSteps(app, [
    TEST_MERCHANT,
    { registerWebhook: { events: ['payment.completed'] } },
    PAYMENT(20),
    { expectWebhook: { event: 'payment.completed', within: '10s' } },
  ]);
  t.ok(r.passed, failure(r));
  t.match(r.steps[3].detail, /after advancing 10s/);
  t.equal(app.clock.nowMs() - startMs, 10_000);
});

t.test('expectNoWebhook fails on an unexpected delivery', async (t) => {
  const r = await runSteps(app, [
    TEST_MERCHANT,
    { registerWebhook: { events: ['payment.completed'] } },
    PAYMENT(20),
    { expectNoWebhook: { event: 'payment.completed', within: '5s' } },
  ]);
  t.match(failure(r), /expected no payment\.completed delivery, got evt_\w+:\n {4}\{"event":"payment\.completed"/);
});

t.test('webhook steps need a registered webhook', async (t) => {
  t.match(failure(await runSteps(app, [{ expectWebhook: { event: 'payment.completed', timeoutMs: 0 } }])), /no webhook registered yet/);
  t.match(
    failure(
      await runSteps(app, [{ registerWebhook: { events: ['payment.completed'] } }, { expectNoWebhook: { event: 'x', webhook: 'other' } }]),
    ),
    /no webhook registered as "other" \(registered: webhook\)/,
  );
});

t.test('expectWebhook recomputes the signature: a wrong one fails with both values', async (t) => {
  const body = JSON.stringify({ event: 'payment.completed', timestamp: '2026-01-15T09:00:00.000Z', data: { paymentId: 1 } });
  const transport = fakeTransport((method, path) => {
    if (path === '/_sandbox/clock') return { status: 404 };
    if (path === '/v1/partner/webhooks') return { status: 200, json: { id: 'wh_1', secret: 'right-secret' } };
    if (path.startsWith('/_sandbox/deliveries')) {
      return {
        status: 200,
        json: {
          items: [{ id: 1, eventId: 'evt_1', event: 'payment.completed', webhookId: 'wh_1', body, signature: sign('wrong-secret', body) }],
          total: 1,
        },
      };
    }
    return { status: 500 };
  });
  const scenario = validateScenario(
    {
      name: 'sig',
      steps: [{ registerWebhook: { events: ['payment.completed'] } }, { expectWebhook: { event: 'payment.completed', timeoutMs: 50 } }],
    },
    'sig.yaml',
  );
  const r = await runScenario(scenario, { transport });
  t.match(
    failure(r),
    /payment\.completed delivery evt_1: X-Webhook-Signature does not verify with the webhook secret\n {4}received: [0-9a-f]{64}\n {4}expected: [0-9a-f]{64}/,
  );
  const ignored = validateScenario(
    {
      name: 'sig',
      steps: [
        { registerWebhook: { events: ['payment.completed'] } },
        { expectWebhook: { event: 'payment.completed', signature: 'ignore' } },
      ],
    },
    'sig.yaml',
  );
  t.ok((await runScenario(ignored, { transport })).passed, 'signature: ignore skips the check');
});

t.test('--receiver mode: webhooks registered with a real local receiver; deliveries read from it', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const scenario = validateScenario(
    {
      name: 'rx',
      steps: [
        TEST_MERCHANT,
        { registerWebhook: { events: ['payment.completed'] } },
        PAYMENT(20),
        { advanceClock: '5s' },
        { expectWebhook: { event: 'payment.completed', data: { status: 'paid' } } },
      ],
    },
    'rx.yaml',
  );
  const { injectTransport } = await import('../../src/scenarios/transport.js');
  const r = await runScenario(scenario, { transport: injectTransport(app), receiver });
  t.ok(r.passed, failure(r));
  t.match(r.steps[1].detail, new RegExp(`→ ${receiver.url}/hooks/`));
  t.equal(receiver.deliveries.length, 1, 'the simulator really posted to the receiver');
  t.match(receiver.deliveries[0].headers['x-webhook-signature'], /^[0-9a-f]{64}$/);
  t.match(r.steps[4].detail, /signature valid/);
});

t.test('wait is real time and bounded', async (t) => {
  const started = Date.now();
  const r = await runSteps(app, [{ wait: 30 }, { wait: { ms: 20 } }]);
  t.ok(r.passed);
  t.ok(Date.now() - started >= 45);
});

t.test('reset option: POST /_sandbox/reset before the first step', async (t) => {
  await runSteps(app, [TEST_MERCHANT]);
  const before = app.db.prepare("SELECT count(*) FROM merchants WHERE partner_id = 'sandbox-partner'").pluck().get() as number;
  const r = await runSteps(app, [{ control: { reset: true } }], { reset: true });
  t.ok(r.passed, failure(r));
  const after = app.db.prepare("SELECT count(*) FROM merchants WHERE partner_id = 'sandbox-partner'").pluck().get() as number;
  t.ok(after < before, `merchants ${before} -> ${after}`);
});

t.test('setup failure (simulator unreachable) is reported, no step runs', async (t) => {
  const { httpTransport } = await import('../../src/scenarios/transport.js');
  const scenario = validateScenario({ name: 'down', steps: [{ wait: 1 }] }, 'down.yaml');
  const r = await runScenario(scenario, { transport: httpTransport('http://127.0.0.1:9'), reset: true });
  t.notOk(r.passed);
  t.match(r.error, /setup failed: cannot reach http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)/);
  t.same(
    r.steps.map((s) => s.status),
    ['skipped'],
  );
});

t.test('runFiles: loads everything first, --tag selects, --bail stops after the first failure', async (t) => {
  const { runFiles } = await import('../../src/scenarios/runner.js');
  const { injectTransport } = await import('../../src/scenarios/transport.js');
  const dir = t.testdir({
    'a-fails.yaml': 'name: a-fails\ntags: [x]\nsteps:\n  - request: { method: GET, path: /nope, auth: none }\n',
    'b-passes.yaml': 'name: b-passes\ntags: [y]\nsteps:\n  - request: { method: GET, path: /healthz, auth: none }\n',
    'c-passes.yaml': 'name: c-passes\ntags: [x, y]\nsteps:\n  - wait: 1\n',
  });
  const transport = injectTransport(app);
  const all = await runFiles([dir], { transport });
  t.same(
    all.map((r) => [r.name, r.passed]),
    [
      ['a-fails', false],
      ['b-passes', true],
      ['c-passes', true],
    ],
  );
  t.same(
    (await runFiles([dir], { transport, tags: ['y'] })).map((r) => r.name),
    ['b-passes', 'c-passes'],
  );
  t.same(
    (await runFiles([dir], { transport, bail: true })).map((r) => r.name),
    ['a-fails'],
  );
  const broken = t.testdir({ 'ok.yaml': 'name: ok\nsteps:\n  - wait: 1\n', 'zz.yaml': 'name: zz\nsteps:\n  - nope: 1\n' });
  const loadFailed = await runFiles([broken], { transport });
  t.same(
    loadFailed.map((r) => [r.name, r.passed, r.steps.length]),
    [[`${broken}/zz.yaml`, false, 0]],
    'a bad file fails the run before anything runs',
  );
  t.match(loadFailed[0].error, /zz\.yaml: step 1: unknown step kind "nope"/);
});

t.test('within as an integer is a real-time bound: the clock does not move', async (t) => {
  const before = app.clock.nowMs();
  const r = await runSteps(app, [
    TEST_MERCHANT,
    { registerWebhook: { events: ['payment.completed'] } },
    PAYMENT(20),
    { expectWebhook: { event: 'payment.completed', within: 150 } },
  ]);
  t.match(failure(r), /none arrived in 150ms/);
  t.equal(app.clock.nowMs(), before, 'virtual time untouched');
  const quiet = await runSteps(app, [
    TEST_MERCHANT,
    { registerWebhook: { events: ['payment.completed'] } },
    { expectNoWebhook: { event: 'payment.completed', within: 50 } },
  ]);
  t.ok(quiet.passed, failure(quiet));
  t.match(quiet.steps[2].detail, /none in 50ms$/);
});
