/**
 * The journal in pages (099_journal_pages, src/store/journal.ts, src/journal/index.ts): a
 * database with the old one-row-per-entry journal keeps every entry and its id sequence; a
 * journal written in pages is found again whole after a restart, within its bounds.
 */
import Database from 'better-sqlite3';
import t from 'tap';
import { createJournal } from '../../src/journal/index.js';
import { migrate } from '../../src/store/db.js';
import { createStore } from '../../src/store/index.js';
import { databaseBefore } from '../helpers/migrations.js';

const limits = { maxEntries: 5, maxBytes: 1_000_000, bodyLimit: 4096 };

t.test('099 turns each old journal row into a page of one entry; ids continue above the old ones', async (t) => {
  const db = databaseBefore('099_journal_pages');
  t.teardown(() => db.close());
  const old = db.prepare(
    `INSERT INTO journal (partner_id, at, wall_at, method, path, status, error_code, error_field, duration_ms, request_id, size,
       query, headers, resources, request_body, request_body_truncated, response_body, response_body_truncated)
     VALUES (?, '2026-01-01T00:00:00.000Z', '2026-11-26T00:00:00.000Z', ?, ?, ?, ?, ?, 1.5, 'req-1', 500, ?, ?, ?, ?, ?, ?, 0)`,
  );
  old.run(
    'p',
    'POST',
    '/v1/partner/payments',
    201,
    null,
    null,
    '{}',
    '{"x-partner-client-id":"p"}',
    '{"paymentId":5000001}',
    '{"amount":1,"note":"kr 🧾"}',
    0,
    '{"paymentId":5000001}',
  );
  old.run(
    'p',
    'GET',
    '/v1/partner/merchants',
    400,
    'validation_failed',
    'page',
    '{"page":"x"}',
    '{}',
    '{}',
    null,
    0,
    '{"code":"validation_failed"}',
  );
  old.run('q', 'GET', '/v1/partner/merchants', 200, null, null, '{}', '{}', '{}', 'cut', 1, '[]');
  db.prepare('DELETE FROM journal WHERE partner_id = ?').run('q'); // the sequence remembers 3

  migrate(db);
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  t.notOk(tables.includes('journal'), 'the old table is gone');

  const store = createStore(db);
  const journal = createJournal(store, limits);
  const items = journal.list('p', {}, 10);
  t.same(
    items.map((e) => [e.id, e.method, e.status, e.code ?? null]),
    [
      [2, 'GET', 400, 'validation_failed'],
      [1, 'POST', 201, null],
    ],
    'both entries of p, newest first',
  );
  t.same(items[1].requestBody, { amount: 1, note: 'kr 🧾' }, 'bodies as they were (astral characters too)');
  t.same(items[1].resources, { paymentId: 5000001 }, 'the resources recorded then');
  t.same(items[0].query, { page: 'x' });
  t.equal(items[0].field, 'page');
  t.same(journal.list('q', {}, 10), [], 'a deleted entry stays deleted');

  journal.record({
    partnerId: 'p',
    atMs: Date.parse('2026-01-01T00:00:01.000Z'),
    method: 'GET',
    path: '/v1/partner/merchants',
    query: {},
    params: {},
    headers: {},
    body: journal.requestBody(undefined),
    status: 200,
    payload: '{"items":[]}',
    payloadIsJson: true,
    durationMs: 1,
    requestId: 'req-4',
  });
  t.equal(journal.list('p', {}, 1)[0].id, 4, 'a new entry takes the next id the old sequence had not handed out');
});

