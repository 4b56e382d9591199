/**
 * Webhook deliveries: signed POSTs, test deliveries, timeouts, what is recorded and never retried,
 * large answers. Redelivery and the delivery log's filters: delivery-log.test.ts.
 */
import { performance } from 'node:perf_hooks';
import t from 'tap';
import { DELIVERY_TIMEOUT_MS } from '../../src/webhooks/post.js';
import { build, OTHER_PARTNER, schemaErrors } from '../helpers/app.js';
import { buildTwo, call, testMerchant } from '../helpers/partner.js';
import { envelopeProblems } from '../helpers/contract.js';
import { startReceiver } from '../helpers/receiver.js';
import { hook, pay, deliveries, closedPort, checkSigned } from '../helpers/deliveries.js';
import { scaled } from '../helpers/speed.js';

// one test waits for the real 10-second delivery limit
t.setTimeout(scaled(180_000));

t.test('payment.completed: signed POST to the subscribed webhook only, logged with the exact body', async (t) => {
  const app = await buildTwo(t);
  const rx = await startReceiver(t);
  const other = await startReceiver(t);
  const m = await testMerchant(app);
  const wh = await hook(app, rx.url, ['payment.completed', 'payment.failed']);
  await hook(app, other.url, ['merchant.deactivated']); // same partner, not subscribed
  const om = await testMerchant(app, OTHER_PARTNER);
  await hook(app, other.url, ['payment.completed'], OTHER_PARTNER); // other partner
  await pay(app, om.clientId, 10, OTHER_PARTNER);
  const p = await pay(app, m.clientId, 125.5);

  await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`);
  await app.webhooks.drain();
  t.equal(rx.received.length, 1);
  t.equal(other.received.length, 0, 'unsubscribed webhook and other partner get nothing');
  const [r] = rx.received;
  const log = await deliveries(app);
  t.equal(log.total, 1);
  const d = log.items[0];
  t.same(schemaErrors('SandboxDelivery', d), []);
  checkSigned(t, r, wh.secret, d.eventId);
  t.same(envelopeProblems(r.json, 'payment.completed'), []);
  t.match(r.json.data, {
    paymentId: p.paymentId,
    status: 'paid',
    bankPaymentStatus: 'AcceptedSettlementCompleted',
    amount: 125.5,
    currency: 'DKK',
    merchantClientId: m.clientId,
    merchantName: m.companyName,
    referenceNumber: 'order-1',
  });
  t.match(d, {
    event: 'payment.completed',
    webhookId: wh.id,
    url: rx.url,
    state: 'delivered',
    statusCode: 200,
    outcome: 'delivered',
    error: null,
    redeliveryOf: null,
  });
  t.equal(d.body, r.raw.toString('utf8'), 'log shows the exact bytes sent');
  t.equal(d.signature, r.headers['x-webhook-signature']);
  t.type(d.durationMs, 'number');
  t.equal(d.attemptedAt, '2026-01-15T09:00:00.000Z', 'attempt time on the virtual clock');
  const otherLog = await deliveries(app, '', OTHER_PARTNER);
  t.equal(otherLog.total, 0, "the other partner's webhook got nothing (its payment is untouched)");
});

t.test('webhook.test via POST /v1/partner/webhooks/{id}/test is a real signed delivery', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  const wh = await hook(app, rx.url, ['merchant.activated']);
  const r = await call(app, 'POST', `/v1/partner/webhooks/${wh.id}/test`);
  t.equal(r.status, 200);
  await app.webhooks.drain();
  t.equal(rx.received.length, 1);
  checkSigned(t, rx.received[0], wh.secret, r.body.eventId);
  t.same(envelopeProblems(rx.received[0].json, 'webhook.test'), []);
  t.equal(rx.received[0].json.data.webhookId, wh.id);
  const d = await call(app, 'GET', `/_sandbox/deliveries/${r.body.deliveryId}`);
  t.match(d.body, { state: 'delivered', event: 'webhook.test', eventId: r.body.eventId });
});

t.test('a hanging receiver times out (whole exchange) without delaying other deliveries or the API', async (t) => {
  t.equal(DELIVERY_TIMEOUT_MS, 10_000, 'the production limit is the contract 10 seconds');
  const app = await build(t, { webhookTimeoutMs: 300 });
  const hang = await startReceiver(t, () => {
    /* never answers */
  });
  const slowBody = await startReceiver(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('headers sent, body never finishes');
  });
  const fast = await startReceiver(t);
  const m = await testMerchant(app);
  await hook(app, hang.url, ['payment.completed']);
  await hook(app, slowBody.url, ['payment.completed']);
  await hook(app, fast.url, ['payment.completed']);
  const p = await pay(app, m.clientId);
  const started = Date.now();
  await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`);
  t.ok(Date.now() - started < 250, 'the API call does not wait for deliveries');
  await fast.waitFor(1);
  t.ok(Date.now() - started < 250, 'the fast receiver is served while the others hang');
  const mid = await call(app, 'GET', '/_sandbox/clock');
  t.equal(mid.status, 200, 'API answers while deliveries hang');
  await app.webhooks.drain();
  const elapsed = Date.now() - started;
  t.ok(elapsed >= 280 && elapsed < 3000, `timed out after ~300 ms (${elapsed} ms)`);
  const byUrl = Object.fromEntries((await deliveries(app)).items.map((d) => [d.url, d]));
  t.match(byUrl[hang.url], { state: 'failed', outcome: 'timeout', statusCode: null });
  t.match(byUrl[slowBody.url], { state: 'failed', outcome: 'timeout' }, 'the limit covers the body too, not only the headers');
  t.match(byUrl[fast.url], { state: 'delivered', outcome: 'delivered' });
  t.ok(byUrl[hang.url].durationMs >= 280);
});

