import t from 'tap';
import { bankPaymentStatus, FAILURE_REASON_BY_TRIGGER, paymentMachine, type PaymentTrigger } from '../../src/domain/payment.js';
import { VirtualClock } from '../../src/clock.js';
import { build, OTHER_PARTNER, schemaErrors, T0 } from '../helpers/app.js';
import { buildTwo, call, testMerchant } from '../helpers/partner.js';
import { advance, watchEvents } from '../helpers/engine.js';
import type { FastifyInstance } from 'fastify';
import { TEST_CAUSE } from '../helpers/engine.js';
import { scaled } from '../helpers/speed.js';

/** Control call per trigger: [action, body]. */
const CONTROL: Record<PaymentTrigger, [string, unknown]> = {
  approve: ['approve', undefined],
  settle: ['complete', undefined],
  reject: ['fail', { reason: 'bank_rejected' }],
  abandon: ['abandon', undefined],
  expire: ['expire', undefined],
};

const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

async function newPayment(app: FastifyInstance, clientId: string, amount = 250) {
  const r = await call(app, 'POST', '/v1/partner/payments', { merchantClientId: clientId, amount, referenceNumber: `ref-${amount}` });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body as { paymentId: number };
}

const status = async (app: FastifyInstance, id: number) => (await call(app, 'GET', `/v1/partner/payments/${id}/status`)).body;

t.test('every row of the payment table, through the control API, with its events', async (t) => {
  const app = await build(t);
  const watch = await watchEvents(t, app);
  const m = await testMerchant(app);
  await watch.next(t); // merchant.activated of the test merchant
  for (const row of paymentMachine.rows) {
    for (const from of row.from) {
      await t.test(`${from} --${row.trigger}--> ${row.to}`, async (t) => {
        const p = await newPayment(app, m.clientId, 250);
        app.db
          .prepare('UPDATE payments SET status = ?, bank_payment_status = ? WHERE id = ?')
          .run(from, bankPaymentStatus(from, null), p.paymentId);
        const [action, body] = CONTROL[row.trigger];
        const res = await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/${action}`, body);
        t.equal(res.status, 200);
        t.same(schemaErrors('Payment', res.body), []);
        const reason = row.to === 'failed' ? FAILURE_REASON_BY_TRIGGER[row.trigger] : null;
        t.match(res.body, {
          paymentId: p.paymentId,
          status: row.to,
          failureReason: reason ?? null,
          bankPaymentStatus: bankPaymentStatus(row.to, reason ?? null),
        });
        t.same(await status(app, p.paymentId), res.body, 'same object as GET …/status');
        const events = await watch.next(t);
        t.same(
          events.map((e) => e.event),
          row.events,
        );
        for (const e of events) {
          t.match(e.data, {
            paymentId: p.paymentId,
            referenceNumber: 'ref-250',
            status: row.to,
            amount: 250,
            currency: 'DKK',
            merchantClientId: m.clientId,
            merchantName: m.companyName,
            bankPaymentStatus: bankPaymentStatus(row.to, reason ?? null),
            timestamp: T0,
          });
          if (row.to === 'paid') t.equal(e.data.bankPaymentStatus, 'AcceptedSettlementCompleted');
          if (row.to === 'failed') t.equal(e.data.failureReason, reason);
        }
        if (row.to === 'paid' || row.to === 'failed') t.same(app.engine.timersOf('payment', p.paymentId), [], 'final: timers cancelled');
      });
    }
  }
});

t.test('every other state × trigger is a 409 that changes nothing', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const p = await newPayment(app, m.clientId);
  for (const from of paymentMachine.states) {
    for (const trigger of paymentMachine.triggers) {
      if (paymentMachine.can(from, trigger)) continue;
      app.db.prepare('UPDATE payments SET status = ? WHERE id = ?').run(from, p.paymentId);
      const [action, body] = CONTROL[trigger];
      const res = await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/${action}`, body);
      t.equal(res.status, 409, `${from} × ${trigger}`);
      t.equal(res.body.code, 'illegal_transition');
      t.equal(app.store.payments.getAny(p.paymentId)?.status, from);
    }
  }
  t.equal(app.db.prepare(`SELECT count(*) FROM events WHERE name LIKE 'payment.%'`).pluck().get(), 0);
});

t.test('fail reasons and control validation', async (t) => {
  const app = await buildTwo(t);
  const m = await testMerchant(app);
  for (const [reason, bps] of [
    ['bank_rejected', 'Rejected'],
    ['payer_abandoned', 'Cancelled'],
    ['expired', 'Cancelled'],
  ] as const) {
    const p = await newPayment(app, m.clientId);
    const r = await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/fail`, { reason });
    t.match(r.body, { status: 'failed', failureReason: reason, bankPaymentStatus: bps });
  }
  const p = await newPayment(app, m.clientId);
  t.match((await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/fail`)).body, { failureReason: 'bank_rejected' }, 'default reason');
  const q = await newPayment(app, m.clientId);
  t.match((await call(app, 'POST', `/_sandbox/payments/${q.paymentId}/fail`, { reason: 'bored' })).body, {
    code: 'validation_failed',
    field: 'reason',
  });
  t.match((await call(app, 'POST', `/_sandbox/payments/${q.paymentId}/complete`, { reason: 'expired' })).body, {
    code: 'validation_failed',
    field: 'reason',
  });
  t.match((await call(app, 'POST', `/_sandbox/payments/${q.paymentId}/complete`, undefined, OTHER_PARTNER)).body, {
    status: 404,
    code: 'payment_not_found',
  });
  t.match((await call(app, 'POST', '/_sandbox/payments/1/complete')).body, { code: 'payment_not_found' });
  t.equal((await status(app, q.paymentId)).status, 'pending', 'rejected calls changed nothing');
});

