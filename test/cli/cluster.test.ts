/**
 * `obsim cluster` as a user runs it (docs/cluster.md): the banner, the shards as `obsim serve
 * --shard` processes, drain and undo through HAProxy's runtime API, Ctrl-C / SIGTERM stopping
 * everything; and the one-line error when HAProxy is missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { inCI } from '../helpers/browser.js';
import { freePorts, haproxyMissing } from '../helpers/cluster.js';
import { ROOT, runnable } from '../helpers/process.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(120_000));
const { argv: bin } = runnable(['node', 'dist/src/bin.js']);
const env = { ...process.env, OBSIM_LOG_LEVEL: 'warn' };

t.test('without HAProxy: one line naming the package to install, exit 1', async (t) => {
  const r = spawnSync(process.execPath, [...bin, 'cluster', '--haproxy', '/nonexistent/haproxy', '--data-dir', tmpdir()], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  t.equal(r.status, 1);
  t.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  t.match(r.stderr, /needs HAProxy on PATH .*apt-get install haproxy/);
});

t.test('wrong usage exits 2', async (t) => {
  const r = spawnSync(process.execPath, [...bin, 'cluster', '--shards', '0'], { cwd: ROOT, env, encoding: 'utf8' });
  t.equal(r.status, 2);
  t.match(r.stderr, /--shards/);
});

const missing = haproxyMissing();
t.test(
  'obsim cluster --shards 3: banner, shards in ps, drain, stop on SIGTERM',
  { skip: missing && !inCI() ? missing : false },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'obsim-cluster-cli-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const port = await freePorts(4);
    const child = spawn(process.execPath, [...bin, 'cluster', '--shards', '3', '--port', String(port), '--data-dir', dir], {
      cwd: ROOT,
      env,
    });
    t.teardown(() => child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    for (let i = 0; i < 600 && !out.includes('console:'); i++) await new Promise((r) => setTimeout(r, 100));
    t.match(out, `obsim sandbox cluster listening on http://127.0.0.1:${port}`);
    t.match(out, 'X-Partner-Client-Id: sandbox-partner  X-Partner-Client-Secret: sandbox-secret');
    const ps = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout;
    for (const s of ['s1', 's2', 's3'])
      t.match(ps, new RegExp(`serve --shard ${s} --port ${port + Number(s[1])}`), `${s} runs as obsim serve --shard ${s}`);

    const drain = (...args: string[]) =>
      spawnSync(process.execPath, [...bin, 'cluster', 'drain', ...args, '--data-dir', dir], { cwd: ROOT, env, encoding: 'utf8' });
    const drained = drain('s2');
    t.equal(drained.status, 0, drained.stderr);
    t.match(drained.stdout, 's2: drained');
    const shards = [];
    for (let i = 0; i < 6; i++) {
      const r = await fetch(`http://127.0.0.1:${port}/_sandbox/sandboxes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      shards.push(((await r.json()) as { shard: string }).shard);
    }
    t.notOk(shards.includes('s2'), `no new sandbox on the drained shard (${shards.join(', ')})`);
    t.equal(drain('s2', '--undo').status, 0);
    const unknown = drain('s9');
    t.equal(unknown.status, 1);
    t.match(unknown.stderr, 'HAProxy says: No such server');

    child.kill('SIGTERM');
    t.equal(await exited, 0, 'exits 0 on SIGTERM');
    const after = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout;
    t.notMatch(after, new RegExp(`serve --shard s1 --port ${port + 1}`), 'the shards are gone');
    t.notMatch(after, new RegExp(`haproxy -f ${dir}`), 'the router is gone');
  },
);
