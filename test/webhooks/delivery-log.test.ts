/**
 * Redelivery (same X-Webhook-Id and bytes) and the delivery log: its filters and its counts.
 */
import t from 'tap';
import { build, json, OTHER_PARTNER, PARTNER, schemaErrors } from '../helpers/app.js';
import { buildTwo, call, testMerchant } from '../helpers/partner.js';
import { startReceiver } from '../helpers/receiver.js';
import { hook, pay, deliveries, closedPort, checkSigned } from '../helpers/deliveries.js';

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
