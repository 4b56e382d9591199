/**
 * `obsim check-receiver` as a partner runs it: the shipped example receiver
 * (examples/webhook-receiver.mjs, a child process) passes every check, and its own log shows the
 * duplicate was not processed twice, the late payment.failed was ignored and the unknown event
 * tolerated; --json and --junit reports; exit 1 when a check fails (a wrong secret), 2 without
 * a secret.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT, runObsim } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));

const SECRET = 'whsec_example_receiver_test';

async function exampleReceiver(t: { teardown(fn: () => unknown): void }) {
  const child = spawn(process.execPath, [join(ROOT, 'examples/webhook-receiver.mjs')], {
    env: { PATH: process.env.PATH ?? '', WEBHOOK_SECRET: SECRET, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  t.teardown(async () => {
    if (child.exitCode === null) {
      child.kill();
      await once(child, 'exit');
    }
  });
  const deadline = Date.now() + scaled(30_000);
  while (!/listening on (\S+)/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the example receiver did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { url: /listening on (\S+)/.exec(out)![1], log: () => out };
}

t.test('the example receiver passes every check; the table, the exit code and what the receiver did', async (t) => {
  const rx = await exampleReceiver(t);
  const run = await runObsim(['check-receiver', rx.url, '--secret', SECRET]);
  t.equal(run.code, 0, run.stdout + run.stderr);
  const lines = run.stdout.trim().split('\n');
  t.equal(lines[0], `obsim check-receiver ${rx.url} (limit 10000 ms)`);
  t.equal(lines.filter((l) => l.startsWith('  PASS  ')).length, 12, run.stdout);
  t.equal(lines.at(-1), '12 checks: 12 passed, 0 warned, 0 failed');
  t.match(run.stdout, /PASS {2}tampered body, original signature +refused with 401 in \d+ ms/);

  // the receiver logs after answering (it processes asynchronously): wait for the last check's line
  const deadline = Date.now() + scaled(10_000);
  while (!rx.log().includes('merchant.updated: not handled, ignored') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const log = rx.log();
  const processed = log.split('\n').filter((l) => /^payment \d+ \(check-receiver-\d+\): paid$/.test(l));
  t.equal(processed.length, 3, 'three payments processed once each: valid, the duplicate (once), out of order');
  t.match(log, /^payment (\d+): payment\.failed ignored, already paid$/m, 'the late payment.failed did not undo the paid state');
  t.match(log, /merchant\.updated: not handled, ignored/);
});

t.test('--json and --junit; a wrong secret fails with exit 1 and a hint; no secret is a usage error', async (t) => {
  const rx = await exampleReceiver(t);
  const dir = t.testdir({});
  const junit = join(dir, 'receiver.xml');
  const run = await runObsim(['check-receiver', rx.url, '--secret', 'whsec_not_the_one', '--json', '--junit', junit], {
    env: { OBSIM_WEBHOOK_SECRET: 'ignored: the flag wins' },
  });
  t.equal(run.code, 1, run.stderr);
  const report = JSON.parse(run.stdout);
  t.match(report, { url: rx.url, timeoutMs: 10_000, passed: 4, warned: 0, failed: 8 });
  t.equal(report.checks.length, 12);
  t.match(report.checks[0], {
    id: 'event.payment.completed',
    status: 'fail',
    expected: '2xx within 10000 ms',
    deliveries: [{ event: 'payment.completed', statusCode: 401, outcome: 'non_2xx' }],
  });
  t.same(report.hints, ['every correctly signed delivery was refused: is --secret the secret your receiver verifies with?']);

  const xml = readFileSync(junit, 'utf8');
  t.match(xml, /<testsuites name="obsim check-receiver" tests="12" failures="8" errors="0"/);
  t.equal(xml.match(/<testcase /g)?.length, 12);
  t.equal(xml.match(/<failure /g)?.length, 8);
  t.match(
    xml,
    /<testcase classname="check-receiver" name="signature.missing: no X-Webhook-Signature" time="[\d.]+">\s*<system-out>pass: refused with 401/,
  );

  const fromEnv = await runObsim(['check-receiver', rx.url, '--timeout', '5000'], { env: { OBSIM_WEBHOOK_SECRET: SECRET } });
  t.equal(fromEnv.code, 0, 'the secret from OBSIM_WEBHOOK_SECRET');
  t.match(fromEnv.stdout, /\(limit 5000 ms\)/);

  const noSecret = await runObsim(['check-receiver', rx.url]);
  t.equal(noSecret.code, 2);
  t.match(noSecret.stderr, /--secret \(or OBSIM_WEBHOOK_SECRET\) is required/);
  const badUrl = await runObsim(['check-receiver', 'ftp://example', '--secret', SECRET]);
  t.equal(badUrl.code, 2);
  t.match(badUrl.stderr, /expected an http\(s\) URL/);
});

t.test('the "Try it" commands of docs/scenarios-and-cli.md, as written (on a free port)', async (t) => {
  const doc = readFileSync(join(ROOT, 'docs/scenarios-and-cli.md'), 'utf8');
  const from = doc.indexOf('[`examples/webhook-receiver.mjs`]');
  const [receiverLine, checkLine] = [...doc.slice(from).matchAll(/```sh\n(.+)\n```/g)].slice(0, 2).map((m) => m[1]);
  t.equal(receiverLine, 'WEBHOOK_SECRET=whsec_example PORT=3000 node examples/webhook-receiver.mjs');
  t.equal(checkLine, 'npx obsim check-receiver http://127.0.0.1:3000/webhooks --secret whsec_example');

  // the receiver line with PORT=0, the check line against the port it chose (npx obsim is src/bin.ts here)
  const child = spawn('bash', ['-c', `exec env ${receiverLine.replace('PORT=3000', 'PORT=0')}`], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.teardown(() => void child.kill());
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  while (!/listening on http:\/\/127\.0\.0\.1:(\d+)/.test(out)) {
    if (child.exitCode !== null) throw new Error(`the receiver exited: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1];
  const args = checkLine
    .replace(/^npx obsim /, '')
    .replace(':3000/', `:${port}/`)
    .split(' ');
  const run = await runObsim(args);
  t.equal(run.code, 0, run.stdout);
  t.match(run.stdout, /12 checks: 12 passed, 0 warned, 0 failed/);
});
