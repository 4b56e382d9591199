/**
 * The outbox is atomic with the state change: when writing the event or its delivery rows fails
 * inside the transaction, the change itself is rolled back too. A temporary SQLite trigger makes
 * the outbox insert fail (RAISE(ABORT)); then the aggregate must be exactly as before, with no
 * event row, no delivery row and nothing sent, and the caller gets the documented 500
 * `internal_error` ErrorBody (never a success for a change that was not recorded). With the
 * trigger dropped, the same call succeeds and the event is delivered once.
 */
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { build, schemaErrors } from '../helpers/app.js';
import { call, count, testMerchant } from '../helpers/partner.js';
import { expectedSignature, startReceiver } from '../helpers/receiver.js';

type Table = 'events' | 'deliveries';

/** Make every insert into `table` fail until the returned function is called. */
function breakOutbox(t: Test, app: FastifyInstance, table: Table): () => void {
  app.db.exec(
    `CREATE TEMP TRIGGER obsim_test_break_${table} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'outbox insert failed (test trigger)'); END`,
  );
  let dropped = false;
  const drop = () => {
    if (dropped) return;
    dropped = true;
    app.db.exec(`DROP TRIGGER IF EXISTS obsim_test_break_${table}`);
  };
  t.teardown(drop);
  return drop;
}

interface Snapshot {
  events: number;
  deliveries: number;
  timers: unknown[];
}

function snapshot(app: FastifyInstance): Snapshot {
  return {
    events: count(app, 'events'),
    deliveries: count(app, 'deliveries'),
    timers: app.db.prepare('SELECT * FROM timers ORDER BY id').all(),
  };
}

function checkServerError(t: Test, r: { status: number; body: any }) {
  t.equal(r.status, 500, 'the failure is reported, not hidden behind a success');
  t.same(schemaErrors('ErrorBody', r.body), [], 'in the documented ErrorBody shape');
  t.match(r.body, { status: 500, code: 'internal_error', message: 'Internal server error', requestId: /^req_/ });
  t.notMatch(JSON.stringify(r.body), /RAISE|trigger|SQLITE|outbox insert/i, 'no database internals leak into the answer');
}

async function setup(t: Test, events: string[]) {
  const app = await build(t);
  const rx = await startReceiver(t);
  const m = await testMerchant(app);
  const hook = (await call(app, 'POST', '/v1/partner/webhooks', { url: rx.url, events })).body as { id: string; secret: string };
  await app.webhooks.drain();
  return { app, rx, m, hook };
}

const paymentRow = (app: FastifyInstance, id: number) => app.db.prepare('SELECT * FROM payments WHERE id = ?').get(id);
const merchantRow = (app: FastifyInstance, id: number) => app.db.prepare('SELECT * FROM merchants WHERE id = ?').get(id);

for (const table of ['deliveries', 'events'] as const) {
  t.test(`control call: a failing ${table} insert rolls the payment transition back`, async (t) => {
    const { app, rx, m, hook } = await setup(t, ['payment.completed']);
    const p = (
      await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 125.5, referenceNumber: 'atomic-1' })
    ).body;
    const statusBefore = (await call(app, 'GET', `/v1/partner/payments/${p.paymentId}/status`)).body;
    const rowBefore = paymentRow(app, p.paymentId);
    const before = snapshot(app);

    const drop = breakOutbox(t, app, table);
    const r = await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`);
    checkServerError(t, r);
    await app.webhooks.drain();
    t.same(paymentRow(app, p.paymentId), rowBefore, 'the payment row is unchanged (still pending)');
    t.same((await call(app, 'GET', `/v1/partner/payments/${p.paymentId}/status`)).body, statusBefore, 'GET …/status answers as before');
    t.same(snapshot(app), before, 'no event row, no delivery row, timers untouched');
    t.equal(rx.received.length, 0, 'nothing was sent');

    drop();
    const ok = await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`);
    t.equal(ok.status, 200);
    t.match(ok.body, { status: 'paid', bankPaymentStatus: 'AcceptedSettlementCompleted' });
    t.equal(count(app, 'events'), before.events + 1, 'the retried change wrote its event');
    t.equal(count(app, 'deliveries'), before.deliveries + 1);
    await app.webhooks.drain();
    t.equal(rx.received.length, 1, 'and it was delivered once');
    t.equal(rx.received[0].headers['x-webhook-signature'], expectedSignature(hook.secret, rx.received[0].raw));
    t.match(rx.received[0].json, { event: 'payment.completed', data: { paymentId: p.paymentId, status: 'paid' } });
  });
}

