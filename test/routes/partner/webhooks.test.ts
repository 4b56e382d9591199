import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { at, build, PARTNER, schemaErrors, T0 } from '../../helpers/app.js';
import { call, count, testMerchant } from '../../helpers/partner.js';

const URL = '/v1/partner/webhooks';
const ALL = ['payment.completed', 'payment.failed', 'merchant.activated', 'merchant.deactivated', 'merchant.onboarding.completed'];

t.test('POST /v1/partner/webhooks registers a webhook with a signing secret', async (t) => {
  const app = await build(t);
  const r = await call(app, 'POST', URL, { url: 'https://partner.example/hooks?x=1', events: ALL });
  t.equal(r.status, 200);
  t.same(schemaErrors('WebhookResponse', r.body), []);
  t.match(r.body, {
    id: /^wh_[0-9a-f]{24}$/,
    url: 'https://partner.example/hooks?x=1',
    events: ALL,
    secret: /^whsec_[0-9a-f]{48}$/,
    createdAt: T0,
  });
  const row = app.store.webhooks.get(r.body.id, 'sandbox-partner')!;
  t.equal(row.secret, r.body.secret);
  t.same(JSON.parse(row.events), ALL);
  t.equal(row.url, r.body.url);
  const http = await call(app, 'POST', URL, { url: 'http://127.0.0.1:8080/x', events: ['payment.failed'] });
  t.equal(http.status, 200, 'plain http is fine in the sandbox');
  t.not(http.body.secret, r.body.secret, 'every webhook has its own secret');
});

t.test('validation: url and events', async (t) => {
  const app = await build(t);
  const cases: [string, Record<string, unknown>, string][] = [
    ['missing', { events: ['payment.completed'] }, 'url'],
    ['missing', { url: 'https://a.example' }, 'events'],
    ['wrong type', { url: 42, events: ['payment.completed'] }, 'url'],
    ['wrong type', { url: 'https://a.example', events: 'payment.completed' }, 'events'],
    ['empty', { url: '', events: ['payment.completed'] }, 'url'],
    ['relative', { url: '/hooks', events: ['payment.completed'] }, 'url'],
    ['no scheme', { url: 'partner.example/hooks', events: ['payment.completed'] }, 'url'],
    ['bad scheme', { url: 'ftp://partner.example/hooks', events: ['payment.completed'] }, 'url'],
    ['bad scheme', { url: 'javascript:alert(1)', events: ['payment.completed'] }, 'url'],
    ['credentials', { url: 'https://user:pw@partner.example/', events: ['payment.completed'] }, 'url'],
    ['too long', { url: `https://a.example/${'x'.repeat(2048)}`, events: ['payment.completed'] }, 'url'],
    ['empty list', { url: 'https://a.example', events: [] }, 'events'],
    ['duplicates', { url: 'https://a.example', events: ['payment.completed', 'payment.completed'] }, 'events'],
    ['bad enum', { url: 'https://a.example', events: ['payment.refunded'] }, 'events[0]'],
    ['bad enum', { url: 'https://a.example', events: ['payment.completed', 'webhook.test'] }, 'events[1]'],
    ['wrong item type', { url: 'https://a.example', events: [1] }, 'events[0]'],
  ];
  for (const [kind, payload, field] of cases) {
    const r = await call(app, 'POST', URL, payload);
    t.equal(r.status, 400, `${kind}: ${field}`);
    t.match(r.body, { code: 'validation_failed', in: 'body' }, `${kind}: ${field} (${r.body?.message})`);
    t.equal(r.body.field, at(field), `${kind}: names ${field}`);
    t.same(schemaErrors('ErrorBody', r.body), []);
  }
  t.equal(count(app, 'webhooks'), 0);
});

t.test('production accepts https only', async (t) => {
  const app = await build(t, {
    config: { environment: 'production', partnerClientId: 'sandbox-partner', partnerClientSecret: 'sandbox-secret' },
  });
  const http = await call(app, 'POST', URL, { url: 'http://partner.example/hooks', events: ['payment.completed'] });
  t.equal(http.status, 400);
  t.match(http.body, { code: 'validation_failed', field: 'url', message: /https/ });
  const https = await call(app, 'POST', URL, { url: 'https://partner.example/hooks', events: ['payment.completed'] });
  t.equal(https.status, 200);
});

