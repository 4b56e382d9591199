/**
 * --environment production behaves as the contract says production does: no test merchants,
 * https-only webhooks, no well-known credentials (configured, or generated at first start,
 * persisted and printed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildApp } from '../../src/app.js';
import { build, json, PARTNER, schemaErrors } from '../helpers/app.js';
import { postForm } from '../helpers/hosted.js';
import { scaled } from '../helpers/speed.js';

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

const LIVE = { 'x-partner-client-id': 'live-partner', 'x-partner-client-secret': 'live-secret-0123456789' };
const production = {
  environment: 'production' as const,
  partnerClientId: LIVE['x-partner-client-id'],
  partnerClientSecret: LIVE['x-partner-client-secret'],
};

function generatedCredentials(notes: string[]): { 'x-partner-client-id': string; 'x-partner-client-secret': string } {
  const line = notes.find((n) => n.includes('X-Partner-Client-Secret'));
  const m = /X-Partner-Client-Id: (\S+)\s+X-Partner-Client-Secret: (\S+)/.exec(line ?? '');
  if (!m) throw new Error(`no generated credentials in startup notes: ${JSON.stringify(notes)}`);
  return { 'x-partner-client-id': m[1], 'x-partner-client-secret': m[2] };
}

t.test('production: the well-known sandbox credentials do not work; generated ones are printed and work', async (t) => {
  const app = await build(t, { config: { environment: 'production' } });
  const creds = generatedCredentials(app.startupNotes);
  t.match(creds['x-partner-client-id'], /^live_[0-9a-f]{16}$/);
  t.ok(creds['x-partner-client-secret'].length >= 40, 'a long random secret');
  t.notOk(app.startupNotes.some((n) => n.includes('sandbox-secret')));

  const sandboxCreds = await app.inject({ method: 'GET', url: '/v1/partner/merchants', headers: PARTNER });
  t.equal(sandboxCreds.statusCode, 401);
  t.equal(json(sandboxCreds).code, 'partner_credentials_invalid');
  t.same(schemaErrors('ErrorBody', json(sandboxCreds)), []);

  const ok = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants',
    headers: creds,
    payload: { companyName: 'Live ApS', contactEmail: 'ops@live.test' },
  });
  t.equal(ok.statusCode, 200);
  t.equal(json(ok).status, 'pending_onboarding');

  const health = await app.inject({ url: '/healthz' });
  t.equal(json(health).environment, 'production');
});

t.test('production: generated credentials are persisted in the database and survive a restart', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-prod-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'prod.sqlite');
  const first = await buildApp({ logger: false, config: { db, environment: 'production' } });
  const creds = generatedCredentials(first.startupNotes);
  t.equal(first.meta.get('production.partnerClientId'), creds['x-partner-client-id']);
  await first.close();

  const second = await buildApp({ logger: false, config: { db, environment: 'production' } });
  t.teardown(() => second.close());
  t.same(generatedCredentials(second.startupNotes), creds, 'same credentials after restart, printed again');
  const res = await second.inject({ method: 'GET', url: '/v1/partner/merchants', headers: creds });
  t.equal(res.statusCode, 200);

  const other = await buildApp({ logger: false, config: { db: ':memory:', environment: 'production' } });
  t.teardown(() => other.close());
  t.not(
    generatedCredentials(other.startupNotes)['x-partner-client-secret'],
    creds['x-partner-client-secret'],
    'another database, other credentials',
  );
});

t.test('production: configured credentials are used as given and nothing is generated', async (t) => {
  const app = await build(t, { config: production });
  t.notOk(app.startupNotes.some((n) => n.includes('generated')));
  t.equal(app.meta.get('production.partnerClientSecret'), undefined);
  const res = await app.inject({ method: 'GET', url: '/v1/partner/merchants', headers: LIVE });
  t.equal(res.statusCode, 200);
});

t.test(
  'production never falls back to the sandbox pair; configured explicitly, even that pair is used as given (the operator’s choice)',
  async (t) => {
    const generated = await build(t, { config: { environment: 'production' } });
    t.equal(
      (await generated.inject({ method: 'GET', url: '/v1/partner/merchants', headers: PARTNER })).statusCode,
      401,
      'not configured: the sandbox pair is refused',
    );
    const idOnly = await build(t, { config: { environment: 'production', partnerClientId: PARTNER['x-partner-client-id'] } });
    t.equal(
      (await idOnly.inject({ method: 'GET', url: '/v1/partner/merchants', headers: PARTNER })).statusCode,
      401,
      'only the id configured: the secret is generated, not the well-known one',
    );
    const configured = await build(t, {
      config: {
        environment: 'production',
        partnerClientId: PARTNER['x-partner-client-id'],
        partnerClientSecret: PARTNER['x-partner-client-secret'],
      },
    });
    t.equal(
      (await configured.inject({ method: 'GET', url: '/v1/partner/merchants', headers: PARTNER })).statusCode,
      200,
      'configured: used as given',
    );
    t.notOk(
      configured.startupNotes.some((n) => n.includes('generated')),
      'nothing generated',
    );
  },
);

t.test('sandbox keeps the documented well-known credentials', async (t) => {
  const app = await build(t);
  const res = await app.inject({ method: 'GET', url: '/v1/partner/merchants', headers: PARTNER });
  t.equal(res.statusCode, 200);
  t.notOk(app.startupNotes.some((n) => n.includes('X-Partner-Client-Secret')));
});

t.test('POST /v1/partner/merchants/test: 200 in the sandbox, 404 in production (no row created)', async (t) => {
  const sandbox = await build(t);
  const ok = await sandbox.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: PARTNER,
    payload: { companyName: 'Test ApS' },
  });
  t.equal(ok.statusCode, 200);
  t.equal(json(ok).status, 'activated');

  const prod = await build(t, { config: production });
  const before = prod.db.prepare('SELECT count(*) FROM merchants').pluck().get();
  const res = await prod.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: LIVE, payload: { companyName: 'Test ApS' } });
  t.equal(res.statusCode, 404);
  t.equal(json(res).code, 'not_available_in_production');
  t.same(schemaErrors('ErrorBody', json(res)), []);
  t.equal(prod.db.prepare('SELECT count(*) FROM merchants').pluck().get(), before);

  const noCreds = await prod.inject({ method: 'POST', url: '/v1/partner/merchants/test', payload: { companyName: 'Test ApS' } });
  t.equal(noCreds.statusCode, 401, 'credentials are checked first');
});

t.test('production: webhook URLs must be https (400 naming url); the sandbox also accepts http', async (t) => {
  const prod = await build(t, { config: production });
  const http = await prod.inject({
    method: 'POST',
    url: '/v1/partner/webhooks',
    headers: LIVE,
    payload: { url: 'http://hooks.example.test/obsim', events: ['payment.completed'] },
  });
  t.equal(http.statusCode, 400);
  t.match(json(http), { code: 'validation_failed', field: 'url', message: /https/ });
  t.equal(prod.db.prepare('SELECT count(*) FROM webhooks').pluck().get(), 0, 'nothing stored');
  const https = await prod.inject({
    method: 'POST',
    url: '/v1/partner/webhooks',
    headers: LIVE,
    payload: { url: 'https://hooks.example.test/obsim', events: ['payment.completed'] },
  });
  t.equal(https.statusCode, 200);
  t.same(schemaErrors('WebhookResponse', json(https)), []);

  const sandbox = await build(t);
  const sandboxHttp = await sandbox.inject({
    method: 'POST',
    url: '/v1/partner/webhooks',
    headers: PARTNER,
    payload: { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] },
  });
  t.equal(sandboxHttp.statusCode, 200);
});

t.test('production seeds no default merchant; the sandbox does', async (t) => {
  const prod = await build(t, { config: production });
  t.equal(prod.db.prepare('SELECT count(*) FROM merchants').pluck().get(), 0);
  const sandbox = await build(t);
  t.ok(Number(sandbox.db.prepare('SELECT count(*) FROM merchants').pluck().get()) >= 1);
});

t.test('production: the startup output prints the generated credentials, and they work over HTTP', async (t) => {
  const { startServer } = await import('../../src/server.js');
  const { loadConfig } = await import('../../src/config.js');
  const lines: string[] = [];
  const config = loadConfig({ environment: 'production', port: '0', host: '127.0.0.1', db: ':memory:', logLevel: 'silent' }, {});
  const server = await startServer(config, (line) => lines.push(line));
  t.teardown(() => server.close());
  t.match(lines[0], /^obsim production simulator listening on http:\/\/127\.0\.0\.1:\d+$/);
  const creds = generatedCredentials(lines);
  t.notOk(lines.join('\n').includes('sandbox-secret'));
  const ok = await fetch(`${server.url}/v1/partner/merchants`, { headers: creds });
  t.equal(ok.status, 200);
  await ok.arrayBuffer();
  const sandboxPair = await fetch(`${server.url}/v1/partner/merchants`, { headers: PARTNER });
  t.equal(sandboxPair.status, 401);
  await sandboxPair.arrayBuffer();
});

t.test('production: the payer acts on the hosted payment page; nothing settles by itself', async (t) => {
  const app = await build(t, { config: production });
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await app.inject({ method, url, headers: LIVE, ...(payload === undefined ? {} : { payload: payload as object }) });
    t.equal(res.statusCode, 200, `${method} ${url}`);
    return json(res);
  };
  const hook = await call('POST', '/v1/partner/webhooks', {
    url: 'https://127.0.0.1:9/hook',
    events: ['payment.completed', 'payment.failed'],
  });
  t.ok(hook.id);
  const m = await call('POST', '/v1/partner/merchants', { companyName: 'Live Shop ApS', contactEmail: 'ops@live.test' });
  await call('POST', `/_sandbox/merchants/${m.merchantId}/activate`);
  const p = await call('POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 125.5, referenceNumber: 'LIVE-PAGE-1' });
  const path = new URL(p.paymentUrl).pathname;
  t.match(path, /^\/pay\/[A-Za-z0-9_-]+$/);

  // well past the sandbox settle delay (5 s) and approval delay, short of the link expiry (30 m)
  await call('POST', '/_sandbox/clock/advance', { duration: '20m' });
  t.equal((await call('GET', `/v1/partner/payments/${p.paymentId}/status`)).status, 'pending', 'nothing settled by itself');
  const completedEvents = () => Number(app.db.prepare("SELECT count(*) FROM events WHERE name = 'payment.completed'").pluck().get());
  t.equal(completedEvents(), 0);

  // the payer opens the page, picks a bank and approves
  const page = await app.inject({ method: 'GET', url: path });
  t.equal(page.statusCode, 200);
  t.match(page.body, /<form method="post" action="\/pay\//);
  t.match(page.body, 'DKK 125.50');
  const missingBank = await postForm(app, path, { decision: 'approve' });
  t.equal(missingBank.statusCode, 400, 'the form still validates: approve needs a bank');
  const approved = await postForm(app, path, { decision: 'approve', bankId: 'nordlys-bank' });
  t.equal(approved.statusCode, 303);
  t.equal(approved.headers.location, path);

  const status = await call('GET', `/v1/partner/payments/${p.paymentId}/status`);
  t.match(status, { status: 'paid', bankPaymentStatus: 'AcceptedSettlementCompleted', failureReason: null });
  t.same(schemaErrors('Payment', status), []);
  const done = await app.inject({ method: 'GET', url: path });
  t.match(done.body, '<h1>Payment completed</h1>');
  t.equal(completedEvents(), 1, 'one payment.completed');
  await app.webhooks.drain();
  const deliveries = await call('GET', '/_sandbox/deliveries');
  t.equal(
    deliveries.items.filter((d: { event: string }) => d.event === 'payment.completed').length,
    1,
    'delivered (attempted) once to the production webhook',
  );

  // and nothing fires later either
  await call('POST', '/_sandbox/clock/advance', { duration: '2h' });
  t.equal((await call('GET', `/v1/partner/payments/${p.paymentId}/status`)).status, 'paid');
  t.equal(completedEvents(), 1);
  t.equal(Number(app.db.prepare("SELECT count(*) FROM events WHERE name = 'payment.failed'").pluck().get()), 0, 'no expiry after payment');

  // a second payment left alone: still pending before its link expires, then expired (not paid)
  const q = await call('POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'LIVE-PAGE-2' });
  await call('POST', '/_sandbox/clock/advance', { duration: '29m' });
  t.equal((await call('GET', `/v1/partner/payments/${q.paymentId}/status`)).status, 'pending');
  await call('POST', '/_sandbox/clock/advance', { duration: '2m' });
  t.match(
    await call('GET', `/v1/partner/payments/${q.paymentId}/status`),
    { status: 'failed', failureReason: 'expired' },
    'an unpaid link still expires',
  );
});