t.test('sandbox: an untouched payment settles after OBSIM_SETTLE_DELAY; every pending payment expires', async (t) => {
  const app = await build(t, { config: { settleDelayMs: 5_000, paymentExpiryMs: 1_800_000 } });
  const watch = await watchEvents(t, app);
  const m = await testMerchant(app);
  await watch.next(t);
  const p = await newPayment(app, m.clientId, 100);
  t.same(
    app.engine.timersOf('payment', p.paymentId).map((x) => [x.trigger, x.due_at]),
    [['settle', Date.parse(T0) + 5_000]],
    'one timer: the earlier of settlement and expiry (the later could never fire)',
  );
  t.equal((await advance(app, '4999ms')).fired, 0);
  t.equal((await status(app, p.paymentId)).status, 'pending');
  t.equal((await advance(app, '1ms')).fired, 1);
  t.match(await status(app, p.paymentId), { status: 'paid', bankPaymentStatus: 'AcceptedSettlementCompleted', updatedAt: at(5_000) });
  t.match(await watch.next(t), [{ event: 'payment.completed', timestamp: at(5_000), data: { status: 'paid', timestamp: at(5_000) } }]);
  t.same(app.engine.timersOf('payment', p.paymentId), [], 'expiry cancelled once paid');
});

t.test('sandbox: a settle delay longer than the payment lifetime: the payment expires instead', async (t) => {
  const app = await build(t, { config: { settleDelayMs: 3_600_000, paymentExpiryMs: 1_800_000 } });
  const watch = await watchEvents(t, app);
  const m = await testMerchant(app);
  await watch.next(t);
  const p = await newPayment(app, m.clientId, 100);
  t.same(
    app.engine.timersOf('payment', p.paymentId).map((x) => [x.trigger, x.due_at]),
    [['expire', Date.parse(T0) + 1_800_000]],
  );
  t.equal((await advance(app, '2h')).fired, 1, 'only the expiry fires');
  t.match(await status(app, p.paymentId), {
    status: 'failed',
    failureReason: 'expired',
    bankPaymentStatus: 'Cancelled',
    updatedAt: at(1_800_000),
  });
  t.match(await watch.next(t), [{ event: 'payment.failed', data: { status: 'failed', failureReason: 'expired' } }]);
  t.same(app.engine.timersOf('payment', p.paymentId), []);
});

t.test('magic amounts force the documented outcomes', async (t) => {
  const app = await build(t, { config: { settleDelayMs: 5_000, paymentExpiryMs: 1_800_000 } });
  const watch = await watchEvents(t, app);
  const m = await testMerchant(app);
  await watch.next(t);
  const rejected = await newPayment(app, m.clientId, 666.66);
  const abandoned = await newPayment(app, m.clientId, 777.77);
  const expires = await newPayment(app, m.clientId, 888.88);
  const stays = await newPayment(app, m.clientId, 999.99);
  t.same(app.engine.timersOf('payment', stays.paymentId), [], 'stay_pending: no timers at all');
  t.equal((await advance(app, '5s')).fired, 2);
  t.match(await status(app, rejected.paymentId), { status: 'failed', failureReason: 'bank_rejected', bankPaymentStatus: 'Rejected' });
  t.match(await status(app, abandoned.paymentId), { status: 'failed', failureReason: 'payer_abandoned' });
  t.equal((await status(app, expires.paymentId)).status, 'pending');
  t.same(
    (await watch.next(t)).map((e) => [e.data.paymentId, e.event, e.data.failureReason]),
    [
      [rejected.paymentId, 'payment.failed', 'bank_rejected'],
      [abandoned.paymentId, 'payment.failed', 'payer_abandoned'],
    ],
  );
  t.equal((await advance(app, '30m')).fired, 1);
  t.match(await status(app, expires.paymentId), { status: 'failed', failureReason: 'expired', updatedAt: at(1_800_000) });
  await advance(app, '365d');
  t.equal((await status(app, stays.paymentId)).status, 'pending', '999.99 stays pending');
  t.match((await call(app, 'POST', `/_sandbox/payments/${stays.paymentId}/complete`)).body, { status: 'paid' }, 'until a control call');
});

