/**
 * Scenario steps on the request journal: expectRequest waits for the code under test (here, this
 * test acting as the partner app) and counts only its requests, not the runner's; expectNoRequest
 * fails on a match; a failure prints the near misses.
 */
import t from 'tap';
import { build, PARTNER } from '../helpers/app.js';
import { call, testMerchant } from '../helpers/partner.js';
import { failure, runSteps, TEST_MERCHANT } from '../helpers/scenarios.js';

t.test('expectRequest waits for the partner app; the runner’s own requests do not count', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'before-the-run' });
  // the partner app creates its payment 200 ms after the scenario started
  const appActs = new Promise<void>((resolve) =>
    setTimeout(() => {
      void call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'order-17' }).then(() =>
        resolve(),
      );
    }, 200),
  );
  const result = await runSteps(app, [
    TEST_MERCHANT, // the runner's own POST /v1/partner/merchants/test
    { expectNoRequest: { request: { method: 'POST', path: '/v1/partner/merchants/test' }, timeoutMs: 50 } },
    {
      expectRequest: {
        request: { method: 'POST', path: '/v1/partner/payments', body: { referenceNumber: 'order-17' } },
        count: 1,
        timeoutMs: 5000,
      },
    },
    { expectRequest: { request: { method: 'POST', path: '/v1/partner/payments' }, count: 1, timeoutMs: 0 } },
  ]);
  await appActs;
  t.equal(failure(result), '');
  t.ok(result.passed);
  t.same(
    result.steps.map((s) => s.status),
    ['passed', 'passed', 'passed', 'passed'],
    'the payment made before the run is not counted',
  );
});

t.test('failures explain themselves: near misses, or the requests that should not have been', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const partnerApp = () =>
    call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'order-17' }, PARTNER);

  const notYet = runSteps(app, [
    { wait: 100 },
    { expectRequest: { request: { method: 'POST', path: '/v1/partner/payments', body: { referenceNumber: 'order-18' } }, timeoutMs: 100 } },
  ]);
  setTimeout(() => void partnerApp(), 20);
  const missed = await notYet;
  t.notOk(missed.passed);
  t.match(failure(missed), /expected at least 1 request\(s\) matching .*order-18.*, found 0 in 100ms/);
  t.match(
    failure(missed),
    /near misses \(closest first\):\n {4}- #\d+ POST \/v1\/partner\/payments -> 200\n {8}body\.referenceNumber: expected "order-18", was "order-17"/,
  );

  const shouldNot = runSteps(app, [
    { wait: 100 },
    { expectNoRequest: { request: { status: '2xx', path: '/v1/partner/payments' }, timeoutMs: 100 } },
  ]);
  setTimeout(() => void partnerApp(), 20);
  const found = await shouldNot;
  t.notOk(found.passed);
  t.match(
    failure(found),
    /expected no request matching .*, found 1\n {2}matching requests:\n {4}- #\d+ POST \/v1\/partner\/payments -> 200/,
  );

  const bad = await runSteps(app, [{ expectRequest: { request: { jsonPath: { '$..x': 1 } } } }]);
  t.match(failure(bad), /400/, 'a malformed matcher fails the step with the server’s 400');
});
