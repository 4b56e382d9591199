/** The real entry point in a child process: start-up output, invalid configuration, usage errors. */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = ['--import', 'tsx', 'src/bin.ts'];
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
  t.match(out, /sandbox-partner/);
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

t.test('wrong usage prints the usage and exits 2', async (t) => {
  const res = spawnSync(process.execPath, [...bin, 'serve', '--no-such-flag'], { cwd: root, env, encoding: 'utf8' });
  t.equal(res.status, 2);
  t.match(res.stderr, /unknown option/);
  t.match(res.stderr + res.stdout, /Usage: obsim serve/);
});
