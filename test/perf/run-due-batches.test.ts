/**
 * runDue fires due timers in batches (one transaction per 100 timers, one savepoint per timer).
 * A clock advance over hundreds of due timers must still fire every one, in due order, with one
 * event each, and report the count.
 */
import t from 'tap';
import { build, json, PARTNER } from '../helpers/app.js';

t.test('250 payments settling in one advance: all paid, events in due order, fired count', async (t) => {
  const app = await build(t, { config: { settleDelayMs: 5_000, paymentExpiryMs: 3_600_000 } });
  const m = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Batch ApS' } }),
  );
  const ids: number[] = [];
  for (let i = 0; i < 250; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/partner/payments',
      headers: PARTNER,
      payload: { merchantClientId: m.clientId, amount: 10 + i, referenceNumber: `b${i}` },
    });
    ids.push(json(res).paymentId);
    app.clock.advance(1); // each payment falls due 1 ms after the previous one
  }
  const before = app.engine.firedTotal;
  const res = await app.inject({ method: 'POST', url: '/_sandbox/clock/advance', headers: PARTNER, payload: { ms: 10_000 } });
  t.equal(res.statusCode, 200);
  t.equal(json(res).fired, 250, 'the advance reports every timer it fired');
  t.equal(app.engine.firedTotal - before, 250);
  const paid = app.db.prepare(`SELECT count(*) FROM payments WHERE status = 'paid'`).pluck().get();
  t.equal(paid, 250);
  const order = (app.db.prepare(`SELECT body FROM events WHERE name = 'payment.completed' ORDER BY rowid`).all() as { body: string }[]).map(
    (r) => JSON.parse(r.body).data.paymentId as number,
  );
  t.same(order, ids, 'payment.completed events in due order');
});
