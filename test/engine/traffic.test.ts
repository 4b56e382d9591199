/**
 * Requests first (src/engine/traffic.ts): between two slices of a burst of due timers, the timer
 * runtime waits while requests are being served, for a bounded time, so a client making one call
 * at a time is not held by a slice before each call, and the burst still finishes under load.
 */
import { Agent, request } from 'node:http';
import t from 'tap';
import { createTraffic, INTERACTIVE_MAX_IN_FLIGHT } from '../../src/engine/traffic.js';
import { build } from '../helpers/app.js';
import { advance } from '../helpers/engine.js';
import { call, testMerchant } from '../helpers/partner.js';

t.test('the gauge: yield right after a request arrives or is answered, not once quiet, not when saturated', async (t) => {
  const gauge = createTraffic(60_000);
  t.equal(gauge.yieldToRequests(), false, 'quiet before any request');
  gauge.arrived();
  t.equal(gauge.yieldToRequests(), true, 'a client is waiting on its answer');
  gauge.answered();
  t.equal(gauge.yieldToRequests(), true, 'just answered: its next call is on its way');
  for (let i = 0; i <= INTERACTIVE_MAX_IN_FLIGHT; i++) gauge.arrived();
  t.equal(gauge.inFlight, INTERACTIVE_MAX_IN_FLIGHT + 1);
  t.equal(gauge.yieldToRequests(), false, 'saturated: slices and requests alternate');
  for (let i = 0; i < INTERACTIVE_MAX_IN_FLIGHT + 5; i++) gauge.answered();
  t.equal(gauge.inFlight, 0, 'never below zero (an abandoned request may be counted twice)');
  t.equal(gauge.yieldToRequests(), false, 'all answered, but many were in flight a moment ago: still saturated');
  const instant = createTraffic(0);
  instant.arrived();
  instant.answered();
  t.equal(instant.yieldToRequests(), false, 'quiet once the grace period has passed');
});

t.test('a burst advancing under back-to-back requests: slices wait for them, and the burst still completes', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const PAYMENTS = 1_500;
  for (let i = 0; i < PAYMENTS; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: `burst-${i + j}` }),
      ),
    );
  }
  const firedBefore = app.engine.firedTotal;
  let done = false;
  const advanced = advance(app, '1h').then((r) => {
    done = true;
    return r;
  });
  // one call at a time, as a test suite makes them; between two answers, did a slice run?
  let answered = 0;
  let refused = 0;
  let slicesBetween = 0;
  let last = app.engine.firedTotal;
  // over real HTTP (inject never leaves the microtask queue, so no slice could run between calls)
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const get = () =>
    new Promise<number>((resolve, reject) => {
      request(`${base}/healthz`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
        .on('error', reject)
        .end();
    });
  while (!done) {
    if ((await get()) !== 200) refused++;
    answered++;
    const now = app.engine.firedTotal;
    if (now !== last) slicesBetween++;
    last = now;
  }
  const { fired } = await advanced;
  t.equal(fired, PAYMENTS, 'every settlement fired');
  t.equal(app.engine.firedTotal - firedBefore, PAYMENTS);
  const paid = app.db.prepare("SELECT count(*) FROM payments WHERE status = 'paid'").pluck().get();
  t.equal(paid, PAYMENTS, 'every payment is paid');
  t.equal(refused, 0, 'every call answered 200');
  t.ok(answered >= 20, `requests were answered while the burst ran (${answered})`);
  // without the gauge a slice runs between every two calls; with it, at most one per YIELD_MAX_MS
  t.ok(slicesBetween <= answered / 4, `slices between calls: ${slicesBetween} of ${answered} answers`);
});
