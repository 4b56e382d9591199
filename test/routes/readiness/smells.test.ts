/**
 * Each smell of the readiness report, committed through the API, is found with the journal
 * entries that prove it; the README's first five minutes, done right, has none.
 */
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { PARTNER } from '../../helpers/app.js';
import { aisApp } from '../../helpers/ais.js';
import { hook } from '../../helpers/deliveries.js';
import { call, testMerchant } from '../../helpers/partner.js';
import { startReceiver } from '../../helpers/receiver.js';

async function smells(app: FastifyInstance): Promise<Record<string, number[]>> {
  const r = await call(app, 'GET', '/_sandbox/report');
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return Object.fromEntries((r.body.smells as { code: string; evidence: number[] }[]).map((s) => [s.code, s.evidence]));
}

/** The journal id of the partner's newest entry. */
async function lastId(app: FastifyInstance): Promise<number> {
  return (await call(app, 'GET', '/_sandbox/requests?limit=1')).body.items[0].id as number;
}

t.test("the README's first five minutes has no smell", async (t) => {
  const { app } = await aisApp(t);
  const rx = await startReceiver(t);
  const m = await testMerchant(app);
  await hook(app, rx.url, ['payment.completed', 'payment.failed']);
  const p = await call(app, 'POST', '/v1/partner/payments', {
    merchantClientId: m.clientId,
    amount: 149.95,
    referenceNumber: 'order-1001',
  });
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10s' });
  await app.webhooks.drain();
  t.equal(rx.received.length, 1, 'payment.completed delivered');
  t.equal((await call(app, 'GET', `/v1/partner/payments/${p.body.paymentId}/status`)).body.status, 'paid');
  await call(app, 'GET', '/_sandbox/deliveries?event=payment.completed');
  t.same(await smells(app), {});
});

t.test('each smell, committed through the API, is found with the entries that prove it', async (t) => {
  const { app, bearer } = await aisApp(t);
  const rx = await startReceiver(t);
  const m = await testMerchant(app);
  await hook(app, rx.url, ['payment.completed']);
  const pay = (referenceNumber: string, amount = 10) =>
    call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount, referenceNumber });

  await t.test('duplicate_reference_number', async (t) => {
    await pay('order-7');
    const first = await lastId(app);
    await pay('order-7');
    t.same((await smells(app)).duplicate_reference_number, [first, await lastId(app)]);
  });

  await t.test('repeated_validation_error', async (t) => {
    t.equal((await pay('neg-1', -5)).status, 400);
    const first = await lastId(app);
    t.notOk((await smells(app)).repeated_validation_error, 'one refusal is how a partner learns');
    await pay('neg-2', -5);
    t.same((await smells(app)).repeated_validation_error, [first, await lastId(app)]);
  });

  await t.test('retry_before_retry_after', async (t) => {
    const path = '/v1/partner/merchants?page=1&limit=5';
    const forced = await app.inject({ method: 'GET', url: path, headers: { ...PARTNER, prefer: 'code=503' } });
    t.equal(forced.statusCode, 503);
    t.equal(forced.headers['retry-after'], '1');
    const first = await lastId(app);
    await call(app, 'GET', path); // at once, not after Retry-After
    t.same((await smells(app)).retry_before_retry_after, [first, await lastId(app)]);
  });

  await t.test('expired_token_reused', async (t) => {
    const auth = await bearer('user-1', ['ais:accounts:read'], m.merchantId); // the journal of the token's merchant's partner
    await call(app, 'POST', '/_sandbox/clock/advance', { duration: '2h' });
    const read = () =>
      app.inject({ method: 'POST', url: '/v1/ais/accounts', headers: auth, payload: { userId: 'user-1', merchantId: m.merchantId } });
    t.equal(json401(await read()), 'token_expired');
    const first = await lastId(app);
    t.notOk((await smells(app)).expired_token_reused, 'one expired token is expected: tokens expire');
    t.equal(json401(await read()), 'token_expired');
    t.same((await smells(app)).expired_token_reused, [first, await lastId(app)]);
  });

  await t.test('polling_after_webhook', async (t) => {
    const p = await pay('poll-1');
    await call(app, 'POST', `/_sandbox/payments/${p.body.paymentId}/complete`);
    await app.webhooks.drain();
    await call(app, 'GET', `/v1/partner/payments/${p.body.paymentId}/status`);
    t.notOk((await smells(app)).polling_after_webhook, 'one read after the webhook is fine');
    await call(app, 'GET', `/v1/partner/payments/${p.body.paymentId}/status`);
    t.same((await smells(app)).polling_after_webhook, [await lastId(app)]);
  });

  const all = await call(app, 'GET', '/_sandbox/report');
  t.match(
    all.body.checklist.find((i: { id: string }) => i.id === 'no_smells'),
    { status: 'unmet' },
  );
  for (const s of all.body.smells as { evidence: number[] }[])
    for (const id of s.evidence) t.equal((await call(app, 'GET', `/_sandbox/requests/${id}`)).status, 200, `evidence ${id} is readable`);
});

const json401 = (res: { statusCode: number; json(): unknown }) =>
  res.statusCode === 401 ? (res.json() as { code: string }).code : String(res.statusCode);
