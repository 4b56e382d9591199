/**
 * The command line, mostly as a user runs it: a child process of `obsim` (test/helpers/processes.ts).
 */
import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { buildCli } from '../../src/cli.js';
import { sign } from '../../src/webhooks/sign.js';
import { build, PARTNER } from '../helpers/app.js';
import { BIN, cleanEnv, runObsim, type Run } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

const ROOT = resolve(import.meta.dirname, '../..');

// generous: child processes start slowly on a busy machine
t.setTimeout(scaled(300_000));

const obsim = (args: string[], options: { timeoutMs?: number } = {}): Promise<Run> => runObsim(args, options);

function allCommands(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(allCommands)];
}

t.test('--help of every command describes every one of its options', async (t) => {
  const program = buildCli();
  const commands = allCommands(program);
  t.ok(commands.some((c) => c.name() === 'listen'));
  t.ok(commands.some((c) => c.name() === 'run' && c.parent?.name() === 'scenario'));
  for (const cmd of commands) {
    const help = cmd.helpInformation();
    for (const opt of cmd.options) {
      t.ok(help.includes(opt.flags), `${cmd.name()} --help shows ${opt.flags}`);
      t.ok(opt.description && opt.description.length > 5, `${cmd.name()} ${opt.flags} has a description`);
    }
    t.ok(cmd.description().length > 5 || cmd === program, `${cmd.name()} has a description`);
  }
  const top = program.helpInformation();
  for (const name of ['serve', 'openapi', 'scenario', 'listen'])
    t.match(top, new RegExp(`\\n\\s+${name}\\b`), `obsim --help lists ${name}`);
});

t.test('obsim --help and obsim scenario run --help exit 0', async (t) => {
  const top = await obsim(['--help']);
  t.equal(top.code, 0);
  t.match(top.stdout, /scenario/);
  const run = await obsim(['scenario', 'run', '--help']);
  t.equal(run.code, 0);
  for (const flag of ['--base-url', '--junit', '--receiver', '--partner-client-id', '--partner-client-secret', '--in-process', '--reset'])
    t.match(run.stdout, flag);
  const listen = await obsim(['listen', '--help']);
  for (const flag of ['--port', '--secret', '--forward-to', '--host']) t.match(listen.stdout, flag);
});

t.test('wrong usage prints the usage and exits 2', async (t) => {
  // in-process: every wrong usage is a CommanderError (main() turns it into exit code 2)
  const { CommanderError } = await import('commander');
  for (const args of [
    ['scenario', 'run', 'x.yaml', '--bogus'],
    ['listen', '--port', 'abc'],
    ['frobnicate'],
    ['scenario', 'run', 'x', '--base-url', 'not a url'],
    ['scenario'],
  ]) {
    const program = buildCli();
    let errText = '';
    for (const c of allCommands(program)) c.configureOutput({ writeErr: (s) => (errText += s), writeOut: (s) => (errText += s) });
    const err = await program.parseAsync(['node', 'obsim', ...args]).then(
      () => undefined,
      (e: unknown) => e,
    );
    t.ok(err instanceof CommanderError && err.exitCode !== 0, `obsim ${args.join(' ')} is a usage error`);
    t.match(errText, /error: |Usage: /, `obsim ${args.join(' ')} explains`);
  }
  // and for real, in a child process
  for (const args of [
    ['scenario', 'run'],
    ['listen', '--bogus'],
  ]) {
    const r = await obsim(args);
    t.equal(r.code, 2, `obsim ${args.join(' ')} exits 2`);
    t.match(r.stderr, /error: /);
    t.match(r.stderr, /Usage: obsim /, 'prints the usage');
  }
  const missing = await obsim(['scenario', 'run', 'no-such-file.yaml', '--in-process']);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /no-such-file\.yaml: no such file or folder, and no shipped scenario of that name/);
});

