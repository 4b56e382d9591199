/**
 * The README's Node signature-verification snippet (section "Webhook events"), extracted and run
 * verbatim as a receiver in a child process: a real signed delivery from the simulator and a
 * correctly signed POST are accepted (200); a tampered body, a wrong secret, a missing or
 * malformed signature are rejected (401) without crashing the receiver.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { build } from '../helpers/app.js';
import { call } from '../helpers/partner.js';
import { expectedSignature } from '../helpers/receiver.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(120_000));

const readme = readFileSync(new URL('../../docs/lifecycle-and-webhooks.md', import.meta.url), 'utf8');

/** The ```js block that follows the "Verifying a delivery in a Node receiver" paragraph of "### Webhook events". */
function verificationSnippet(text: string): string {
  const section = text.slice(text.indexOf('### Webhook events'));
  const from = section.indexOf('**Verifying a delivery in a Node receiver**');
  if (from < 0) throw new Error('README: no "Verifying a delivery in a Node receiver" paragraph in "Webhook events"');
  const m = /```js\n([\s\S]*?)\n```/.exec(section.slice(from));
  if (!m) throw new Error('README: no ```js block after "Verifying a delivery in a Node receiver"');
  return `${m[1]}\n`;
}

/** Poll until `ok()` (the child's stdout arrives after its answer). */
async function until(ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

t.test('the README snippet verifies signatures: signed accepted, tampered rejected', async (t) => {
  const snippet = verificationSnippet(readme);
  t.match(snippet, /createHmac\('sha256', secret\)/);
  t.match(snippet, /timingSafeEqual/);
  t.match(snippet, /process\.env\.WEBHOOK_SECRET/, 'the secret comes from WEBHOOK_SECRET');
  t.match(snippet, /process\.env\.PORT/, 'the port can be chosen (PORT)');

  const app = await build(t);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/webhooks`;
  const hook = (await call(app, 'POST', '/v1/partner/webhooks', { url, events: ['payment.completed'] })).body as {
    id: string;
    secret: string;
  };

  const dir = t.testdir({});
  const file = join(dir, 'receiver.mjs');
  writeFileSync(file, snippet);
  const child = spawn(process.execPath, [file], {
    cwd: dir,
    env: { PATH: process.env.PATH, WEBHOOK_SECRET: hook.secret, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  t.teardown(() => {
    child.kill('SIGKILL');
  });

  // wait until the snippet listens
  const deadline = Date.now() + scaled(30_000);
  for (;;) {
    const up = await fetch(url, { method: 'POST', body: 'probe' }).then(
      async (r) => (await r.arrayBuffer(), true),
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || exited !== undefined) throw new Error(`the README receiver did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }

  // 1. a real delivery from the simulator (webhook.test) is accepted
  const sent = await call(app, 'POST', `/v1/partner/webhooks/${hook.id}/test`);
  t.equal(sent.status, 200);
  await app.webhooks.drain();
  const d = (await call(app, 'GET', `/_sandbox/deliveries/${sent.body.deliveryId}`)).body;
  t.match(d, { state: 'delivered', outcome: 'delivered', statusCode: 200 }, 'the simulator delivery was accepted by the snippet');
  const logged = new RegExp(`^${sent.body.eventId} webhook\\.test`, 'm');
  await until(() => logged.test(out));
  t.match(out, logged, 'the snippet logged X-Webhook-Id and event after verifying');

  // 2. direct POSTs: signed accepted, every kind of bad one rejected
  const body = JSON.stringify({
    event: 'payment.completed',
    timestamp: '2026-01-15T09:00:05.000Z',
    data: { paymentId: 5000001, status: 'paid', amount: 125.5 },
  });
  const post = async (payload: string, signature: string | undefined) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-webhook-id': 'evt_readme' };
    if (signature !== undefined) headers['x-webhook-signature'] = signature;
    const r = await fetch(url, { method: 'POST', headers, body: payload });
    await r.arrayBuffer();
    return r.status;
  };
  const good = expectedSignature(hook.secret, body);
  t.equal(await post(body, good), 200, 'correctly signed body: accepted');
  t.equal(await post(body.replace('125.5', '999.5'), good), 401, 'tampered body (amount changed), original signature: rejected');
  t.equal(await post(`${body} `, good), 401, 'one extra byte: rejected');
  t.equal(await post(body, expectedSignature('whsec_wrong', body)), 401, 'signed with another secret: rejected');
  t.equal(await post(body, good.toUpperCase().replace(/[0-9]/g, 'z')), 401, 'malformed hex: rejected');
  t.equal(await post(body, good.slice(0, 32)), 401, 'truncated signature: rejected (no crash on the length check)');
  t.equal(await post(body, undefined), 401, 'no signature header: rejected');
  t.equal(exited, undefined, 'the receiver is still running');
  t.equal(await post(body, good), 200, 'and still accepts a good one');
  const processed = () => out.split('\n').filter((l) => l.startsWith('evt_readme')).length;
  await until(() => processed() >= 2);
  await new Promise((r) => setTimeout(r, 200)); // a rejected one would have been logged by now too
  t.equal(processed(), 2, 'only the two accepted deliveries were processed');
});
