/**
 * `obsim logs tail`, the real command line against a listening simulator: it connects to the SSE
 * stream, prints one line per request and per webhook delivery (JSON with --json), applies
 * --filter, stops after --max lines; wrong credentials and bad filters are refused. The filter
 * rules themselves are checked without a server.
 */
import { spawn } from 'node:child_process';
import t from 'tap';
import { formatLine, parseFilter, passes } from '../../src/cli/logs.js';
import { defaultConfig, SANDBOX_PARTNER } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { verify } from '../../src/webhooks/sign.js';
import { BIN, cleanEnv, ROOT, runObsim } from '../helpers/processes.js';
import { startReceiver } from '../helpers/receiver.js';

const PARTNER = { 'x-partner-client-id': SANDBOX_PARTNER.clientId, 'x-partner-client-secret': SANDBOX_PARTNER.clientSecret };

async function listening(t: { teardown(fn: () => unknown): void }): Promise<RunningServer> {
  const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent', clockFrozen: true }, () => undefined);
  t.teardown(() => server.close());
  return server;
}

async function post(server: RunningServer, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { ...PARTNER, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Start `obsim logs tail <args>`; resolves once it printed Ready!, with a promise of its end. */
async function tail(server: RunningServer, args: string[]) {
  const child = spawn(process.execPath, [...BIN, 'logs', 'tail', ...args], {
    cwd: ROOT,
    env: { ...cleanEnv(), OBSIM_BASE_URL: server.url, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const ended = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no Ready! from logs tail: ${stderr}`)), 30_000);
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      if (stderr.includes('Ready!')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('close', () => reject(new Error(`logs tail ended before Ready!: ${stderr}`)));
  });
  return { child, ended };
}

t.test('filters: FIELD OP VALUE, numbers compared as numbers, text without case', async (t) => {
  const item = { type: 'request' as const, status: 404, method: 'GET', path: '/v1/partner/payments/1/status', code: 'payment_not_found' };
  t.ok(passes(item, [parseFilter('status>=400'), parseFilter('method=get')]));
  t.notOk(passes(item, [parseFilter('status<400')]));
  t.ok(passes(item, [parseFilter('path~/payments/')]));
  t.ok(passes(item, [parseFilter('type!=delivery')]));
  t.notOk(passes(item, [parseFilter('event=payment.completed')]), 'a field the item lacks never equals');
  t.ok(passes(item, [parseFilter('event!=payment.completed')]));
  t.throws(() => parseFilter('status'), /not FIELD OP VALUE/);
  t.throws(() => parseFilter('colour=red'), /not a field to filter on/);
});

t.test('requests and deliveries stream live, as JSON lines, filtered, until --max', async (t) => {
  const server = await listening(t);
  const rx = await startReceiver(t);
  const all = await tail(server, ['--json', '--max', '5']);
  const refused = await tail(server, ['--json', '--filter', 'status>=400', '--max', '1']);
  const deliveries = await tail(server, ['--json', '--filter', 'type=delivery', '--max', '1']);
  const human = await tail(server, ['--max', '1']);

  const m = await post(server, '/v1/partner/merchants/test', { companyName: 'Tail Shop' });
  const hook = await post(server, '/v1/partner/webhooks', { url: rx.url, events: ['payment.completed'] });
  await post(server, '/v1/partner/payments', { merchantClientId: m.body.clientId, amount: '10', referenceNumber: 'r' }); // 400
  await post(server, '/v1/partner/payments', { merchantClientId: m.body.clientId, amount: 10, referenceNumber: 'r' });
  await post(server, '/_sandbox/clock/advance', { duration: '10s' });

  const a = await all.ended;
  t.equal(a.code, 0, a.stderr);
  const lines = a.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  t.same(
    lines.map((l) => `${l.type} ${l.method ?? l.event} ${l.path ?? ''} ${l.status ?? l.statusCode}`),
    [
      'request POST /v1/partner/merchants/test 200',
      'request POST /v1/partner/webhooks 200',
      'request POST /v1/partner/payments 400',
      'request POST /v1/partner/payments 200',
      'request POST /_sandbox/clock/advance 200',
    ],
  );
  t.equal(lines[1].responseBody.secret, '[redacted]', 'the stream carries redacted entries');

  const r = await refused.ended;
  t.match(JSON.parse(r.stdout), { type: 'request', status: 400, code: 'validation_failed', field: 'amount' });

  const d = await deliveries.ended;
  t.equal(d.code, 0, d.stderr);
  const delivery = JSON.parse(d.stdout);
  t.match(delivery, {
    type: 'delivery',
    event: 'payment.completed',
    url: rx.url,
    statusCode: 200,
    outcome: 'delivered',
    state: 'delivered',
  });
  const received = rx.received.find((x) => x.headers['x-webhook-id'] === delivery.eventId);
  t.ok(
    received && verify(hook.body.secret, received.raw, received.headers['x-webhook-signature'] as string),
    'the delivery it names arrived, signed',
  );

  const h = await human.ended;
  t.match(
    h.stdout,
    /^\d\d:\d\d:\d\d {2}POST {4}\/v1\/partner\/merchants\/test +200 [\d.]+ms {2}req_[0-9a-f]{24}\n$/,
    'one plain line (no colours off a terminal)',
  );
});

t.test('refused: wrong credentials, a bad filter, nothing listening', async (t) => {
  const server = await listening(t);
  const wrong = await runObsim(['logs', 'tail', '--partner-client-secret', 'nope'], { env: { OBSIM_BASE_URL: server.url } });
  t.equal(wrong.code, 1);
  t.match(wrong.stderr, /answered 401: .*partner_credentials_invalid/);
  const filter = await runObsim(['logs', 'tail', '--filter', 'colour=red'], { env: { OBSIM_BASE_URL: server.url } });
  t.equal(filter.code, 2);
  t.match(filter.stderr, /"colour" is not a field to filter on/);
  const nothing = await runObsim(['logs', 'tail', '--base-url', 'http://127.0.0.1:9']);
  t.equal(nothing.code, 1);
  t.match(nothing.stderr, /cannot reach http:\/\/127\.0\.0\.1:9/);
});

t.test('an injected fault is marked on its line (docs/chaos.md)', async (t) => {
  const server = await listening(t);
  const put = await fetch(`${server.url}/_sandbox/faults`, {
    method: 'PUT',
    headers: { ...PARTNER, 'content-type': 'application/json' },
    body: JSON.stringify({ seed: 1, rules: [{ kind: 'error', operation: 'listMerchants', rate: 1, status: 503 }] }),
  });
  t.equal(put.status, 200);
  const { ended } = await tail(server, ['--max', '1']);
  await fetch(`${server.url}/v1/partner/merchants`, { headers: PARTNER });
  const { code, stdout } = await ended;
  t.equal(code, 0);
  t.match(stdout, /GET +\/v1\/partner\/merchants +503 service_unavailable .* fault error rule 0 /);
  const delivery = formatLine({
    type: 'delivery',
    event: 'payment.completed',
    statusCode: null,
    outcome: 'chaos_drop',
    durationMs: 0,
    url: 'http://x',
    id: 4,
    fault: { rule: 2, kind: 'webhook_drop' },
  });
  t.match(delivery, /chaos_drop .* delivery 4 +fault webhook_drop rule 2 /);
  t.notMatch(formatLine({ type: 'request', method: 'GET', path: '/v1/x', status: 200, durationMs: 1, requestId: 'r' }), /fault/);
});