t.test('a failing scenario: readable message, JUnit file, exit 1; a passing one exits 0', async (t) => {
  const dir = t.testdir({
    'fails.yaml': [
      'name: fails',
      'steps:',
      '  - request:',
      '      method: POST',
      '      path: /v1/partner/merchants/test',
      '      body: { companyName: "CLI ${unique}" }',
      '      capture: { merchant.id: merchantId }',
      '  - name: the merchant should be inactive',
      '    request:',
      '      method: GET',
      '      path: /v1/partner/merchants/${merchant.id}/onboarding-status',
      '      expect: { body: { onboardingStatus: inactive } }',
      '  - wait: 1',
      '',
    ].join('\n'),
    'bad.yaml': 'name: bad\nsteps:\n  - wait: 1\n  - teleport: { to: mars }\n',
  });
  const junit = join(dir, 'report.xml');
  const r = await obsim(['scenario', 'run', join(dir, 'fails.yaml'), 'payment-paid', '--in-process', '--junit', junit]);
  t.equal(r.code, 1);
  t.match(r.stdout, /\[1\/2\] fails/, 'progress');
  t.match(r.stdout, /✓ {2}1\. request POST \/v1\/partner\/merchants\/test/);
  t.match(r.stdout, /✗ {2}2\. the merchant should be inactive/);
  t.match(r.stdout, /at onboardingStatus: differs\n\s+expected: "inactive"\n\s+actual: {3}"activated"/);
  t.match(r.stdout, /- {2}3\. wait 1ms \(real time\) \(skipped\)/);
  t.match(r.stdout, /PASS payment-paid/);
  t.match(r.stdout, /1 passed, 1 failed, 2 scenarios/);
  t.notMatch(r.stdout, /\u001b\[/, 'no colors when not a TTY');
  const xml = readFileSync(junit, 'utf8');
  t.match(xml, /<testsuites name="obsim scenarios" tests="\d+" failures="1"/);

  const invalid = await obsim(['scenario', 'run', join(dir, 'bad.yaml'), '--in-process']);
  t.equal(invalid.code, 1);
  t.match(invalid.stdout, /bad\.yaml: step 2: unknown step kind "teleport"/);

  const validate = await obsim(['scenario', 'validate', dir]);
  t.equal(validate.code, 1);
  t.match(validate.stdout, /invalid {2}.*bad\.yaml: step 2/);
  t.match(validate.stdout, /ok {7}.*fails\.yaml \(fails, 3 steps\)/);
});

t.test('scenario run --base-url against a real listening server passes and exits 0', async (t) => {
  const app = await build(t);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const r = await obsim(['scenario', 'run', 'payment-paid', 'webhook-test-delivery', '--base-url', address, '--quiet']);
  t.equal(r.code, 0, r.stdout + r.stderr);
  t.match(r.stdout, new RegExp(`Running 2 scenarios against ${address.replace(/[.]/g, '\\.')}`));
  t.match(r.stdout, /2 passed, 0 failed/);
  const list = await obsim(['scenario', 'list']);
  t.match(list.stdout, /payment-paid\s+A payment/);
});

t.test('scenario run --receiver: the runner receives real signed deliveries from a listening server and passes', async (t) => {
  const app = await build(t);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const scenario = (within: number) =>
    [
      'name: with-receiver',
      'steps:',
      '  - request:',
      '      method: POST',
      '      path: /v1/partner/merchants/test',
      '      body: { companyName: "Receiver ${unique}" }',
      '      capture: { merchant.clientId: clientId }',
      '  - registerWebhook: { events: [payment.completed] }',
      '  - request:',
      '      method: POST',
      '      path: /v1/partner/payments',
      '      body: { merchantClientId: "${merchant.clientId}", amount: 42.5, referenceNumber: "rx-${unique}" }',
      '      capture: { payment.id: paymentId }',
      '  - control: { payment: "${payment.id}", action: complete }',
      '  - expectWebhook:',
      '      event: payment.completed',
      `      within: ${within}`,
      '      data: { paymentId: "${payment.id}", status: paid, amount: 42.5 }',
      '',
    ].join('\n');
  const dir = t.testdir({
    'with-receiver.yaml': scenario(5000),
    // the same, waiting less: no delivery can reach it, and the runner need not wait 5 s to say so
    'unreachable.yaml': scenario(500),
  });
  const r = await obsim(['scenario', 'run', join(dir, 'with-receiver.yaml'), '--base-url', address, '--receiver']);
  t.equal(r.code, 0, r.stdout + r.stderr);
  const base = /webhook receiver listening; registered URL base (http:\/\/127\.0\.0\.1:\d+)/.exec(r.stdout)?.[1];
  t.ok(base, 'prints the receiver address');
  t.match(r.stdout, /registerWebhook payment\.completed/);
  t.match(
    r.stdout,
    new RegExp(`wh_\\w+ → ${base!.replace(/[.]/g, '\\.')}/hooks/[0-9a-f]{8}/1`),
    'registered the receiver URL, not the unreachable one',
  );
  t.match(r.stdout, /✓ +5\. expectWebhook payment\.completed within 5000ms/);
  t.match(r.stdout, /evt_[0-9a-f]+ signature valid/);
  t.match(r.stdout, /1 passed, 0 failed, 1 scenario/);
  // the simulator's own log: the delivery went over the network to the runner's receiver, which answered 200
  const log = (await app.inject({ method: 'GET', url: '/_sandbox/deliveries?event=payment.completed', headers: PARTNER })).json();
  const mine = log.items.filter((d: { url: string }) => d.url.startsWith(`${base}/hooks/`));
  t.equal(mine.length, 1, 'one delivery to the receiver');
  t.match(mine[0], { state: 'delivered', outcome: 'delivered', statusCode: 200 });
  t.equal(JSON.parse(mine[0].body).data.amount, 42.5);

  // the same scenario with a receiver that cannot be reached from the simulator fails, naming the webhook
  const unreachable = await obsim([
    'scenario',
    'run',
    join(dir, 'unreachable.yaml'),
    '--base-url',
    address,
    '--receiver',
    '--receiver-url',
    'http://127.0.0.1:9',
  ]);
  t.equal(unreachable.code, 1, 'no delivery reaches the runner: the expectation fails');
  t.match(unreachable.stdout, /expected a payment\.completed delivery to webhook wh_\w+ .*none arrived in 500ms/);
});

t.test(
  'obsim openapi: --out writes the committed openapi.json byte for byte; stdout prints the same; --which controls prints openapi-controls.json; wrong usage exits 2',
  async (t) => {
    const committed = readFileSync(join(ROOT, 'openapi.json'));
    const dir = t.testdir({});
    const out = join(dir, 'openapi.json');
    const written = await obsim(['openapi', '--out', out]);
    t.equal(written.code, 0, written.stderr);
    t.equal(written.stdout, '', 'nothing printed with --out');
    t.ok(readFileSync(out).equals(committed), 'the written file equals the committed openapi.json byte for byte (else: npm run openapi)');
    const printed = await obsim(['openapi']);
    t.equal(printed.code, 0, printed.stderr);
    t.ok(Buffer.from(printed.stdout, 'utf8').equals(committed), 'standard output is the same document, byte for byte');
    const doc = JSON.parse(printed.stdout);
    t.match(doc.openapi, /^3\./);
    t.ok(doc.paths['/v1/partner/payments'], 'the provider paths');
    t.notOk(doc.paths['/_sandbox/deliveries'], "none of obsim's controls");
    const controls = await obsim(['openapi', '--which', 'controls']);
    t.equal(controls.code, 0, controls.stderr);
    t.ok(
      Buffer.from(controls.stdout, 'utf8').equals(readFileSync(join(ROOT, 'openapi-controls.json'))),
      'the committed openapi-controls.json',
    );
    const controlPaths = Object.keys((JSON.parse(controls.stdout) as { paths: object }).paths);
    t.ok(controlPaths.includes('/_sandbox/deliveries') && controlPaths.includes('/healthz'), 'the controls and /healthz');
    t.notOk(
      controlPaths.some((p) => p.startsWith('/v1/')),
      'no provider path',
    );
    for (const args of [
      ['openapi', '--bogus'],
      ['openapi', '--out'],
      ['openapi', '--which', 'everything'],
    ]) {
      const r = await obsim(args);
      t.equal(r.code, 2, `obsim ${args.join(' ')} exits 2`);
      t.match(r.stderr, /error: /);
      t.match(r.stderr, /Usage: obsim openapi \[options\]/, 'prints the usage');
      t.equal(r.stdout, '', 'no document printed');
    }
  },
);

/** Start `obsim listen` and wait for its "receiving webhooks on URL" line. */
async function startListen(t: Test, extra: string[]): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [...BIN, 'listen', '--port', '0', ...extra], {
    cwd: ROOT,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => {
    child.kill('SIGTERM');
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const url = await waitFor(
    () => /receiving webhooks on (http:\/\/\S+?)[,\s]/.exec(out)?.[1],
    () => out,
  );
  return { url, child, output: () => out };
}

async function waitFor<T>(probe: () => T | undefined, output: () => string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out; output so far:\n${output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

t.test('obsim listen prints one line per delivery with the signature verdict, and forwards', async (t) => {
  // the partner's app that listen forwards to
  const forwarded: { body: string; signature: string | undefined }[] = [];
  const appServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      forwarded.push({ body, signature: req.headers['x-webhook-signature'] as string | undefined });
      res.writeHead(202).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => appServer.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => appServer.close());
  const forwardTo = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}/hooks`;

  const secret = 'whsec_test';
  const { url, output } = await startListen(t, ['--secret', secret, '--forward-to', forwardTo]);
  const body = JSON.stringify({
    event: 'payment.completed',
    timestamp: '2026-01-15T09:00:05.000Z',
    data: { paymentId: 5000001, status: 'paid', amount: 125.5, referenceNumber: 'order-1' },
  });
  const good = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-signature': sign(secret, body), 'x-webhook-id': 'evt_good' },
    body,
  });
  t.equal(good.status, 202, "answers with the forwarded app's status");
  await good.text();
  const line = await waitFor(
    () =>
      output()
        .split('\n')
        .find((l) => l.includes('evt_good')),
    output,
  );
  t.match(line, /POST \/ payment\.completed evt_good paymentId=5000001 referenceNumber=order-1 status=paid amount=125\.5 signature valid/);
  await waitFor(() => (output().includes('forwarded to') ? true : undefined), output);
  t.equal(forwarded.length, 1);
  t.equal(forwarded[0].body, body, 'forwarded byte for byte');
  t.equal(forwarded[0].signature, sign(secret, body), 'with the signature header');

  const bad = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-signature': sign('other', body), 'x-webhook-id': 'evt_bad' },
    body,
  });
  await bad.text();
  const badLine = await waitFor(
    () =>
      output()
        .split('\n')
        .find((l) => l.includes('evt_bad')),
    output,
  );
  t.match(badLine, /signature INVALID/);
});

t.test('obsim listen receives a real signed delivery from the simulator: signature valid', async (t) => {
  const app = await build(t);
  // the webhook secret is issued at registration, which needs the URL: pick a free port first
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const PARTNER = { 'x-partner-client-id': 'sandbox-partner', 'x-partner-client-secret': 'sandbox-secret' };
  const hook = (
    await app.inject({
      method: 'POST',
      url: '/v1/partner/webhooks',
      headers: PARTNER,
      payload: { url: `http://127.0.0.1:${port}/obsim`, events: ['payment.completed'] },
    })
  ).json();
  const child = spawn(process.execPath, [...BIN, 'listen', '--port', String(port), '--secret', hook.secret], {
    cwd: ROOT,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => {
    child.kill('SIGTERM');
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(
    () => (out.includes('receiving webhooks on') ? true : undefined),
    () => out,
  );
  const sent = await app.inject({ method: 'POST', url: `/v1/partner/webhooks/${hook.id}/test`, headers: PARTNER });
  t.equal(sent.statusCode, 200);
  const line = await waitFor(
    () => out.split('\n').find((l) => l.includes('webhook.test')),
    () => out,
  );
  t.match(line, new RegExp(`POST /obsim webhook\\.test evt_\\w+ webhookId=${hook.id} signature valid`));
});
