import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { DELIVERY_TIMEOUT_MS, USER_AGENT } from '../../src/webhooks/post.js';
import { build, json, OTHER_PARTNER, PARTNER, schemaErrors } from '../helpers/app.js';
import { buildTwo, call, testMerchant } from '../helpers/partner.js';
import { envelopeProblems } from '../helpers/contract.js';
import { expectedSignature, startReceiver, type Received } from '../helpers/receiver.js';

type Headers = Record<string, string>;

async function hook(app: FastifyInstance, url: string, events: string[], headers: Headers = PARTNER) {
  const r = await call(app, 'POST', '/v1/partner/webhooks', { url, events }, headers);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body as { id: string; secret: string };
}

async function pay(app: FastifyInstance, merchantClientId: string, amount = 125.5, headers: Headers = PARTNER) {
  const r = await call(app, 'POST', '/v1/partner/payments', { merchantClientId, amount, referenceNumber: 'order-1' }, headers);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body as { paymentId: number };
}

async function deliveries(app: FastifyInstance, query = '', headers: Headers = PARTNER) {
  const r = await call(app, 'GET', `/_sandbox/deliveries${query}`, undefined, headers);
  return r.body as { items: any[]; total: number };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

// one test waits for the real 10-second delivery limit
t.setTimeout(180_000);

function checkSigned(t: Test, r: Received, secret: string, eventId: string) {
  t.equal(r.method, 'POST');
  t.equal(r.headers['content-type'], 'application/json');
  t.equal(r.headers['user-agent'], USER_AGENT);
  t.equal(r.headers['x-webhook-id'], eventId, 'X-Webhook-Id is the event id');
  t.equal(r.headers['x-webhook-signature'], expectedSignature(secret, r.raw), 'signature recomputed from the raw body');
  t.match(r.headers['x-webhook-signature'], /^[0-9a-f]{64}$/, 'lowercase hex');
}

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
  { timeout: 60_000 },
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

t.test('redeliver: new delivery, same X-Webhook-Id, same body bytes', async (t) => {
  const app = await build(t);
  let fail = true;
  const rx = await startReceiver(t, (_req, res) => res.writeHead(fail ? 503 : 204).end());
  const m = await testMerchant(app);
  const wh = await hook(app, rx.url, ['payment.completed']);
  const p = await pay(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`);
  await app.webhooks.drain();
  const [first] = (await deliveries(app)).items;
  t.match(first, { state: 'failed', outcome: 'non_2xx', statusCode: 503 });
  fail = false;
  const again = await call(app, 'POST', `/_sandbox/deliveries/${first.id}/redeliver`);
  t.equal(again.status, 200);
  t.same(schemaErrors('SandboxDelivery', again.body), []);
  t.match(again.body, { state: 'pending', redeliveryOf: first.id, eventId: first.eventId, body: first.body });
  t.not(again.body.id, first.id);
  await app.webhooks.drain();
  t.equal(rx.received.length, 2);
  t.equal(rx.received[1].headers['x-webhook-id'], rx.received[0].headers['x-webhook-id']);
  t.same(rx.received[1].raw, rx.received[0].raw);
  checkSigned(t, rx.received[1], wh.secret, first.eventId);
  const after = await call(app, 'GET', `/_sandbox/deliveries/${again.body.id}`);
  t.match(after.body, { state: 'delivered', statusCode: 204 });
  // scoping and unknown ids
  t.equal((await call(app, 'POST', `/_sandbox/deliveries/${first.id}/redeliver`, undefined, OTHER_PARTNER)).status, 401);
  t.match((await call(app, 'GET', '/_sandbox/deliveries/999999')).body, { code: 'delivery_not_found' });
});

t.test('delivery log filters by event, webhook and state', async (t) => {
  const app = await buildTwo(t);
  const ok = await startReceiver(t);
  const bad = await startReceiver(t, (_req, res) => res.writeHead(400).end());
  const m = await testMerchant(app);
  const a = await hook(app, ok.url, ['payment.completed', 'merchant.deactivated']);
  const b = await hook(app, bad.url, ['payment.completed']);
  const p = await pay(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`);
  await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/deactivate`);
  await app.webhooks.drain();
  t.equal((await deliveries(app)).total, 3);
  t.equal((await deliveries(app, '?event=payment.completed')).total, 2);
  t.equal((await deliveries(app, `?webhookId=${a.id}`)).total, 2);
  t.equal((await deliveries(app, `?webhookId=${b.id}&state=failed`)).total, 1);
  t.equal((await deliveries(app, '?state=delivered')).total, 2);
  const limited = await deliveries(app, '?limit=1');
  t.equal(limited.items.length, 1);
  t.equal(limited.total, 3);
  t.equal((await call(app, 'GET', '/_sandbox/deliveries?state=bogus')).status, 400);
  t.equal((await deliveries(app, '', OTHER_PARTNER)).total, 0, 'another partner sees none of them');
  t.equal((await call(app, 'GET', `/_sandbox/deliveries/${limited.items[0].id}`, undefined, OTHER_PARTNER)).status, 404);
});

t.test('delivery log filters by outcome and statusCode (alone and combined with the others)', async (t) => {
  const app = await build(t, { webhookTimeoutMs: 1000 });
  const port = await closedPort();
  const ok = await startReceiver(t);
  const target = await startReceiver(t);
  const redirect = await startReceiver(t, (_req, res) => res.writeHead(302, { location: target.url }).end());
  const error = await startReceiver(t, (_req, res) => res.writeHead(500).end('boom'));
  const unavailable = await startReceiver(t, (_req, res) => res.writeHead(503).end());
  const hang = await startReceiver(t, () => {
    /* never answers: timeout after 1 s */
  });
  const refusedUrl = `http://127.0.0.1:${port}/hook`;
  const m = await testMerchant(app);
  const hooks: Record<string, { id: string }> = {};
  for (const [name, url] of Object.entries({
    ok: ok.url,
    redirect: redirect.url,
    error: error.url,
    unavailable: unavailable.url,
    hang: hang.url,
    refused: refusedUrl,
  })) {
    hooks[name] = await hook(app, url, ['payment.completed', 'payment.failed']);
  }
  const paid = await pay(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${paid.paymentId}/complete`);
  const failed = await pay(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${failed.paymentId}/fail`, { reason: 'bank_rejected' });
  await app.webhooks.drain();
  const all = await deliveries(app, '?limit=500');
  t.equal(all.total, 12, '2 events x 6 webhooks');

  /** Ids of the deliveries a query returns, checked against the same filter applied to the full log. */
  async function check(query: string, keep: (d: any) => boolean, expected: number) {
    const r = await call(app, 'GET', `/_sandbox/deliveries${query}`);
    t.equal(r.status, 200, query);
    t.same(schemaErrors('SandboxDeliveryList', r.body), [], `${query}: body matches SandboxDeliveryList`);
    const want = all.items.filter(keep).map((d) => d.id);
    t.equal(want.length, expected, `${query}: ${expected} in the full log`);
    t.same(
      r.body.items.map((d: any) => d.id),
      want,
      `${query}: exactly the matching deliveries, newest first`,
    );
    t.equal(r.body.total, expected, `${query}: total`);
  }
  await check('?outcome=delivered', (d) => d.outcome === 'delivered', 2);
  await check('?outcome=non_2xx', (d) => d.outcome === 'non_2xx', 4);
  await check('?outcome=redirect', (d) => d.outcome === 'redirect' && d.statusCode === 302, 2);
  await check('?outcome=timeout', (d) => d.outcome === 'timeout' && d.url === hang.url, 2);
  await check('?outcome=connection_refused', (d) => d.outcome === 'connection_refused' && d.url === refusedUrl, 2);
  await check('?outcome=connection_reset', () => false, 0);
  await check('?outcome=error', () => false, 0);
  await check('?statusCode=500', (d) => d.statusCode === 500 && d.url === error.url, 2);
  await check('?statusCode=503', (d) => d.statusCode === 503, 2);
  await check('?statusCode=200', (d) => d.statusCode === 200 && d.state === 'delivered', 2);
  await check('?statusCode=404', () => false, 0);
  await check('?outcome=non_2xx&statusCode=503', (d) => d.url === unavailable.url, 2);
  await check('?outcome=delivered&statusCode=500', () => false, 0);
  await check(`?outcome=non_2xx&event=payment.failed`, (d) => d.outcome === 'non_2xx' && d.event === 'payment.failed', 2);
  await check(
    `?statusCode=500&webhookId=${hooks.error.id}&state=failed&event=payment.completed`,
    (d) => d.url === error.url && d.event === 'payment.completed',
    1,
  );
  const limited = await deliveries(app, '?outcome=non_2xx&limit=1');
  t.equal(limited.items.length, 1);
  t.equal(limited.total, 4, 'total counts every match, not only the page');

  for (const bad of ['?outcome=bogus', '?outcome=', '?statusCode=abc', '?statusCode=99', '?statusCode=600', '?statusCode=200.5']) {
    const r = await call(app, 'GET', `/_sandbox/deliveries${bad}`);
    t.equal(r.status, 400, `${bad} is a 400`);
    t.match(r.body, { code: 'validation_failed' }, bad);
    t.same(schemaErrors('ErrorBody', r.body), [], `${bad}: ErrorBody`);
  }
  // an unattempted or in-flight delivery has no outcome and no status code: no outcome filter selects it
  const again = await call(app, 'POST', `/_sandbox/deliveries/${all.items.find((d) => d.url === hang.url).id}/redeliver`);
  t.equal(again.status, 200);
  const open = await call(app, 'GET', `/_sandbox/deliveries/${again.body.id}`);
  t.match(open.body, { state: /^(pending|delivering)$/, outcome: null, statusCode: null }, 'the redelivery hangs (limit 1 s)');
  for (const o of ['delivered', 'timeout', 'connection_refused', 'connection_reset', 'non_2xx', 'redirect', 'error']) {
    const r = await deliveries(app, `?outcome=${o}&webhookId=${hooks.hang.id}&limit=500`);
    t.notOk(
      r.items.some((d) => d.id === again.body.id),
      `outcome=${o} does not select the unattempted redelivery`,
    );
  }
  await app.webhooks.drain();
  const timeouts = await deliveries(app, `?outcome=timeout&webhookId=${hooks.hang.id}`);
  t.equal(timeouts.total, 3, 'once attempted, the redelivery is listed under its outcome');
  t.equal(timeouts.items[0].id, again.body.id);
});

t.test('the delivery log counts up to 10,000 matches and says when there are more', async (t) => {
  const app = await build(t);
  const hook = json(
    await app.inject({
      method: 'POST',
      url: '/v1/partner/webhooks',
      headers: PARTNER,
      payload: { url: 'http://127.0.0.1:9/x', events: ['payment.completed'] },
    }),
  );
  // 10,001 delivered rows written straight into the database (the API would send each)
  app.db.exec(
    `INSERT INTO events (id, partner_id, name, body, created_at) VALUES ('evt_cap', 'sandbox-partner', 'payment.completed', '{}', '2026-01-01T00:00:00.000Z')`,
  );
  app.db
    .prepare(
      `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < 10001)
       INSERT INTO deliveries (event_id, webhook_id, partner_id, url, state, status_code, outcome, created_at)
       SELECT 'evt_cap', ?, 'sandbox-partner', 'http://127.0.0.1:9/x', 'delivered', 200, 'delivered', '2026-01-01T00:00:00.000Z' FROM seq`,
    )
    .run(hook.id);
  const all = json(await app.inject({ url: '/_sandbox/deliveries?limit=1', headers: PARTNER }));
  t.same(schemaErrors('SandboxDeliveryList', all), []);
  t.match(all, { total: 10_000, totalCapped: true });
  t.equal(all.items.length, 1);
  const failed = json(await app.inject({ url: '/_sandbox/deliveries?state=failed', headers: PARTNER }));
  t.match(failed, { items: [], total: 0, totalCapped: false }, 'a filter with no match: exact zero');
  const delivered = json(await app.inject({ url: '/_sandbox/deliveries?state=delivered&limit=3', headers: PARTNER }));
  t.match(delivered, { total: 10_000, totalCapped: true });
  t.equal(delivered.items.length, 3);
  t.ok(delivered.items[0].id > delivered.items[1].id, 'newest first');
});
