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

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(180_000);

const LIVE = { 'x-partner-client-id': 'live-partner', 'x-partner-client-secret': 'live-secret-0123456789' };
const production = { environment: 'production' as const, partnerClientId: LIVE['x-partner-client-id'], partnerClientSecret: LIVE['x-partner-client-secret'] };

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

  const ok = await app.inject({ method: 'POST', url: '/v1/partner/merchants', headers: creds, payload: { companyName: 'Live ApS', contactEmail: 'ops@live.test' } });
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
  t.not(generatedCredentials(other.startupNotes)['x-partner-client-secret'], creds['x-partner-client-secret'], 'another database, other credentials');
});

t.test('production: configured credentials are used as given and nothing is generated', async (t) => {
  const app = await build(t, { config: production });
  t.notOk(app.startupNotes.some((n) => n.includes('generated')));
  t.equal(app.meta.get('production.partnerClientSecret'), undefined);
  const res = await app.inject({ method: 'GET', url: '/v1/partner/merchants', headers: LIVE });
  t.equal(res.statusCode, 200);
});

t.test('sandbox keeps the documented well-known credentials', async (t) => {
  const app = await build(t);
  const res = await app.inject({ method: 'GET', url: '/v1/partner/merchants', headers: PARTNER });
  t.equal(res.statusCode, 200);
  t.notOk(app.startupNotes.some((n) => n.includes('X-Partner-Client-Secret')));
});

t.test('POST /v1/partner/merchants/test: 200 in the sandbox, 404 in production (no row created)', async (t) => {
  const sandbox = await build(t);
  const ok = await sandbox.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Test ApS' } });
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
  const http = await prod.inject({ method: 'POST', url: '/v1/partner/webhooks', headers: LIVE, payload: { url: 'http://hooks.example.test/obsim', events: ['payment.completed'] } });
  t.equal(http.statusCode, 400);
  t.match(json(http), { code: 'validation_failed', field: 'url', message: /https/ });
  t.equal(prod.db.prepare('SELECT count(*) FROM webhooks').pluck().get(), 0, 'nothing stored');
  const https = await prod.inject({ method: 'POST', url: '/v1/partner/webhooks', headers: LIVE, payload: { url: 'https://hooks.example.test/obsim', events: ['payment.completed'] } });
  t.equal(https.statusCode, 200);
  t.same(schemaErrors('WebhookResponse', json(https)), []);

  const sandbox = await build(t);
  const sandboxHttp = await sandbox.inject({ method: 'POST', url: '/v1/partner/webhooks', headers: PARTNER, payload: { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] } });
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