t.test('control call: a failing event insert rolls the merchant deactivation back', async (t) => {
  const { app, rx, m } = await setup(t, ['merchant.deactivated']);
  const rowBefore = merchantRow(app, m.merchantId);
  const before = snapshot(app);
  const drop = breakOutbox(t, app, 'events');
  checkServerError(t, await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/deactivate`));
  t.same(merchantRow(app, m.merchantId), rowBefore, 'the merchant row is unchanged');
  t.match((await call(app, 'GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`)).body, { onboardingStatus: 'activated' });
  t.same(snapshot(app), before);
  // payments are still accepted: the merchant really is active
  t.equal(
    (await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 5, referenceNumber: 'still-active' })).status,
    200,
  );
  drop();
  await app.webhooks.drain();
  t.equal(rx.received.length, 0);
  t.match((await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/deactivate`)).body, {
    status: 'inactive',
    previousStatus: 'activated',
  });
  await app.webhooks.drain();
  t.same(
    rx.received.map((r) => r.json.event),
    ['merchant.deactivated'],
  );
});

t.test('partner API: a failing outbox insert leaves no test merchant behind', async (t) => {
  const { app, rx } = await setup(t, ['merchant.activated']);
  const merchants = count(app, 'merchants');
  const before = snapshot(app);
  const drop = breakOutbox(t, app, 'deliveries');
  checkServerError(t, await call(app, 'POST', '/v1/partner/merchants/test', { companyName: 'Never Created ApS' }));
  t.equal(count(app, 'merchants'), merchants, 'no merchant row');
  t.equal(count(app, 'merchants', 'company_name = ?', 'Never Created ApS'), 0);
  t.same(snapshot(app), before, 'no event, no delivery');
  drop();
  await app.webhooks.drain();
  t.equal(rx.received.length, 0, 'nothing sent for the merchant that was never created');
  const ok = await call(app, 'POST', '/v1/partner/merchants/test', { companyName: 'Created ApS' });
  t.equal(ok.status, 200);
  await app.webhooks.drain();
  t.match(
    rx.received.map((r) => r.json),
    [{ event: 'merchant.activated', data: { merchantId: ok.body.merchantId, status: 'active' } }],
  );
});

t.test(
  'timed transition: a failing outbox insert leaves the payment pending and its timer in place; it fires once the outbox works',
  async (t) => {
    const { app, rx } = await setup(t, ['payment.completed']);
    const m = await testMerchant(app, undefined, 'Timer Shop ApS');
    const p = (
      await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 42, referenceNumber: 'atomic-timer' })
    ).body;
    const rowBefore = paymentRow(app, p.paymentId);
    const before = snapshot(app);
    t.ok(
      (before.timers as { aggregate: string; trigger: string }[]).some((x) => x.aggregate === 'payment' && x.trigger === 'settle'),
      'a settlement timer is due in 5 s',
    );

    const drop = breakOutbox(t, app, 'deliveries');
    const adv = await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10s' });
    checkServerError(t, adv);
    t.same(paymentRow(app, p.paymentId), rowBefore, 'the settlement did not happen: the payment is still pending');
    t.same(snapshot(app), before, 'no event, no delivery, and the settlement timer is still there');
    await app.webhooks.drain();
    t.equal(rx.received.length, 0);

    // the advance and what it fires commit together: the clock did not move past the timer that failed
    t.equal((await call(app, 'GET', '/_sandbox/clock')).body.now, '2026-01-15T09:00:00.000Z', 'the clock stayed where its firings stopped');

    drop();
    const again = await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10s' });
    t.equal(again.status, 200);
    t.equal(again.body.now, '2026-01-15T09:00:10.000Z');
    t.ok(again.body.fired >= 1, 'the kept timer fires now');
    const paid = (await call(app, 'GET', `/v1/partner/payments/${p.paymentId}/status`)).body;
    t.match(paid, { status: 'paid', updatedAt: '2026-01-15T09:00:05.000Z' }, 'settled at its due instant');
    await app.webhooks.drain();
    t.match(
      rx.received.map((r) => r.json),
      [{ event: 'payment.completed', data: { paymentId: p.paymentId, status: 'paid' } }],
    );
  },
);
