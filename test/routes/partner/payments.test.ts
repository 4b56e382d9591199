import t from 'tap';
import { build, forceMerchantStatus, schemaErrors, T0 } from '../../helpers/app.js';
import { call, count, standardMerchant, testMerchant } from '../../helpers/partner.js';

const URL = '/v1/partner/payments';

t.test('POST /v1/partner/payments creates a pending DKK payment', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app, undefined, 'Café Nord');
  const r = await call(app, 'POST', URL, { merchantClientId: m.clientId, amount: 149.95, referenceNumber: 'order-1001' });
  t.equal(r.status, 200);
  t.same(schemaErrors('Payment', r.body), []);
  t.match(r.body, {
    paymentId: 5000001,
    status: 'pending',
    bankPaymentStatus: 'Pending',
    failureReason: null,
    amount: 149.95,
    currency: 'DKK',
    referenceNumber: 'order-1001',
    merchantClientId: m.clientId,
    merchantName: 'Café Nord',
    createdAt: T0,
    updatedAt: T0,
    expiresAt: new Date(Date.parse(T0) + app.config.paymentExpiryMs).toISOString(),
  });
  t.match(r.body.paymentUrl, /^http:\/\/127\.0\.0\.1:4010\/pay\/pay_[A-Za-z0-9_-]+$/);

  const row = app.store.payments.get(r.body.paymentId, 'sandbox-partner')!;
  t.equal(row.amount_minor, 14995, 'stored in minor units');
  t.equal(row.currency, 'DKK');
  t.equal(row.merchant_id, m.merchantId);
  t.equal(row.status, 'pending');
  t.equal(`http://127.0.0.1:4010/pay/${app.store.payments.tokenFor(row.id)}`, r.body.paymentUrl);
  t.ok(
    count(app, 'timers', "aggregate = 'payment' AND aggregate_id = ?", String(row.id)) >= 1,
    'engine scheduled the payment timers in the same transaction',
  );

  const status = await call(app, 'GET', `${URL}/${r.body.paymentId}/status`);
  t.equal(status.status, 200);
  t.same(schemaErrors('Payment', status.body), []);
  t.same(status.body, r.body, 'status answers the same Payment object');
});

t.test('amount edge cases: minor units are exact', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  for (const [amount, minor] of [
    [0.01, 1],
    [0.29, 29],
    [1, 100],
    [19.99, 1999],
    [1_000_000, 100_000_000],
    [999_999.99, 99_999_999],
  ] as const) {
    const r = await call(app, 'POST', URL, { merchantClientId: m.clientId, amount, referenceNumber: 'x' });
    t.equal(r.status, 200, String(amount));
    t.equal(r.body.amount, amount);
    t.equal(app.store.payments.get(r.body.paymentId, 'sandbox-partner')!.amount_minor, minor);
  }
});

t.test('every validation failure class is a 400 naming the field, nothing stored', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const body = (o: Record<string, unknown>) => ({ merchantClientId: m.clientId, amount: 10, referenceNumber: 'r-1', ...o });
  const without = (k: string) => {
    const b: Record<string, unknown> = body({});
    delete b[k];
    return b;
  };
  const cases: [string, Record<string, unknown>, string][] = [
    ['missing', without('merchantClientId'), 'merchantClientId'],
    ['missing', without('amount'), 'amount'],
    ['missing', without('referenceNumber'), 'referenceNumber'],
    ['wrong type', body({ amount: '10.00' }), 'amount'],
    ['wrong type', body({ amount: null }), 'amount'],
    ['wrong type', body({ referenceNumber: 1001 }), 'referenceNumber'],
    ['wrong type', body({ merchantClientId: m.merchantId }), 'merchantClientId'],
    ['bad format', body({ merchantClientId: 'not-a-uuid' }), 'merchantClientId'],
    ['zero', body({ amount: 0 }), 'amount'],
    ['negative', body({ amount: -5 }), 'amount'],
    ['too many decimals', body({ amount: 10.001 }), 'amount'],
    ['too many decimals', body({ amount: 0.005 }), 'amount'],
    ['too large', body({ amount: 1_000_000.01 }), 'amount'],
    ['empty', body({ referenceNumber: '' }), 'referenceNumber'],
    ['blank', body({ referenceNumber: '   ' }), 'referenceNumber'],
    ['too long', body({ referenceNumber: 'r'.repeat(141) }), 'referenceNumber'],
  ];
  for (const [kind, payload, field] of cases) {
    const r = await call(app, 'POST', URL, payload);
    t.equal(r.status, 400, `${kind}: ${field}`);
    t.match(r.body, { status: 400, code: 'validation_failed', field }, `${kind}: ${field} (${r.body?.message})`);
    t.same(schemaErrors('ErrorBody', r.body), []);
  }
  t.equal(count(app, 'payments'), 0);
  t.equal(count(app, 'timers', "aggregate = 'payment'"), 0);
});

t.test("merchant must exist, be the partner's and be activated", async (t) => {
  const app = await build(t);
  const unknown = await call(app, 'POST', URL, {
    merchantClientId: '00000000-0000-4000-8000-000000000000',
    amount: 10,
    referenceNumber: 'r',
  });
  t.equal(unknown.status, 404);
  t.match(unknown.body, { code: 'merchant_not_found', field: 'merchantClientId' });

  const pending = await standardMerchant(app);
  const notActive = await call(app, 'POST', URL, { merchantClientId: pending.clientId, amount: 10, referenceNumber: 'r' });
  t.equal(notActive.status, 409);
  t.match(notActive.body, { code: 'merchant_not_activated', field: 'merchantClientId' });

  const tm = await testMerchant(app);
  forceMerchantStatus(app, tm.merchantId, 'inactive');
  const inactive = await call(app, 'POST', URL, { merchantClientId: tm.clientId, amount: 10, referenceNumber: 'r' });
  t.equal(inactive.status, 409);
  t.equal(count(app, 'payments'), 0);
});

t.test('the seeded default merchant takes payments at once', async (t) => {
  const app = await build(t);
  const seeded = app.store.merchants.get(100001, 'sandbox-partner')!;
  const r = await call(app, 'POST', URL, { merchantClientId: seeded.client_id, amount: 5, referenceNumber: 'first' });
  t.equal(r.status, 200);
  t.equal(r.body.merchantName, seeded.company_name);
});

t.test('GET /v1/partner/payments/{id}/status: unknown and malformed ids', async (t) => {
  const app = await build(t);
  const missing = await call(app, 'GET', `${URL}/5000999/status`);
  t.equal(missing.status, 404);
  t.match(missing.body, { code: 'payment_not_found' });
  const bad = await call(app, 'GET', `${URL}/pay_abc/status`);
  t.equal(bad.status, 400);
  t.match(bad.body, { code: 'validation_failed', field: 'paymentId' });
});

t.test('status reflects later transitions', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const r = await call(app, 'POST', URL, { merchantClientId: m.clientId, amount: 42, referenceNumber: 'r' });
  app.clock.advance(60_000); // the sandbox settles an untouched payment after OBSIM_SETTLE_DELAY
  const status = await call(app, 'GET', `${URL}/${r.body.paymentId}/status`);
  t.same(schemaErrors('Payment', status.body), []);
  t.match(status.body, { status: 'paid', bankPaymentStatus: 'AcceptedSettlementCompleted', failureReason: null });
  t.equal(status.body.updatedAt, new Date(Date.parse(T0) + app.config.settleDelayMs).toISOString());
});
