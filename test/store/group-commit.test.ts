/**
 * Group commit (src/store/index.ts): the writes of one turn of the event loop share one COMMIT,
 * each call keeps its own all-or-nothing savepoint, and no answer leaves before its change is
 * durable. Checked from a second connection on a file database, the way a crash would see it.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openDatabase } from '../../src/store/db.js';
import { createStore } from '../../src/store/index.js';
import { build, json, PARTNER, schemaErrors } from '../helpers/app.js';
import { storedJournal } from '../helpers/partner.js';

function fileDb(t: { teardown(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-group-'));
  const path = join(dir, 'obsim.sqlite');
  const db = openDatabase(path);
  t.teardown(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, path };
}

t.test('concurrent writes share COMMITs, and every answer is already durable when it arrives', async (t) => {
  const { db, path } = fileDb(t);
  // every COMMIT the store runs, prepared (its group commit) or not
  let commits = 0;
  const exec = db.exec.bind(db);
  (db as unknown as { exec: (sql: string) => unknown }).exec = (sql: string) => {
    if (sql === 'COMMIT') commits++;
    return exec(sql);
  };
  const prepare = db.prepare.bind(db);
  (db as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
    const statement = prepare(sql);
    if (sql !== 'COMMIT') return statement;
    const run = statement.run.bind(statement);
    return Object.assign(statement, {
      run: (...args: unknown[]) => {
        commits++;
        return run(...args);
      },
    });
  };
  const app = await build(t, { db });
  const reader = new Database(path, { readonly: true });
  t.teardown(() => reader.close());
  const committedPayment = reader.prepare('SELECT count(*) FROM payments WHERE id = ?').pluck();

  const m = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Group ApS' } }),
  );
  commits = 0;
  const n = 40;
  const durableOnArrival: boolean[] = [];
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      app
        .inject({
          method: 'POST',
          url: '/v1/partner/payments',
          headers: PARTNER,
          payload: { merchantClientId: m.clientId, amount: 10 + i, referenceNumber: `g${i}` },
        })
        .then((res) => {
          t.equal(res.statusCode, 200);
          // checked the moment the answer arrives, from another connection
          durableOnArrival.push(committedPayment.get(json(res).paymentId) === 1);
        }),
    ),
  );
  t.equal(durableOnArrival.length, n);
  t.ok(durableOnArrival.every(Boolean), 'every acknowledged payment was committed before its answer');
  t.ok(commits >= 1 && commits < n, `${n} writes, ${commits} COMMIT(s)`);
  t.equal(reader.prepare("SELECT count(*) FROM payments WHERE reference_number LIKE 'g%'").pluck().get(), n);
});

t.test('one call failing in a turn rolls back only its own work', async (t) => {
  const app = await build(t);
  const { store, db } = app;
  db.exec('CREATE TABLE scratch (v TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO scratch VALUES (?)');
  // three calls in the same turn: one group transaction
  store.tx(() => insert.run('first'));
  t.throws(() =>
    store.tx(() => {
      insert.run('doomed');
      throw new Error('the handler failed after writing');
    }),
  );
  store.tx(() => insert.run('third'));
  t.ok(store.groupOpen, 'still one open group');
  await store.committed();
  t.notOk(store.groupOpen);
  t.same(db.prepare('SELECT v FROM scratch ORDER BY rowid').pluck().all(), ['first', 'third']);
});

t.test('a call nested in another, and a timer savepoint, roll back only their own work', async (t) => {
  const app = await build(t);
  const { store, db } = app;
  db.exec('CREATE TABLE scratch (v TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO scratch VALUES (?)');
  const values = () => db.prepare('SELECT v FROM scratch ORDER BY rowid').pluck().all();
  store.tx(() => {
    insert.run('outer');
    t.throws(() =>
      store.tx(() => {
        insert.run('inner, doomed');
        throw new Error('inner failed');
      }),
    );
    store.tx(() => insert.run('inner, kept'));
    // the timer runtime's unit: one savepoint per timer inside the batch's transaction
    const fire = store.savepoint((v: string, fail: boolean) => {
      insert.run(v);
      if (fail) throw new Error('timer failed');
      return v;
    });
    t.equal(fire('timer, kept', false), 'timer, kept');
    t.throws(() => fire('timer, doomed', true));
  });
  await store.committed();
  t.same(values(), ['outer', 'inner, kept', 'timer, kept']);
  // outside any transaction a savepoint is its own transaction
  const alone = store.savepoint((v: string) => insert.run(v));
  alone('alone');
  t.notOk(db.inTransaction);
  t.same(values(), ['outer', 'inner, kept', 'timer, kept', 'alone']);
});

t.test('a COMMIT that fails answers 500 in ErrorBody and leaves nothing behind', async (t) => {
  const { db, path } = fileDb(t);
  const app = await build(t, { db });
  const m = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Doomed ApS' } }),
  );
  // a deferred foreign key is only checked at COMMIT: every payment insert now poisons its group
  db.exec(`
    CREATE TABLE audit (merchant_id INTEGER REFERENCES merchants (id) DEFERRABLE INITIALLY DEFERRED);
    CREATE TRIGGER poison AFTER INSERT ON payments BEGIN INSERT INTO audit VALUES (-1); END;
  `);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/partner/payments',
    headers: PARTNER,
    payload: { merchantClientId: m.clientId, amount: 5, referenceNumber: 'lost' },
  });
  t.equal(res.statusCode, 500);
  t.same(schemaErrors('ErrorBody', json(res)), []);
  t.match(json(res), { code: 'internal_error', message: /could not be stored/ });
  t.notMatch(res.body, /FOREIGN KEY|SQLITE/i, 'no database internals in the answer');
  // the journal records the 500 after the failed group, in a group of its own
  app.journal!.flush();
  app.store.flush();
  t.notOk(db.inTransaction, 'the group was rolled back');
  t.equal(storedJournal(app).find((e) => e.path === '/v1/partner/payments')?.status, 500, 'the 500 is in the journal');
  const reader = new Database(path, { readonly: true });
  t.teardown(() => reader.close());
  t.equal(reader.prepare("SELECT count(*) FROM payments WHERE reference_number = 'lost'").pluck().get(), 0, 'nothing stored');
  t.equal(app.engine.timersOf('payment', 5000001).length, 0, 'no timer either');

  db.exec('DROP TRIGGER poison');
  const again = await app.inject({
    method: 'POST',
    url: '/v1/partner/payments',
    headers: PARTNER,
    payload: { merchantClientId: m.clientId, amount: 5, referenceNumber: 'kept' },
  });
  t.equal(again.statusCode, 200, 'the next turn commits normally');
  t.equal(reader.prepare("SELECT count(*) FROM payments WHERE reference_number = 'kept'").pluck().get(), 1);
});

t.test('close commits what the last turn wrote', async (t) => {
  const { db, path } = fileDb(t);
  const app = await build(t, { db });
  app.store.tx(() => app.meta.set('group.test', 'written just before close'));
  t.ok(app.store.groupOpen);
  await app.close();
  const reader = new Database(path, { readonly: true });
  t.teardown(() => reader.close());
  t.equal(reader.prepare("SELECT value FROM meta WHERE key = 'group.test'").pluck().get(), 'written just before close');
});

t.test('a savepoint that deletes rows writes nothing to disk before its COMMIT', (t) => {
  // what each tx() keeps to roll back to (the prior content of the pages it changes) stays in
  // memory: the journal's trim deletes its oldest entries in a savepoint of the group
  const { db } = fileDb(t);
  const store = createStore(db);
  db.exec('CREATE TABLE entries (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO entries (body) VALUES (?)');
  store.tx(() => {
    for (let i = 0; i < 2000; i++) insert.run('x'.repeat(1300)); // three to a page, like journal entries
  });
  store.flush();
  store.tx(() => insert.run('the first write of the group')); // the savepoint below is not the group's first
  // this thread's bytes written (not the process's: tap writes from elsewhere)
  const written = () => Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/thread-self/io', 'utf8'))![1]);
  const before = written();
  const deleted = store.tx(() => db.prepare('DELETE FROM entries WHERE id <= 200').run().changes);
  const during = written() - before;
  t.equal(deleted, 200);
  t.ok(store.groupOpen, 'not committed yet');
  t.ok(during < 16 * 1024, `deleting the 200 oldest rows wrote ${during} bytes before the COMMIT (to a temporary file: ~150 KB)`);
  store.flush();
  t.equal(db.prepare('SELECT count(*) FROM entries').pluck().get(), 1801);
  t.end();
});