t.test('the payer acting first wins over the automatic settlement', async (t) => {
  const app = await build(t, { config: { settleDelayMs: 5_000 } });
  const m = await testMerchant(app);
  const approved = await newPayment(app, m.clientId, 10);
  const abandoned = await newPayment(app, m.clientId, 20);
  await advance(app, '2s');
  app.engine.payment(approved.paymentId, 'approve', { bankId: 'nordlys-bank', cause: TEST_CAUSE });
  app.engine.payment(abandoned.paymentId, 'abandon', { cause: TEST_CAUSE });
  t.match(await status(app, approved.paymentId), { status: 'processing', bankPaymentStatus: 'AcceptedSettlementInProcess' });
  t.equal(app.store.payments.getAny(approved.paymentId)?.bank_id, 'nordlys-bank');
  t.same(app.engine.timersOf('payment', abandoned.paymentId), []);
  t.same(
    app.engine.timersOf('payment', approved.paymentId).map((x) => [x.trigger, x.due_at]),
    [['settle', Date.parse(T0) + 7_000]],
    'settles a delay after approval',
  );
  await advance(app, '3s');
  t.equal((await status(app, approved.paymentId)).status, 'processing');
  await advance(app, '2s');
  t.equal((await status(app, approved.paymentId)).status, 'paid');
  t.match(await status(app, abandoned.paymentId), { status: 'failed', failureReason: 'payer_abandoned' });
});

t.test('production: nothing settles by itself; pending payments still expire', async (t) => {
  const app = await build(t, {
    config: {
      environment: 'production',
      partnerClientId: 'sandbox-partner',
      partnerClientSecret: 'sandbox-secret',
      settleDelayMs: 5_000,
      paymentExpiryMs: 60_000,
    },
  });
  const m = (await call(app, 'POST', '/v1/partner/merchants', { companyName: 'Live ApS', contactEmail: 'a@live.test' })).body;
  await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/activate`);
  const p = await newPayment(app, m.clientId, 666.66);
  t.same(
    app.engine.timersOf('payment', p.paymentId).map((x) => x.trigger),
    ['expire'],
    'magic amounts are sandbox-only',
  );
  await advance(app, '59s');
  t.equal((await status(app, p.paymentId)).status, 'pending');
  await advance(app, '1s');
  t.match(await status(app, p.paymentId), { status: 'failed', failureReason: 'expired' });
});

t.test('advancing the clock fires every due transition in time order', async (t) => {
  const app = await build(t, { config: { settleDelayMs: 5_000, approvalDelayMs: 30_000, paymentExpiryMs: 600_000 } });
  const watch = await watchEvents(t, app);
  const m = await testMerchant(app);
  await watch.next(t);
  const std = (await call(app, 'POST', '/v1/partner/merchants', { companyName: 'Later ApS', contactEmail: 'l@x.test' })).body;
  const a = await newPayment(app, m.clientId, 1); // settles at +5s
  await advance(app, '1s');
  await call(app, 'POST', `/_sandbox/merchants/${std.merchantId}/submit-onboarding`); // approved at +31s
  const b = await newPayment(app, m.clientId, 888.88); // expires at +601s
  const c = await newPayment(app, m.clientId, 2); // settles at +6s
  await watch.next(t); // onboarding.completed
  const res = await advance(app, '1h');
  t.equal(res.fired, 4);
  t.equal(res.now, at(3_601_000));
  const events = await watch.next(t);
  t.same(
    events.map((e) => [e.event, e.timestamp]),
    [
      ['payment.completed', at(5_000)],
      ['payment.completed', at(6_000)],
      ['merchant.activated', at(31_000)],
      ['payment.failed', at(601_000)],
    ],
  );
  t.same(
    events.filter((e) => e.event.startsWith('payment')).map((e) => e.data.paymentId),
    [a.paymentId, c.paymentId, b.paymentId],
  );
});

t.test('runDue drops a timer whose transition is no longer legal', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const p = await newPayment(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`);
  app.db
    .prepare(
      `INSERT INTO timers (partner_id, due_at, aggregate, aggregate_id, trigger) VALUES ('sandbox-partner', ?, 'payment', ?, 'expire')`,
    )
    .run(Date.parse(T0), String(p.paymentId));
  app.db
    .prepare(
      `INSERT INTO timers (partner_id, due_at, aggregate, aggregate_id, trigger) VALUES ('sandbox-partner', ?, 'payment', '42', 'settle')`,
    )
    .run(Date.parse(T0));
  t.equal(app.engine.runDue(Date.parse(T0)), 0);
  t.equal(app.db.prepare('SELECT count(*) FROM timers').pluck().get(), 0, 'dropped');
  t.equal((await status(app, p.paymentId)).status, 'paid');
});

t.test('a running clock fires timers in real time (setTimeout armed for the next one)', async (t) => {
  const app = await build(t, { clock: VirtualClock.create({ start: T0 }), config: { settleDelayMs: 80 } });
  const m = await testMerchant(app);
  const p = await newPayment(app, m.clientId);
  const deadline = Date.now() + scaled(3_000);
  while ((await status(app, p.paymentId)).status !== 'paid' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  t.equal((await status(app, p.paymentId)).status, 'paid', 'settled without any clock advance');
});