t.test(
  'with the DEFAULT limit a hanging receiver is recorded as timeout after ~10 s; the API answers promptly meanwhile',
  { timeout: scaled(60_000) },
  async (t) => {
    // no webhookTimeoutMs override: the production 10-second limit (costs ~10 s of wall time)
    const app = await build(t);
    const hang = await startReceiver(t, () => {
      /* never answers */
    });
    const fast = await startReceiver(t);
    const m = await testMerchant(app);
    const hangHook = await hook(app, hang.url, ['payment.completed']);
    await hook(app, fast.url, ['payment.completed']);
    const p = await pay(app, m.clientId);
    const started = performance.now();
    const done = await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`);
    t.equal(done.status, 200);
    await hang.waitFor(1);
    await fast.waitFor(1);
    t.ok(performance.now() - started < 2000, 'the healthy receiver is served while the other hangs');
    const inFlight = await deliveries(app, `?webhookId=${hangHook.id}`);
    t.match(inFlight.items[0], { state: 'delivering', outcome: null, statusCode: null }, 'the hanging delivery is in flight');

    // while it hangs: API calls (reads and a write) keep answering, each promptly
    let settled = false;
    const drained = app.webhooks.drain().then(() => (settled = true));
    const latencies: number[] = [];
    let other: { paymentId: number } | undefined;
    while (!settled) {
      const t0 = performance.now();
      const r = await call(app, 'GET', `/v1/partner/payments/${p.paymentId}/status`);
      if (!other) other = await pay(app, m.clientId, 10);
      latencies.push(performance.now() - t0);
      t.equal(r.status, 200);
      await Promise.race([drained, new Promise((r) => setTimeout(r, 250))]);
    }
    await drained;
    const elapsed = performance.now() - started;
    t.ok(latencies.length >= 20, `${latencies.length} API calls answered while the delivery hung`);
    const worst = Math.max(...latencies);
    t.ok(worst < 1000, `every API call answered promptly meanwhile (worst ${worst.toFixed(1)} ms)`);
    t.equal(
      (await call(app, 'GET', `/v1/partner/payments/${other!.paymentId}/status`)).body.status,
      'pending',
      'the payment created meanwhile exists',
    );

    const [d] = (await deliveries(app, `?webhookId=${hangHook.id}`)).items;
    t.same(schemaErrors('SandboxDelivery', d), []);
    t.match(d, { state: 'failed', outcome: 'timeout', statusCode: null, error: /no complete answer within 10000 ms/ });
    t.ok(d.durationMs >= 10_000 && d.durationMs <= 11_500, `recorded as timed out after ${d.durationMs} ms (10 000-11 500)`);
    t.ok(elapsed >= 10_000, `the whole wait took ${Math.round(elapsed)} ms of wall time`);
    t.equal(hang.received.length, 1, 'one attempt, no retry');
    const [f] = (await deliveries(app, '?outcome=delivered')).items;
    t.match(f, { url: fast.url, statusCode: 200 });
    t.ok(f.durationMs < 2000, `the healthy delivery took ${f.durationMs} ms`);
  },
);

t.test('refused, reset, non-2xx and redirect are recorded; nothing is retried or followed', async (t) => {
  const app = await build(t);
  const port = await closedPort();
  const target = await startReceiver(t);
  const redirect = await startReceiver(t, (_req, res) => res.writeHead(302, { location: target.url }).end());
  const error = await startReceiver(t, (_req, res) => res.writeHead(500).end('boom'));
  const reset = await startReceiver(t, (req) => req.socket.destroy());
  const m = await testMerchant(app);
  const refusedUrl = `http://127.0.0.1:${port}/hook`;
  for (const url of [refusedUrl, redirect.url, error.url, reset.url]) await hook(app, url, ['payment.failed']);
  const p = await pay(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/fail`, { reason: 'bank_rejected' });
  await app.webhooks.drain();
  const byUrl = Object.fromEntries((await deliveries(app)).items.map((d) => [d.url, d]));
  t.match(byUrl[refusedUrl], { state: 'failed', outcome: 'connection_refused', statusCode: null, error: /ECONNREFUSED/ });
  t.match(byUrl[redirect.url], { state: 'failed', outcome: 'redirect', statusCode: 302, error: /not followed/ });
  t.equal(target.received.length, 0, 'redirect not followed');
  t.match(byUrl[error.url], { state: 'failed', outcome: 'non_2xx', statusCode: 500 });
  t.match(byUrl[reset.url], { state: 'failed', outcome: 'connection_reset' });
  // no automatic retries: time passes, nothing is sent again
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '1d' });
  await app.webhooks.drain();
  t.equal(error.received.length, 1);
  t.equal((await deliveries(app)).total, 4);
});

t.test('a 50 MB response body is not read into memory', async (t) => {
  const app = await build(t);
  let written = 0;
  const big = await startReceiver(t, (_req, res) => {
    const chunk = Buffer.alloc(1024 * 1024, 120);
    res.writeHead(200, { 'content-length': String(50 * chunk.length) });
    const pump = () => {
      while (written < 50 * chunk.length) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => undefined);
    pump();
  });
  const m = await testMerchant(app);
  await hook(app, big.url, ['payment.completed']);
  const p = await pay(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`);
  const before = process.memoryUsage().rss;
  await app.webhooks.drain();
  const [d] = (await deliveries(app)).items;
  t.match(d, { state: 'delivered', outcome: 'delivered', statusCode: 200 });
  t.ok(process.memoryUsage().rss - before < 40 * 1024 * 1024, 'memory did not grow by the body size');
});
