/**
 * Graceful shutdown of the real process (what `docker stop` does): on SIGTERM the listener
 * closes, a request already in flight still completes and its write is kept, idle keep-alive
 * connections do not hold the exit up, the SQLite database closes cleanly (WAL checkpointed and
 * removed) and the process exits 0.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { PARTNER } from '../helpers/app.js';
import { startCmd } from '../helpers/process.js';
import { scaled } from '../helpers/speed.js';

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

const CMD = ['node', 'dist/src/bin.js', 'serve'];

t.test('SIGTERM: the in-flight request finishes, the database closes cleanly, exit 0', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-sigterm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'obsim.sqlite');
  const server = await startCmd(CMD, { HOST: '127.0.0.1', PORT: '0', OBSIM_DB: db, OBSIM_LOG_LEVEL: 'info' });
  t.teardown(() => void server.child.kill('SIGKILL'));
  t.ok(existsSync(`${db}-wal`), 'WAL journal in use while running');

  // an idle keep-alive connection (must not hold the shutdown up)
  const health = await fetch(`${server.url}/healthz`);
  t.equal(health.status, 200);
  await health.arrayBuffer();

  // a request in flight: headers and half of the body sent before SIGTERM
  const body = JSON.stringify({ companyName: 'Shutdown ApS', contactEmail: 'ops@shutdown.test' });
  const half = Math.floor(body.length / 2);
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      `${server.url}/v1/partner/merchants`,
      { method: 'POST', headers: { ...PARTNER, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, half));
    // the rest goes out after the server started shutting down
    void server.waitFor('shutting down').then(() => req.end(body.slice(half)), reject);
  });
  // let the server route the request (headers received) before the signal
  await new Promise((r) => setTimeout(r, 300));
  const t0 = Date.now();
  server.child.kill('SIGTERM');

  const res = await response;
  t.equal(res.status, 200, 'the in-flight request completed after SIGTERM');
  const merchant = JSON.parse(res.body) as { merchantId: number; companyName: string };
  t.equal(merchant.companyName, 'Shutdown ApS');

  const exit = await server.exited;
  t.same(exit, { code: 0, signal: null }, 'exit code 0');
  t.ok(Date.now() - t0 < 5_000, 'stopped well within docker stop’s default 10 s grace period');
  t.match(server.stdout(), /shutting down/);
  t.equal(server.stderr().trim(), '', 'nothing on stderr');

  t.notOk(existsSync(`${db}-wal`), 'database closed cleanly: WAL checkpointed and removed');
  const check = new Database(db, { readonly: true });
  t.teardown(() => check.close());
  t.equal(check.pragma('integrity_check', { simple: true }), 'ok');
  const row = check.prepare('SELECT company_name FROM merchants WHERE id = ?').get(merchant.merchantId) as
    { company_name: string } | undefined;
  t.equal(row?.company_name, 'Shutdown ApS', 'the acknowledged write is in the database');
});

t.test('a new connection after SIGTERM is refused while the in-flight one drains', async (t) => {
  const server = await startCmd(CMD, { HOST: '127.0.0.1', PORT: '0', OBSIM_DB: ':memory:', OBSIM_LOG_LEVEL: 'info' });
  t.teardown(() => void server.child.kill('SIGKILL'));
  server.child.kill('SIGTERM');
  await server.waitFor('shutting down');
  const exit = await server.exited;
  t.equal(exit.code, 0);
  await t.rejects(fetch(`${server.url}/healthz`), 'nothing listens any more');
});
