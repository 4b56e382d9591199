/**
 * How the journal keeps its entries (docs/journal.md "How long"): within its bounds, bodies cut
 * past the body limit, written in batches while every read already sees them.
 */
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { build, PARTNER } from '../../helpers/app.js';
import { call, storedJournal, testMerchant } from '../../helpers/partner.js';

async function journal(app: FastifyInstance, query = '', headers = PARTNER) {
  const r = await call(app, 'GET', `/_sandbox/requests${query}`, undefined, headers);
  if (r.status !== 200) throw new Error(`journal ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { items: any[]; nextCursor?: string };
}

t.test('bounds: at most N entries and M bytes, oldest dropped first; large bodies stored cut, never refused', async (t) => {
  const app = await build(t, { config: { journalMaxEntries: 5, journalBodyLimit: 256 } });
  for (let i = 0; i < 8; i++) await call(app, 'GET', `/v1/partner/merchants?page=${i + 1}`);
  const items = (await journal(app)).items;
  t.same(
    items.map((e) => e.query.page),
    [8, 7, 6, 5, 4],
    'the newest five',
  );
  t.same(app.journal!.stats('sandbox-partner').count, 5, 'the journal keeps five');
  const kept = new Set(items.map((e) => e.id));
  const stored = storedJournal(app);
  t.equal(stored.filter((e) => kept.has(e.id)).length, 5, 'the five are in the database');
  const pages = app.db.prepare('SELECT last_id FROM journal_pages').pluck().all() as number[];
  t.ok(
    pages.every((last) => last >= Math.min(...kept)),
    'no page holding only dropped entries is left',
  );

  const big = await call(app, 'POST', '/v1/partner/merchants/test', { companyName: 'Big', note: 'x'.repeat(5000) });
  t.equal(big.status, 200, 'a large body is answered as always');
  const [e] = (await journal(app, '?limit=1')).items;
  t.equal(e.requestBodyTruncated, true);
  t.type(e.requestBody, 'string');
  t.ok(Buffer.byteLength(e.requestBody) <= 256);

  const small = await build(t, { config: { journalMaxBytes: 64 * 1024, journalBodyLimit: 16 * 1024 } });
  for (let i = 0; i < 12; i++) await call(small, 'POST', '/v1/partner/merchants/test', { companyName: `C${i}`, note: 'y'.repeat(12_000) });
  const bytes = small.journal!.stats('sandbox-partner');
  t.ok(bytes.bytes <= 64 * 1024, `within 64 KiB (${bytes.bytes} bytes in ${bytes.count} entries)`);
  t.ok(bytes.count >= 3 && bytes.count < 12, 'the oldest were dropped');
  const smallItems = (await journal(small)).items;
  t.equal(smallItems.length, bytes.count, 'a list shows what is kept');
  t.match(smallItems[0].requestBody, { companyName: 'C11' }, 'the newest is kept');
  const storedBytes = small.db.prepare('SELECT coalesce(sum(bytes), 0) FROM journal_pages').pluck().get() as number;
  t.ok(storedBytes <= 64 * 1024 + 2 * 16 * 1024, `the database holds little more than the bound (${storedBytes} bytes of pages)`);
});

t.test('entries written in batches: concurrent requests all recorded, in order; a read sees those not written yet', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const url = `/v1/partner/merchants/${m.merchantId}/onboarding-status`;
  await Promise.all(Array.from({ length: 300 }, (_, i) => app.inject({ method: 'GET', url: `${url}?n=${i}`, headers: PARTNER })));
  const writtenBefore = app.db.prepare('SELECT coalesce(sum(entries), 0) FROM journal_pages').pluck().get() as number;
  t.ok(writtenBefore < 301, `not all written yet when the answers are out (${writtenBefore} of 301)`);
  const counted = await call(app, 'POST', '/_sandbox/requests/count', { request: { method: 'GET', path: url } });
  t.same(counted.body, { count: 300 }, 'the count sees every one of them');
  const listed = (await journal(app, `?path=${encodeURIComponent(url)}&limit=500`)).items;
  t.same(
    listed.map((e) => Number(e.query.n)).sort((a, b) => a - b),
    Array.from({ length: 300 }, (_, i) => i),
    'a list shows every one of them',
  );
  t.ok(
    listed.every((e, i) => i === 0 || e.id < listed[i - 1].id),
    'newest first',
  );
  const ids = storedJournal(app).map((e) => e.id);
  t.equal(ids.length, 301, 'all written, with the test merchant');
  await new Promise((r) => setTimeout(r, 50));
  const again = storedJournal(app).map((e) => e.id);
  t.equal(again.length, 301, 'nothing written twice by the timed chunks');
  t.equal(new Set(again).size, 301, 'each id once');
});

t.test('a JSON body that starts with a byte order mark is kept, and the page it is written in reads back whole', async (t) => {
  const app = await build(t);
  await call(app, 'GET', '/v1/partner/merchants?page=1');
  const res = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: { ...PARTNER, 'content-type': 'application/json' },
    payload: '\uFEFF{"companyName":"Marked ApS"}',
  });
  t.equal(res.statusCode, 200, 'Fastify reads past the mark');
  await call(app, 'GET', '/v1/partner/merchants?page=2');
  app.journal!.flush();
  const stored = storedJournal(app);
  t.same(
    stored.map((e) => e.path),
    ['/v1/partner/merchants', '/v1/partner/merchants/test', '/v1/partner/merchants'],
    'every entry of the page reads back (a mark written into the page made the whole page unreadable)',
  );
  const marked = stored[1];
  t.same(marked.requestBody, { value: { companyName: 'Marked ApS' } }, 'the body as sent, without the mark');
});
