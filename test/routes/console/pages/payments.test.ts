/**
 * The console's payments pages (src/routes/console/pages/payments.ts): the list, creating a
 * payment from the form, one payment with its actions, failing it with a reason.
 */
import t from 'tap';
import { build } from '../../../helpers/app.js';
import { act, signIn, view } from '../../../helpers/console.js';
import { call, testMerchant } from '../../../helpers/partner.js';

t.test('payments: create from the form, list, one payment, complete and fail', async (t) => {
  const app = await build(t);
  const s = await signIn(app);
  const shop = await testMerchant(app);

  const empty = await view(app, s, '/console/payments');
  t.equal(empty.status, 200);
  t.match(empty.body, new RegExp(`value="${shop.clientId}"`), "the form offers the partner's merchants");

  const created = await act(app, s, '/console/payments', { merchantClientId: shop.clientId, amount: '12.5', referenceNumber: 'console-1' });
  t.match(created.to, /^\/console\/payments\/\d+$/);
  const paymentId = Number(created.to!.split('/').pop());
  t.match(created.page, new RegExp(`Created payment ${paymentId}`));
  const status = await call(app, 'GET', `/v1/partner/payments/${paymentId}/status`);
  t.match(status.body, { paymentId, status: 'pending' }, 'the API has it');
  t.match(created.page, /console-1/);

  const list = await view(app, s, '/console/payments');
  t.match(list.body, new RegExp(`/console/payments/${paymentId}"`), 'listed');

  const completed = await act(app, s, `/console/payments/${paymentId}/complete`);
  t.match(completed.page, /complete: done for payment/);
  t.equal((await call(app, 'GET', `/v1/partner/payments/${paymentId}/status`)).body.status, 'paid');

  const second = await act(app, s, '/console/payments', { merchantClientId: shop.clientId, amount: '3', referenceNumber: 'console-2' });
  const secondId = Number(second.to!.split('/').pop());
  const failed = await act(app, s, `/console/payments/${secondId}/fail`, { reason: 'bank_rejected' });
  t.match(failed.page, /fail: done for payment/);
  t.match((await call(app, 'GET', `/v1/partner/payments/${secondId}/status`)).body, { status: 'failed' });

  const bad = await act(app, s, '/console/payments', { merchantClientId: shop.clientId, amount: 'lots', referenceNumber: 'x' });
  t.match(bad.page, /400 validation_failed/, "an invalid form shows the API's refusal");
  t.equal((await call(app, 'GET', '/_sandbox/payments')).body.items.length, 2, 'and created nothing');
});

t.test("a payment's timeline: every transition with its cause, the console's and the timer's", async (t) => {
  const app = await build(t);
  const s = await signIn(app);
  const shop = await testMerchant(app);
  const created = await act(app, s, '/console/payments', { merchantClientId: shop.clientId, amount: '7', referenceNumber: 'timeline-1' });
  const paymentId = Number(created.to!.split('/').pop());
  await act(app, s, `/console/payments/${paymentId}/approve`);
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10s' });
  const page = await view(app, s, `/console/payments/${paymentId}`);
  const causes = [...page.body.matchAll(/<span class="muted" data-testid="cause">([\s\S]*?)<\/span>/g)].map((m) =>
    m[1].replace(/<[^>]+>/g, ''),
  );
  t.match(causes, [
    /^from the console createPayment \(request req_[0-9a-f]+\)$/,
    /^from the console approve \(request req_[0-9a-f]+\)$/,
    /^by the timer settle$/,
  ]);
  t.equal(causes.length, 3);
});
