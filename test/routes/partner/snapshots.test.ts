/**
 * Representative partner API responses, snapshotted (tap-snapshots/). Random values (uuids,
 * tokens, hex ids, secrets) are normalised; timestamps and numeric ids are deterministic on the
 * frozen test clock and fresh database. Regenerate with: npx tap --disable-coverage --snapshot test/routes/partner/snapshots.test.ts
 */
import t from 'tap';
import { build } from '../../helpers/app.js';
import { call, fastTrackBody, normalise } from '../../helpers/partner.js';

t.test('partner API responses', async (t) => {
  const app = await build(t);
  const snap = async (name: string, method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const r = await call(app, method, url, payload);
    t.matchSnapshot(normalise({ status: r.status, body: r.body }), name);
    return r.body;
  };
  await snap('standard merchant', 'POST', '/v1/partner/merchants', { companyName: 'Acme ApS', contactEmail: 'ops@acme.test' });
  const ft = await snap(
    'fast-track merchant',
    'POST',
    '/v1/partner/merchants/fast-track',
    fastTrackBody({ mccCode: '5411', address: { city: 'Aarhus' } }),
  );
  await snap('fast-track sub-TPP failure', 'POST', '/v1/partner/merchants/fast-track', fastTrackBody({ registrationNumber: '00000000' }));
  const tm = await snap('test merchant', 'POST', '/v1/partner/merchants/test', { companyName: 'Shop ApS' });
  await snap('onboarding status (fast-track)', 'GET', `/v1/partner/merchants/${ft.merchantId}/onboarding-status`);
  await snap('merchant list', 'GET', '/v1/partner/merchants?page=1&limit=3');
  await snap('resend onboarding', 'POST', `/v1/partner/merchants/${ft.merchantId}/resend-onboarding`);
  await snap('store', 'POST', `/v1/partner/merchants/${tm.merchantId}/stores`, {
    name: 'Main Street',
    address: { street: 'Strøget 1' },
    mccCode: '5812',
  });
  const pay = await snap('payment', 'POST', '/v1/partner/payments', {
    merchantClientId: tm.clientId,
    amount: 149.95,
    referenceNumber: 'order-1001',
  });
  await snap('payment status', 'GET', `/v1/partner/payments/${pay.paymentId}/status`);
  const hook = await snap('webhook', 'POST', '/v1/partner/webhooks', {
    url: 'https://partner.example/hooks',
    events: ['payment.completed', 'payment.failed'],
  });
  await snap('webhook test', 'POST', `/v1/partner/webhooks/${hook.id}/test`);
  await snap('validation error', 'POST', '/v1/partner/payments', { merchantClientId: tm.clientId, amount: 1.001, referenceNumber: 'x' });
  await snap('not activated', 'POST', `/v1/partner/merchants/${ft.merchantId}/stores`, { name: 'S' });
  await snap('not found', 'GET', '/v1/partner/payments/1/status');
});
