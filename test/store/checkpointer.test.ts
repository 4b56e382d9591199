/**
 * WAL checkpoints from a worker thread (src/store/checkpointer.ts): the serving connection never
 * checkpoints on COMMIT, the worker's checkpoints keep the WAL file bounded, nothing written is
 * lost, and a worker that cannot start hands checkpoints back to the connection.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { AUTOCHECKPOINT_PAGES, startCheckpointer } from '../../src/store/checkpointer.js';
import { openDatabase } from '../../src/store/db.js';
import { build, json, PARTNER } from '../helpers/app.js';

function fileDb(t: { teardown(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-ckpt-'));
  const path = join(dir, 'obsim.sqlite');
  const db = openDatabase(path);
  db.exec('CREATE TABLE blob (id INTEGER PRIMARY KEY, data BLOB NOT NULL)');
  t.teardown(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, path };
}

const walSize = (path: string) => statSync(`${path}-wal`).size;
const autocheckpoint = (db: Database.Database) => Number(db.pragma('wal_autocheckpoint', { simple: true }));

t.test('the worker checkpoints; the WAL stays bounded and every row is there', async (t) => {
  const { db, path } = fileDb(t);
  // a long interval: only the explicit checkpoints below run
  const checkpointer = startCheckpointer(db, { intervalMs: 60_000 })!;
  t.teardown(() => checkpointer.close());
  t.equal(autocheckpoint(db), 0, 'the serving connection never checkpoints on COMMIT');

  const insert = db.prepare('INSERT INTO blob (data) VALUES (?)');
  const chunk = Buffer.alloc(256 * 1024, 7);
  for (let i = 0; i < 4; i++) insert.run(chunk);
  const grown = walSize(path);
  t.ok(grown > 1024 * 1024, `without checkpoints the WAL grows (${grown} bytes)`);

  let largest = 0;
  for (let round = 0; round < 20; round++) {
    await checkpointer.checkpoint();
    for (let i = 0; i < 4; i++) insert.run(chunk);
    largest = Math.max(largest, walSize(path));
  }
  t.equal(checkpointer.completed, 20, 'every checkpoint ran in the worker');
  // 20 rounds of 1 MB each: without checkpoints the WAL would hold about 21 MB
  t.ok(largest < 3 * 1024 * 1024, `the WAL restarts after each checkpoint (largest ${largest} bytes)`);

  const other = new Database(path, { readonly: true });
  t.teardown(() => other.close());
  t.equal(other.prepare('SELECT count(*) FROM blob').pluck().get(), 84, 'a second connection sees every row');
});

t.test('the WAL size is looked at on an interval: past the threshold, a checkpoint runs by itself', async (t) => {
  const { db } = fileDb(t);
  const checkpointer = startCheckpointer(db, { thresholdBytes: 64 * 1024, intervalMs: 5 })!;
  t.teardown(() => checkpointer.close());
  db.prepare('INSERT INTO blob (data) VALUES (?)').run(Buffer.alloc(512 * 1024, 1));
  // a real worker thread on a real-time interval: wait for it (bounded), nothing to advance
  for (let i = 0; i < 400 && checkpointer.completed === 0; i++) await new Promise((r) => setTimeout(r, 5));
  t.ok(checkpointer.completed >= 1, 'a checkpoint ran without being asked');
});

t.test('a worker that cannot start: the connection checkpoints on COMMIT again, and says so', async (t) => {
  const { db } = fileDb(t);
  const warnings: string[] = [];
  const checkpointer = startCheckpointer(db, {
    intervalMs: 60_000,
    driver: join(tmpdir(), 'no-such-driver.js'),
    log: { warn: (_obj, msg) => warnings.push(String(msg)) },
  })!;
  t.teardown(() => checkpointer.close());
  await checkpointer.checkpoint();
  t.equal(autocheckpoint(db), AUTOCHECKPOINT_PAGES, 'automatic checkpoints are back');
  t.match(warnings, [/checkpoint worker failed/]);
  await checkpointer.checkpoint(); // resolves at once: no worker any more
  t.equal(checkpointer.completed, 0);
});

t.test('a database in memory has no WAL and gets no worker', async (t) => {
  const db = openDatabase(':memory:');
  t.teardown(() => db.close());
  t.equal(startCheckpointer(db), undefined);
});

t.test('a server on a file database: no checkpoint on COMMIT, and it closes with the worker', async (t) => {
  const { db } = fileDb(t);
  const app = await build(t, { db });
  t.equal(autocheckpoint(db), 0);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: PARTNER,
    payload: { companyName: 'Wal ApS' },
  });
  t.equal(res.statusCode, 200, JSON.stringify(json(res)));
  await app.close();
  t.pass('closed without waiting on the worker');
});

t.test('close() lets the worker close its own connection: the serving connection closes last and the WAL goes', async (t) => {
  const { db, path } = fileDb(t);
  const checkpointer = startCheckpointer(db, { intervalMs: 60_000 })!;
  db.prepare('INSERT INTO blob (data) VALUES (?)').run(Buffer.alloc(4096));
  await checkpointer.checkpoint();
  t.equal(checkpointer.completed, 1, 'the worker ran (and holds a connection)');
  await checkpointer.close();
  db.close();
  t.notOk(existsSync(`${path}-wal`), 'no WAL file left: every connection was closed');
  const reopened = new Database(path, { readonly: true });
  t.equal((reopened.prepare('SELECT count(*) AS n FROM blob').get() as { n: number }).n, 1, 'the row is in the database file');
  reopened.close();
});