t.test('POST /v1/partner/webhooks/{id}/test queues one signed webhook.test delivery', async (t) => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as AddressInfo).port;

  const app = await build(t);
  // subscribes only to payment.failed: the test delivery goes anyway, and only to this webhook
  const hook = await call(app, 'POST', URL, { url: `http://127.0.0.1:${port}/hook`, events: ['payment.failed'] });
  await call(app, 'POST', URL, { url: `http://127.0.0.1:${port}/other`, events: ALL });
  const r = await call(app, 'POST', `${URL}/${hook.body.id}/test`);
  t.equal(r.status, 200);
  t.same(schemaErrors('WebhookTestResponse', r.body), []);
  t.match(r.body, { webhookId: hook.body.id, eventId: /^evt_/, deliveryId: Number, status: 'queued' });

  const event = app.db.prepare('SELECT * FROM events WHERE id = ?').get(r.body.eventId) as {
    name: string;
    body: string;
    partner_id: string;
  };
  t.equal(event.name, 'webhook.test');
  t.equal(event.partner_id, 'sandbox-partner');
  const envelope = JSON.parse(event.body);
  t.same(envelope, {
    event: 'webhook.test',
    timestamp: T0,
    data: { webhookId: hook.body.id, message: envelope.data.message, timestamp: T0 },
  });
  t.equal(count(app, 'deliveries', 'event_id = ?', r.body.eventId), 1, 'exactly one delivery, to this webhook');
  const delivery = app.db.prepare('SELECT * FROM deliveries WHERE id = ?').get(r.body.deliveryId) as { webhook_id: string; url: string };
  t.equal(delivery.webhook_id, hook.body.id);
  t.equal(delivery.url, `http://127.0.0.1:${port}/hook`);

  await app.webhooks.drain();
  t.equal(received.length, 1);
  const got = received[0];
  t.equal(got.body, event.body, 'the stored bytes are sent');
  t.equal(got.headers['x-webhook-signature'], createHmac('sha256', hook.body.secret).update(got.body).digest('hex'));
  t.equal(got.headers['x-webhook-id'], r.body.eventId);
});

t.test('webhook test: unknown id is 404', async (t) => {
  const app = await build(t);
  const hook = await call(app, 'POST', URL, { url: 'http://127.0.0.1:9/x', events: ['payment.failed'] });
  const empty = await app.inject({
    method: 'POST',
    url: `${URL}/${hook.body.id}/test`,
    headers: { ...PARTNER, 'content-type': 'application/json' },
    payload: '',
  });
  t.equal(empty.statusCode, 200, 'Content-Type: application/json with an empty body is accepted');
  const broken = await app.inject({
    method: 'POST',
    url: `${URL}/${hook.body.id}/test`,
    headers: { ...PARTNER, 'content-type': 'application/json' },
    payload: '{',
  });
  t.equal(broken.statusCode, 400);
  const events = count(app, 'events');

  const r = await call(app, 'POST', `${URL}/wh_000000/test`);
  t.equal(r.status, 404);
  t.match(r.body, { code: 'webhook_not_found' });
  t.equal(count(app, 'events'), events, 'no event for an unknown webhook');
});

t.test('a test merchant created after registering a webhook emits merchant.activated', async (t) => {
  const app = await build(t);
  await call(app, 'POST', URL, { url: 'http://127.0.0.1:9/none', events: ['merchant.activated'] });
  const m = await testMerchant(app);
  const events = app.db.prepare("SELECT body FROM events WHERE name = 'merchant.activated'").pluck().all() as string[];
  t.equal(events.length, 1);
  t.match(JSON.parse(events[0]), {
    event: 'merchant.activated',
    data: { merchantId: m.merchantId, clientId: m.clientId, status: 'active' },
  });
});

t.test('webhook test takes no body: a JSON object is ignored, a body of another Content-Type is 415 and queues nothing', async (t) => {
  const app = await build(t);
  const hook = await call(app, 'POST', URL, { url: 'http://127.0.0.1:9/none', events: ['payment.failed'] });
  const url = `${URL}/${hook.body.id}/test`;
  t.equal(
    (await app.inject({ method: 'POST', url, headers: { ...PARTNER, 'content-type': 'application/json' }, payload: '{"x":1}' })).statusCode,
    200,
    'JSON object ignored',
  );
  const events = count(app, 'events');
  // found by the long fuzz run: these were accepted and queued a delivery
  for (const [type, payload] of [
    ['text/plain; charset=utf-8', '1e999'],
    ['application/x-www-form-urlencoded', '-1e999'],
  ]) {
    const r = await app.inject({ method: 'POST', url, headers: { ...PARTNER, 'content-type': type }, payload });
    t.equal(r.statusCode, 415, `${type} ${payload}`);
    t.same(schemaErrors('ErrorBody', JSON.parse(r.body)), []);
    t.match(JSON.parse(r.body), { code: 'unsupported_media_type', message: /takes no body/ });
  }
  t.equal(count(app, 'events'), events, 'no test event queued by a rejected request');
  const noCreds = await app.inject({ method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: 'x' });
  t.equal(noCreds.statusCode, 401, 'credentials are still checked first');
});
