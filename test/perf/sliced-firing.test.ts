/**
 * Due transitions fire in slices (src/engine/world.ts advance, timers.ts runSliced): a clock advance over a burst
 * of timers gives the event loop back between slices, so other requests are answered while it
 * runs, and still answers only once every transition fired. Before a trigger, only the acted-on
 * aggregate's own due timers are caught up.
 */
import t from 'tap';
import { build, json, PARTNER } from '../helpers/app.js';

const N = 2000;

t.test(`an advance over ${N} due settlements: other requests answered meanwhile, all fired when it answers`, async (t) => {
  const app = await build(t, { config: { settleDelayMs: 5_000, paymentExpiryMs: 3_600_000, validateResponses: false } });
  const m = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Burst ApS' } }),
  );
  for (let i = 0; i < N; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/partner/payments',
      headers: PARTNER,
      payload: { merchantClientId: m.clientId, amount: 10, referenceNumber: `s${i}` },
    });
    if (res.statusCode !== 200) t.fail(`payment ${i}: ${res.statusCode}`);
  }
  const order: string[] = [];
  let health: Promise<unknown> | undefined;
  // as soon as the clock has moved (after the first slice: it moves with the firings), ask for
  // something else, once
  const off = app.clock.onAdvance(() => {
    if (health) return;
    health = new Promise((resolve) => setImmediate(resolve)).then(() => {
      return app.inject({ method: 'GET', url: `/v1/partner/merchants/${m.merchantId}/onboarding-status`, headers: PARTNER }).then((r) => {
        order.push(`read ${r.statusCode}`);
      });
    });
  });
  const advance = await app
    .inject({ method: 'POST', url: '/_sandbox/clock/advance', headers: PARTNER, payload: { ms: 10_000 } })
    .then((r) => {
      order.push('advance');
      return r;
    });
  off();
  await health;
  t.equal(advance.statusCode, 200);
  t.equal(json(advance).fired, N, 'the advance reports every transition');
  t.same(order, ['read 200', 'advance'], 'the read was answered while the settlements were firing');
  t.equal(app.db.prepare("SELECT count(*) FROM payments WHERE status = 'paid'").pluck().get(), N, 'all paid when the advance answered');
  t.equal(app.db.prepare("SELECT count(*) FROM events WHERE name = 'payment.completed'").pluck().get(), N, 'one event each');
  t.equal(app.db.prepare('SELECT count(*) FROM timers WHERE due_at <= ?').pluck().get(app.clock.nowMs()), 0, 'nothing due is left');
});

t.test("a trigger first fires its own aggregate's due timers, and only those", async (t) => {
  const app = await build(t, { config: { settleDelayMs: 3_600_000, paymentExpiryMs: 1_800_000 } });
  const m = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Catch ApS' } }),
  );
  const pay = async (ref: string) =>
    json(
      await app.inject({
        method: 'POST',
        url: '/v1/partner/payments',
        headers: PARTNER,
        payload: { merchantClientId: m.clientId, amount: 10, referenceNumber: ref },
      }),
    );
  const a = await pay('a');
  const b = await pay('b');
  // both expiries fall due without the clock firing them (as when a sliced run has not reached them)
  app.db.prepare("UPDATE timers SET due_at = ? WHERE aggregate = 'payment'").run(app.clock.nowMs() - 1);
  const approve = await app.inject({ method: 'POST', url: `/_sandbox/payments/${a.paymentId}/complete`, headers: PARTNER });
  t.equal(approve.statusCode, 409, 'the expiry fired first: completing an expired payment is illegal');
  t.match(json(approve), { code: 'illegal_transition' });
  const status = async (id: number) =>
    json(await app.inject({ method: 'GET', url: `/v1/partner/payments/${id}/status`, headers: PARTNER }));
  t.match(await status(a.paymentId), { status: 'failed', failureReason: 'expired' });
  t.match(await status(b.paymentId), { status: 'pending' }, "another payment's due timer is left to the scheduler");
  t.equal(app.engine.timersOf('payment', b.paymentId).length, 1);
  t.equal(app.engine.runDue(), 1, 'the scheduler fires it');
  t.match(await status(b.paymentId), { status: 'failed', failureReason: 'expired' });
});
