/**
 * The journal's index in columns (src/journal/partner-index.ts) and entries held encoded until
 * their write (src/journal/pages.ts): the bounds drop the oldest as the columns are compacted and
 * grown, filters read the columns, a written range is marked, and an entry reads back the same
 * held as written.
 */
import Database from 'better-sqlite3';
import t from 'tap';
import { createJournal } from '../../src/journal/index.js';
import { decodeEntry, encodeEntry, type StoredEntry } from '../../src/journal/pages.js';
import { PartnerIndex } from '../../src/journal/partner-index.js';
import { migrate } from '../../src/store/db.js';
import { createStore } from '../../src/store/index.js';

const BASE_MS = Date.parse('2026-01-01T00:00:00.000Z');

function entry(id: number, over: Partial<StoredEntry> = {}): StoredEntry {
  return {
    id,
    at: new Date(BASE_MS + id * 1000).toISOString(),
    wallAt: '2026-11-26T00:00:00.000Z',
    method: id % 2 === 0 ? 'GET' : 'POST',
    path: `/v1/partner/merchants/${id % 3}`,
    status: id % 5 === 0 ? 400 : 200,
    code: id % 5 === 0 ? 'validation_failed' : null,
    field: null,
    durationMs: 0.25,
    requestId: `req-${id}`,
    traceId: null,
    contractVersion: null,
    size: 100,
    query: {},
    headers: {},
    resources: null,
    params: null,
    requestBody: null,
    requestBodyTruncated: false,
    responseBody: null,
    responseBodyTruncated: false,
    fault: null,
    ...over,
  };
}

t.test('the bounds keep the newest entries while the columns are compacted and grown', async (t) => {
  const index = new PartnerIndex({ maxEntries: 100, maxBytes: 1_000_000 });
  for (let id = 1; id <= 1_000; id++) index.addWritten(entry(id), id);
  t.equal(index.count, 100);
  t.equal(index.dropped, 900);
  t.equal(index.bytes, 100 * 100);
  t.equal(index.oldestKept(1_001), 901, 'the oldest kept is the 900th after the first');
  t.same(
    index.newerThan(995).map((ix) => ix.id),
    [1_000, 999, 998, 997, 996],
    'newest first',
  );
  t.equal(index.get(900), undefined, 'a dropped entry is gone');
  t.same(index.get(950), {
    id: 950,
    method: 'GET',
    path: '/v1/partner/merchants/2',
    status: 400,
    code: 'validation_failed',
    page: 950,
    held: undefined,
  });

  const bytes = new PartnerIndex({ maxEntries: 100, maxBytes: 250 });
  for (let id = 1; id <= 10; id++) bytes.addWritten(entry(id), 1);
  t.same([bytes.count, bytes.bytes, bytes.oldestKept(11)], [2, 200, 9], 'the byte bound drops too');
  t.equal(new PartnerIndex({ maxEntries: 5, maxBytes: 1_000 }).oldestKept(7), 7, 'an empty index: the next id');
});

t.test('filters read the columns; instants compare as instants', async (t) => {
  const index = new PartnerIndex({ maxEntries: 1_000, maxBytes: 1_000_000 });
  for (let id = 1; id <= 30; id++) index.addWritten(entry(id), 1);
  const ids = (f: Parameters<PartnerIndex['list']>[0], limit = 100) => index.list(f, limit).map((ix) => ix.id);
  t.same(ids({ code: 'validation_failed' }), [30, 25, 20, 15, 10, 5]);
  t.same(ids({ method: 'GET', status: 400 }), [30, 20, 10]);
  t.same(ids({ path: '/v1/partner/merchants/0', beforeId: 12 }), [9, 6, 3]);
  t.same(ids({ pathPrefix: '/v1/partner/merchants/1', afterId: 20 }), [28, 25, 22]);
  t.same(ids({ since: new Date(BASE_MS + 27_000).toISOString() }), [30, 29, 28, 27]);
  // the same instant written with an offset: a string comparison would have said otherwise
  t.same(ids({ since: '2026-01-01T01:00:27+01:00', until: '2026-01-01T00:00:28.000Z' }), [28, 27]);
  t.same(ids({}, 2), [30, 29], 'at most the limit');
});

t.test('a written range is marked with its page and no longer held', async (t) => {
  const index = new PartnerIndex({ maxEntries: 10, maxBytes: 1_000_000 });
  for (let id = 1; id <= 6; id++) index.addHeld(entry(id), BASE_MS + id * 1000, encodeEntry(entry(id)));
  index.written(2, 4);
  t.same(
    index.newerThan(0).map((ix) => [ix.id, ix.page, ix.held !== undefined]),
    [
      [6, 0, true],
      [5, 0, true],
      [4, 2, false],
      [3, 2, false],
      [2, 2, false],
      [1, 0, true],
    ],
  );
});

t.test('an entry held encoded reads back as it was, and as its page reads it', async (t) => {
  const e = entry(7, {
    query: { page: '2' },
    headers: { 'content-type': 'application/json', 'x-partner-client-secret': '[REDACTED]' },
    params: { merchantId: '7' },
    requestBody: { text: '{"note":"kr 🧾\\n","amount":1}', json: true },
    responseBody: { text: 'not JSON "quoted"', json: false },
    responseBodyTruncated: true,
    fault: { rule: 0, kind: 'error' },
  });
  const back = decodeEntry(encodeEntry(e));
  t.same(back, { ...e, requestBody: { value: { note: 'kr 🧾\n', amount: 1 } } }, 'a JSON body comes back parsed, the rest as it was');

  const db = new Database(':memory:');
  t.teardown(() => db.close());
  migrate(db);
  const journal = createJournal(createStore(db), { maxEntries: 10, maxBytes: 1_000_000, bodyLimit: 4096 });
  journal.record({
    partnerId: 'p',
    atMs: BASE_MS,
    method: 'POST',
    path: '/v1/partner/merchants/7/stores',
    query: {},
    params: { merchantId: '7' },
    headers: { 'content-type': 'application/json' },
    body: journal.requestBody('{"name":"Shop"}', true),
    status: 201,
    payload: '{"storeId":"s1"}',
    payloadIsJson: true,
    durationMs: 0.5,
    requestId: 'r1',
  });
  const held = journal.get('p', 1);
  journal.flush();
  const written = journal.get('p', 1);
  t.same(held, written, 'the same entry before and after its write');
  t.match(written, { at: '2026-01-01T00:00:00.000Z', requestBody: { name: 'Shop' }, responseBody: { storeId: 's1' } });
});
