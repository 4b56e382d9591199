/**
 * Resource faults (docs/reliability.md "When the database fails"): the disk fills up, the
 * directory becomes read-only, another process holds the lock, the file is damaged. While the
 * fault lasts writes answer 503 `storage_unavailable` in the error shape (with Retry-After),
 * reads go on, /healthz says 503; nothing acknowledged is lost; when the cause goes away the
 * server recovers by itself. At start, a fault is one configuration line and exit code 1.
 *
 * The full disk and the read-only directory at start are a small tmpfs mounted for the test
 * (root only: CI runs as root; elsewhere those two are skipped with the reason).
 */
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { build, json, PARTNER, schemaErrors } from '../helpers/app.js';
import { ROOT, runnable } from '../helpers/process.js';

const IS_ROOT = process.getuid?.() === 0;
const NEEDS_ROOT = IS_ROOT ? false : 'needs root to mount a tmpfs (CI runs as root)';

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-fault-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A tmpfs of `sizeKb` mounted on a new directory, unmounted at teardown. */
function tmpfs(t: Test, sizeKb: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-fault-fs-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mount failed: ${r.stderr}`);
  t.teardown(() => {
    spawnSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

function remount(dir: string, mode: 'ro' | 'rw'): void {
  const r = spawnSync('mount', ['-o', `remount,${mode}`, dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`remount ${mode} failed: ${r.stderr}`);
}

async function server(t: Test, db: string) {
  const app = await build(t, { config: { db } });
  const m = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: PARTNER,
    payload: { companyName: 'Faults ApS' },
  });
  if (m.statusCode !== 200) throw new Error(m.body);
  const merchant = json(m);
  const pay = (referenceNumber: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/partner/payments',
      headers: PARTNER,
      payload: { merchantClientId: merchant.clientId, amount: 5, referenceNumber },
    });
  const read = () => app.inject({ method: 'GET', url: `/v1/partner/merchants/${merchant.merchantId}/onboarding-status`, headers: PARTNER });
  const health = () => app.inject({ method: 'GET', url: '/healthz' });
  return { app, merchant, pay, read, health };
}

/** The answer is a 503 storage_unavailable in the documented error shape, saying `cause`. */
function isUnavailable(t: Test, res: { statusCode: number; body: string; headers: Record<string, unknown> }, cause: RegExp): void {
  t.equal(res.statusCode, 503, res.body);
  const body = json(res as never);
  t.same(schemaErrors('ErrorBody', body), [], 'the documented error shape');
  t.equal(body.code, 'storage_unavailable');
  t.match(body.message, cause);
  t.equal(res.headers['retry-after'], '1', 'Retry-After');
}

t.test(
  'the disk fills up: writes answer 503, reads go on, nothing acknowledged is lost, and it recovers',
  { skip: NEEDS_ROOT },
  async (t) => {
    const dir = tmpfs(t, 6 * 1024);
    const dbPath = join(dir, 'obsim.sqlite');
    const { app, pay, read, health } = await server(t, dbPath);
    const acknowledged: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await pay(`before-${i}`);
      t.equal(r.statusCode, 200);
      acknowledged.push(json(r).paymentId);
    }

    // fill the file system to the last byte
    const filler = join(dir, 'filler');
    const fd = openSync(filler, 'w');
    const chunk = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) writeSync(fd, chunk);
    } catch {
      /* ENOSPC: full */
    }
    try {
      for (;;) writeSync(fd, Buffer.alloc(512, 1));
    } catch {
      /* ENOSPC on the last partial page too */
    }
    closeSync(fd);

    // a write needs room in the WAL: within a few attempts one is refused
    let refused: Awaited<ReturnType<typeof pay>> | undefined;
    const refusedRefs: string[] = [];
    for (let i = 0; i < 50 && !refused; i++) {
      const r = await pay(`full-${i}`);
      if (r.statusCode === 200) acknowledged.push(json(r).paymentId);
      else {
        refused = r;
        refusedRefs.push(`full-${i}`);
      }
    }
    t.ok(refused, 'a write was refused once the disk was full');
    isUnavailable(t, refused!, /disk holding the database is full \(SQLITE_FULL\)/);
    t.equal((await read()).statusCode, 200, 'reads go on');
    isUnavailable(t, await health(), /full/);
    const again = await pay('full-again');
    t.equal(again.statusCode, 503, 'still full: still 503');
    refusedRefs.push('full-again');

    rmSync(filler);
    t.equal((await health()).statusCode, 200, 'healthy again once there is room (no restart)');
    const after = await pay('after');
    t.equal(after.statusCode, 200, 'writes work again');
    acknowledged.push(json(after).paymentId);

    for (const id of acknowledged) {
      const r = await app.inject({ method: 'GET', url: `/v1/partner/payments/${id}/status`, headers: PARTNER });
      t.equal(r.statusCode, 200, `payment ${id} acknowledged and there`);
    }
    await app.close();
    const db = new Database(dbPath, { readonly: true });
    t.teardown(() => db.close());
    const ids = new Set(db.prepare('SELECT id FROM payments').pluck().all());
    t.same(
      acknowledged.filter((id) => !ids.has(id)),
      [],
      `every acknowledged payment (${acknowledged.length}) is in the file after the server closed`,
    );
    const stray = db.prepare(`SELECT count(*) FROM payments WHERE reference_number IN (${refusedRefs.map(() => '?').join(',')})`).pluck();
    t.equal(stray.get(...refusedRefs), 0, 'no refused payment was stored');
  },
);

// A file system cannot be remounted read-only while obsim holds its files open for writing (the
// kernel answers EBUSY; only an emergency remount after a disk error does it). While running, the
// database turns read-only through SQLite itself (query_only: every write fails with
// SQLITE_READONLY, as on a read-only file); at start, the directory is a real read-only mount.
t.test('the database turns read-only while running: 503 while it lasts, recovers when writable again', async (t) => {
  const { app, pay, read, health } = await server(t, join(tempDir(t), 'obsim.sqlite'));
  t.equal((await pay('before')).statusCode, 200);
  app.db.pragma('query_only = ON');
  isUnavailable(t, await pay('while-ro'), /read-only \(SQLITE_READONLY\)/);
  t.equal((await read()).statusCode, 200, 'reads go on');
  isUnavailable(t, await health(), /read-only/);
  app.db.pragma('query_only = OFF');
  t.equal((await health()).statusCode, 200, 'healthy again without a restart');
  t.equal((await pay('after')).statusCode, 200, 'writes work again');
  t.equal(app.db.prepare("SELECT count(*) FROM payments WHERE reference_number = 'while-ro'").pluck().get(), 0);
});

t.test('at start: a database directory mounted read-only is one configuration line', { skip: NEEDS_ROOT }, async (t) => {
  const dir = tmpfs(t, 16 * 1024);
  const dbPath = join(dir, 'obsim.sqlite');
  const app = await build(t, { config: { db: dbPath } });
  await app.close();
  remount(dir, 'ro');
  t.teardown(() => remount(dir, 'rw'));
  isConfigLine(t, await serve(dbPath), /\(EROFS\)|read-only/);
});

t.test('another process holds the lock while running: 503 after a short wait, recovers when it lets go', async (t) => {
  const dbPath = join(tempDir(t), 'obsim.sqlite');
  const { pay, read, health, app } = await server(t, dbPath);
  t.equal((await pay('before')).statusCode, 200);
  const other = new Database(dbPath);
  t.teardown(() => other.close());
  other.exec('BEGIN IMMEDIATE');
  const started = performance.now();
  // two writes in one turn: the second fails at once instead of waiting the busy timeout again
  const [first, second] = await Promise.all([pay('locked-1'), pay('locked-2')]);
  const waited = performance.now() - started;
  isUnavailable(t, first, /another process holds a lock on the database file \(SQLITE_BUSY\)/);
  isUnavailable(t, second, /lock/);
  t.ok(waited < 2_000, `answered after ${Math.round(waited)} ms (busy timeout 250 ms, not 5 s)`);
  t.equal((await read()).statusCode, 200, 'reads go on');
  isUnavailable(t, await health(), /lock/);
  other.exec('ROLLBACK');
  t.equal((await health()).statusCode, 200, 'healthy again once the lock is released');
  t.equal((await pay('after')).statusCode, 200);
  t.equal(
    app.db.prepare("SELECT count(*) FROM payments WHERE reference_number IN ('locked-1', 'locked-2')").pluck().get(),
    0,
    'nothing of the refused writes was stored',
  );
});

/** `obsim serve` on `db`: its exit code and what it printed, within `timeoutMs`. */
function serve(db: string, timeoutMs = 20_000): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const { argv } = runnable(['node', 'dist/src/bin.js', 'serve', '--port', '0', '--db', db]);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: ROOT, env: { ...process.env, OBSIM_LOG_LEVEL: 'warn' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`obsim serve did not exit within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

/** Exit code 1 and one line on stderr naming the database setting and `cause`. */
function isConfigLine(t: Test, r: { code: number | null; stderr: string }, cause: RegExp): void {
  t.equal(r.code, 1, 'exit code 1 (configuration)');
  const lines = r.stderr.trim().split('\n');
  t.equal(lines.length, 1, `one line, no stack trace: ${r.stderr}`);
  // the path check of the configuration (--db) or the database's own answer (OBSIM_DB)
  t.match(lines[0], /^obsim: invalid configuration: (--db: cannot write|OBSIM_DB: cannot use) "/);
  t.match(lines[0], cause);
}

t.test('at start: a file that is not a database, or a truncated one, is one configuration line', async (t) => {
  const dir = tempDir(t);
  const garbage = join(dir, 'garbage.sqlite');
  writeFileSync(garbage, Buffer.alloc(100_000, 0x5a));
  isConfigLine(t, await serve(garbage), /damaged or is not an SQLite database \(SQLITE_NOTADB\); move the file aside/);

  const truncated = join(dir, 'truncated.sqlite');
  const app = await build(t, { config: { db: truncated } });
  await app.close();
  truncateSync(truncated, 20_480);
  rmSync(`${truncated}-wal`, { force: true });
  isConfigLine(t, await serve(truncated), /damaged or is not an SQLite database \(SQLITE_CORRUPT/);
});

t.test('at start: a database another process holds locked is one configuration line', async (t) => {
  const dbPath = join(tempDir(t), 'locked.sqlite');
  const app = await build(t, { config: { db: dbPath } });
  await app.close();
  const other = new Database(dbPath);
  t.teardown(() => other.close());
  // not in WAL mode and exclusive: even reading is locked out
  other.pragma('journal_mode = DELETE');
  other.pragma('locking_mode = EXCLUSIVE');
  other.exec('BEGIN EXCLUSIVE');
  isConfigLine(t, await serve(dbPath), /another process holds a lock on the database file \(SQLITE_BUSY\); stop the other process/);
  other.exec('COMMIT');
});
