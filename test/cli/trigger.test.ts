/**
 * `obsim trigger` against a listening simulator with a loopback receiver: every event is driven
 * through the public and control APIs, its signed delivery arrives, and the printed outcome and
 * exit code follow the receiver's answers (2xx -> 0; a failing receiver or no subscribed webhook
 * -> 1). The real command line is run once for --list and an end-to-end trigger.
 */
import t from 'tap';
import { trigger } from '../../src/cli/trigger.js';
import { defaultConfig, SANDBOX_PARTNER } from '../../src/config.js';
import { EVENT_NAMES } from '../../src/domain/machine.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { verify } from '../../src/webhooks/sign.js';
import { runObsim } from '../helpers/processes.js';
import { startReceiver } from '../helpers/receiver.js';
import { scaled } from '../helpers/speed.js';

const opts = (server: RunningServer, extra: Record<string, unknown> = {}) => ({
  baseUrl: server.url,
  partnerClientId: SANDBOX_PARTNER.clientId,
  partnerClientSecret: SANDBOX_PARTNER.clientSecret,
  amount: 100,
  reason: 'bank_rejected' as const,
  timeout: scaled(15_000),
  ...extra,
});

async function listening(t: { teardown(fn: () => unknown): void }): Promise<RunningServer> {
  const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent' }, () => undefined);
  t.teardown(() => server.close());
  return server;
}

async function register(server: RunningServer, url: string, events: readonly string[]): Promise<{ id: string; secret: string }> {
  const res = await fetch(`${server.url}/v1/partner/webhooks`, {
    method: 'POST',
    headers: {
      'x-partner-client-id': SANDBOX_PARTNER.clientId,
      'x-partner-client-secret': SANDBOX_PARTNER.clientSecret,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ url, events }),
  });
  return (await res.json()) as { id: string; secret: string };
}

t.test('every event: driven, delivered signed, printed, exit 0', async (t) => {
  const server = await listening(t);
  const rx = await startReceiver(t);
  const hook = await register(server, rx.url, EVENT_NAMES);
  for (const event of EVENT_NAMES) {
    const lines: string[] = [];
    const code = await trigger(event, opts(server), (l) => lines.push(l));
    t.equal(code, 0, `${event}: exit 0\n${lines.join('\n')}`);
    t.match(lines[0], new RegExp(`^triggered ${event.replace(/\./g, '\\.')}: `));
    t.ok(
      lines.some((l) => l.includes(`ok   ${hook.id} ${rx.url} -> 200 in `) && /signature [0-9a-f]{64}/.test(l)),
      `${event}: the delivery line shows status, duration and signature`,
    );
    const got = rx.received.filter((r) => r.json?.event === event).at(-1);
    t.ok(got && verify(hook.secret, got.raw, got.headers['x-webhook-signature'] as string), `${event}: received with a valid signature`);
  }
  const failed = rx.received.filter((r) => r.json?.event === 'payment.failed').map((r) => r.json.data.failureReason);
  t.same(failed, ['bank_rejected']);
});

t.test('--reason, --amount and --merchant reuse an existing merchant', async (t) => {
  const server = await listening(t);
  const rx = await startReceiver(t);
  await register(server, rx.url, ['payment.failed']);
  const lines: string[] = [];
  t.equal(
    await trigger('payment.failed', opts(server, { reason: 'payer_abandoned', amount: 42.5, merchant: 100001 }), (l) => lines.push(l)),
    0,
  );
  t.match(lines[0], /payment 5000001 of merchant /);
  t.match(rx.received[0]?.json?.data, { amount: 42.5, failureReason: 'payer_abandoned', merchantName: 'obsim Default Merchant ApS' });
});

t.test('a receiver that fails, or no subscribed webhook: exit 1 with the reason', async (t) => {
  const server = await listening(t);
  const rx = await startReceiver(t, (_req, res) => {
    res.writeHead(500);
    res.end('boom');
  });
  const lines: string[] = [];
  t.equal(await trigger('merchant.activated', opts(server), (l) => lines.push(l)), 1, 'nothing subscribed: 1');
  t.match(lines.join('\n'), /no webhook is subscribed to merchant\.activated/);
  await register(server, rx.url, ['merchant.activated']);
  lines.length = 0;
  t.equal(await trigger('merchant.activated', opts(server), (l) => lines.push(l)), 1, 'a 500: 1');
  t.match(lines.join('\n'), /FAIL wh_[0-9a-f]+ .* -> 500 in \d+ ms/);
  t.match(lines.at(-1), 'not every delivery got a 2xx');
});

t.test('the command line: --list, an unknown event (exit 2), a trigger end to end', async (t) => {
  const server = await listening(t);
  const rx = await startReceiver(t);
  await register(server, rx.url, ['payment.completed']);
  const run = (args: string[]) => runObsim(['trigger', ...args], { env: { OBSIM_BASE_URL: server.url } });
  const list = await run(['--list']);
  t.equal(list.code, 0);
  for (const event of EVENT_NAMES) t.match(list.stdout, event);
  const unknown = await run(['payment.refunded']);
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /"payment\.refunded" is not an event/);
  const ok = await run(['payment.completed', '--amount', '12.34']);
  t.equal(ok.code, 0, ok.stderr);
  t.match(ok.stdout, /1 delivery, all 2xx/);
  t.match(rx.received.at(-1)?.json?.data, { amount: 12.34, status: 'paid' });
});
