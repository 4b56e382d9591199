/** The real entry point in a child process: start-up output, invalid configuration, usage errors. */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { BIN } from '../helpers/processes.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = BIN;
const env = { ...process.env, OBSIM_LOG_LEVEL: 'warn' };

t.test('obsim serve prints where it listens, the database and the partner credentials', async (t) => {
  const child = spawn(process.execPath, [...bin, 'serve', '--port', '0', '--db', ':memory:'], { cwd: root, env });
  t.teardown(() => child.kill('SIGKILL'));
  let out = '';
  child.stdout.setEncoding('utf8');
  while (!/docs:/.test(out)) {
    const [chunk] = (await once(child.stdout, 'data')) as [string];
    out += chunk;
  }
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
  t.ok(url, `startup line names the address:\n${out}`);
  t.match(out, /database: +:memory:/);
  t.match(
    out,
    /^ {2}credentials: X-Partner-Client-Id: sandbox-partner {2}X-Partner-Client-Secret: sandbox-secret$/m,
    'the sandbox credentials to use',
  );
  t.match(out, /^ {2}partners: +sandbox-partner$/m);
  const merchants = await fetch(`${url}/v1/partner/merchants`, {
    headers: { 'X-Partner-Client-Id': 'sandbox-partner', 'X-Partner-Client-Secret': 'sandbox-secret' },
  });
  t.equal(merchants.status, 200, 'the printed credentials work');
  await merchants.arrayBuffer();
  const health = await fetch(`${url}/healthz`);
  t.equal(health.status, 200);
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number | null];
  t.equal(code, 0, 'SIGTERM stops it cleanly');
});

t.test('invalid configuration stops the start with one line naming the setting', async (t) => {
  const res = spawnSync(process.execPath, [...bin, 'serve', '--port', 'abc'], { cwd: root, env, encoding: 'utf8' });
  t.equal(res.status, 1);
  t.equal(res.stderr.trim(), 'obsim: invalid configuration: --port: "abc" is not a port number');
  const envRes = spawnSync(process.execPath, [...bin, 'serve'], { cwd: root, env: { ...env, PORT: 'x1' }, encoding: 'utf8' });
  t.equal(envRes.status, 1);
  t.match(envRes.stderr, /^obsim: invalid configuration: PORT: /);
});

t.test('an unwritable --db names the flag; the same path in OBSIM_DB names the variable', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-cli-db-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'not-a-dir');
  writeFileSync(file, 'x');
  const bad = join(file, 'obsim.sqlite'); // under a file: unwritable, also for root
  const flag = spawnSync(process.execPath, [...bin, 'serve', '--db', bad], { cwd: root, env, encoding: 'utf8' });
  t.equal(flag.status, 1);
  t.equal(flag.stderr.trim(), `obsim: invalid configuration: --db: cannot write "${bad}" (ENOTDIR)`);
  const fromEnv = spawnSync(process.execPath, [...bin, 'serve'], { cwd: root, env: { ...env, OBSIM_DB: bad }, encoding: 'utf8' });
  t.equal(fromEnv.status, 1);
  t.equal(fromEnv.stderr.trim(), `obsim: invalid configuration: OBSIM_DB: cannot write "${bad}" (ENOTDIR)`);
});

t.test('startup output: a configured sandbox pair is printed; a configured production secret never is', async (t) => {
  const sandboxLines: string[] = [];
  const sandbox = await startServer(
    loadConfig({ port: '0', db: ':memory:', logLevel: 'silent', partnerClientId: 'acme', partnerClientSecret: 'acme-sandbox-secret' }, {}),
    (line) => sandboxLines.push(line),
  );
  t.teardown(() => sandbox.close());
  t.ok(
    sandboxLines.includes('  credentials: X-Partner-Client-Id: acme  X-Partner-Client-Secret: acme-sandbox-secret'),
    sandboxLines.join('\n'),
  );

  const prodLines: string[] = [];
  const secret = 'live-configured-secret-0123456789';
  const prod = await startServer(
    loadConfig(
      {
        environment: 'production',
        port: '0',
        db: ':memory:',
        logLevel: 'silent',
        partnerClientId: 'live-partner',
        partnerClientSecret: secret,
      },
      {},
    ),
    (line) => prodLines.push(line),
  );
  t.teardown(() => prod.close());
  t.ok(prodLines.includes('  credentials: X-Partner-Client-Id: live-partner  (secret as configured, not printed)'), prodLines.join('\n'));
  t.notOk(prodLines.join('\n').includes(secret), 'the configured production secret is not printed');
  t.ok(
    sandboxLines.includes(
      '  payments:   untouched payments settle after 5 seconds; once a payer opens paymentUrl, the payer decides; links expire after 30 minutes',
    ),
    'the sandbox output names the settle delay in force and the payer rule',
  );
  t.ok(
    prodLines.includes('  payments:   nothing settles by itself; the payer decides on paymentUrl; links expire after 30 minutes'),
    'production: nothing settles by itself',
  );
  t.notOk(prodLines.join('\n').includes('sandbox-secret'));

  // production with a configured secret but a generated id: the id is printed, the secret is not
  const half = await buildApp({ logger: false, config: { environment: 'production', db: ':memory:', partnerClientSecret: secret } });
  t.teardown(() => half.close());
  const note = half.startupNotes.find((n) => n.includes('X-Partner-Client-Id'));
  t.match(note, /X-Partner-Client-Id: live_[0-9a-f]{16} {2}X-Partner-Client-Secret: \(as configured, not printed\)$/);
  t.notOk(half.startupNotes.join('\n').includes(secret));
});

t.test('wrong usage prints the usage and exits 2', async (t) => {
  const res = spawnSync(process.execPath, [...bin, 'serve', '--no-such-flag'], { cwd: root, env, encoding: 'utf8' });
  t.equal(res.status, 2);
  t.match(res.stderr, /unknown option/);
  t.match(res.stderr + res.stdout, /Usage: obsim serve/);
});