t.test('a journal written in pages is read back whole after a restart, within its bounds', async (t) => {
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  migrate(db);
  const store = createStore(db);
  const first = createJournal(store, limits);
  const record = (n: number, partnerId = 'p') =>
    first.record({
      partnerId,
      atMs: Date.parse(`2026-01-01T00:00:${String(n).padStart(2, '0')}.000Z`),
      method: 'POST',
      path: '/v1/partner/merchants/7/stores',
      query: {},
      params: { merchantId: '7' },
      headers: { 'x-partner-client-secret': 'never', 'content-type': 'application/json' },
      body: first.requestBody(`{"n":${n},"secret":"s3cret"}`, true),
      status: 201,
      payload: `{"storeId":"s${n}"}`,
      payloadIsJson: true,
      durationMs: 0.5,
      requestId: `r${n}`,
    });
  for (let n = 1; n <= 4; n++) record(n);
  first.flush(); // one page
  for (let n = 5; n <= 8; n++) record(n);
  record(9, 'other');
  first.flush(); // another page per partner; the bounds (5) drop 1-3

  t.same(
    db.prepare("SELECT first_id, last_id, entries FROM journal_pages WHERE partner_id = 'p' ORDER BY first_id").all(),
    [
      { first_id: 1, last_id: 4, entries: 4 },
      { first_id: 5, last_id: 8, entries: 4 },
    ],
    'a page per write and partner; the first page is kept while one of its entries is',
  );
  t.notMatch(JSON.stringify(db.prepare('SELECT data FROM journal_pages').pluck().all()), /s3cret|never/, 'no credential is stored');

  const second = createJournal(store, limits);
  const items = second.list('p', {}, 10);
  t.same(
    items.map((e) => e.id),
    [8, 7, 6, 5, 4],
    'after a restart: the newest five, nothing of the other partner',
  );
  t.same(items[0].requestBody, { n: 8, secret: '[redacted]' }, 'the body as sent, redacted');
  t.same(items[0].resources, { merchantId: 7 }, "a write's resources, worked out from its path and answer");
  t.same(second.stats('p'), first.stats('p'), 'counted alike');
  t.same(
    second.list('p', { since: '2026-01-01T00:00:06.000Z', until: '2026-01-01T00:00:07.000Z' }, 10).map((e) => e.id),
    [7, 6],
  );
  t.same(
    second.list('p', { beforeId: 7 }, 2).map((e) => e.id),
    [6, 5],
    'a cursor',
  );
  t.equal(second.get('p', 4)?.requestId, 'r4', 'one entry, read from its page');
  t.equal(second.get('p', 3), undefined, 'a dropped entry is gone');
  t.equal(second.get('other', 4), undefined, "another partner's entry is not found");
  t.equal(second.count('p', { body: { n: 8 } }), 1, 'a body matcher reads the entries whole');
  t.equal(second.count('p', { method: 'POST', status: '2xx' }), 5, 'an index-only matcher');

  t.equal(second.clear('p'), 5);
  t.equal(db.prepare("SELECT count(*) FROM journal_pages WHERE partner_id = 'p'").pluck().get(), 0, 'cleared pages are deleted');
  t.equal(db.prepare("SELECT count(*) FROM journal_pages WHERE partner_id = 'other'").pluck().get(), 1, 'not those of others');
});

t.test('a page that does not read back loses its own entries: lists and verifications still answer', async (t) => {
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  migrate(db);
  const store = createStore(db);
  const errors: unknown[] = [];
  const first = createJournal(store, { ...limits, maxEntries: 100 });
  const record = (n: number) =>
    first.record({
      partnerId: 'p',
      atMs: Date.parse('2026-01-01T00:00:00.000Z'),
      method: 'POST',
      path: '/v1/partner/payments',
      query: {},
      params: {},
      headers: {},
      body: first.requestBody(`{"n":${n}}`, true),
      status: 201,
      payload: '{}',
      payloadIsJson: true,
      durationMs: 1,
      requestId: `r${n}`,
    });
  record(1);
  first.flush();
  record(2);
  first.flush();
  db.prepare("UPDATE journal_pages SET data = '[[1,' WHERE first_id = 1").run();

  const second = createJournal(store, { ...limits, maxEntries: 100 }, (err) => errors.push(err));
  t.same(
    second.list('p', {}, 10).map((e) => e.requestId),
    ['r2'],
    'the other page is read',
  );
  t.equal(second.count('p', { body: { n: 2 } }), 1, 'a verification reads what does read back');
  t.ok(errors.length >= 1, 'the damaged page is reported');
});
