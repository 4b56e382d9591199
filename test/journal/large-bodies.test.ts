/**
 * Large answers in the journal (docs/journal.md): a page of 100 transactions (about 34 KB) is
 * kept as it was sent when the body limit allows it, and read back byte for byte through
 * GET /_sandbox/requests/{id}, through a verify that matches it, and after a restart of the
 * database file; at the default limit it is cut to the limit and flagged. The entry's shape is
 * kept in a tap snapshot (ids, times and generated values normalised).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { json, schemaErrors } from '../helpers/app.js';
import { aisApp, normalise, type AisContext } from '../helpers/ais.js';
import { call } from '../helpers/partner.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(120_000));

async function pageOf100(ctx: AisContext) {
  await ctx.authorizedConsent('user-typical');
  const accounts = json(
    await ctx.app.inject({
      method: 'POST',
      url: '/v1/ais/accounts',
      payload: { userId: 'user-typical', merchantId: ctx.merchantId },
      headers: await ctx.bearer('user-typical'),
    }),
  ).accounts;
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/ais/accounts/transactions',
    payload: { userId: 'user-typical', merchantId: ctx.merchantId, accountId: accounts[0].accountId, pageLimit: 100 },
    headers: await ctx.bearer('user-typical'),
  });
  return res;
}

t.test('a 100-transaction page is read back byte for byte: the entry, verify, and after a restart', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-large-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'obsim.sqlite');
  const ctx = await aisApp(t, { db, journalBodyLimit: 64 * 1024 });
  const answer = await pageOf100(ctx);
  t.equal(answer.statusCode, 200);
  t.equal(json(answer).transactions.length, 100);
  t.ok(answer.body.length > 30_000, `${answer.body.length} bytes`);

  const listed = (await call(ctx.app, 'GET', '/_sandbox/requests?path=/v1/ais/accounts/transactions')).body.items[0];
  const entry = (await call(ctx.app, 'GET', `/_sandbox/requests/${listed.id}`)).body;
  t.same(schemaErrors('JournalEntry', entry), []);
  t.notOk(entry.responseBodyTruncated, 'kept whole');
  t.equal(JSON.stringify(entry.responseBody), answer.body, 'byte for byte through GET /_sandbox/requests/{id}');

  const verify = await call(ctx.app, 'POST', '/_sandbox/requests/verify', {
    request: { method: 'POST', path: '/v1/ais/accounts/transactions', body: { pageLimit: 100 } },
    count: 0,
  });
  t.equal(verify.body.actual, 1);
  t.equal(JSON.stringify(verify.body.matched[0].responseBody), answer.body, 'byte for byte in what verify matched');
  // the times and trace of this run aside
  const { durationMs, wallAt, traceId, ...kept } = entry;
  t.ok(typeof durationMs === 'number' && durationMs > 0, `the answer took ${durationMs} ms`);
  t.ok(!Number.isNaN(Date.parse(wallAt)), 'a wall-clock instant');
  t.match(traceId, /^[0-9a-f]{32}$/, 'the trace id of the request');
  t.matchSnapshot(
    normalise({ ...kept, responseBody: { ...kept.responseBody, transactions: kept.responseBody.transactions.slice(0, 2) } }),
    'the entry (two of its transactions)',
  );

  // a restart reads the same bytes back from the database file
  await ctx.app.close();
  const again = await aisApp(t, { db, journalBodyLimit: 64 * 1024 });
  const reread = (await call(again.app, 'GET', `/_sandbox/requests/${listed.id}`)).body;
  t.equal(JSON.stringify(reread.responseBody), answer.body, 'byte for byte after a restart');
});

t.test('at the default body limit (4 KB) the page is kept cut to the limit and flagged', async (t) => {
  const ctx = await aisApp(t);
  const answer = await pageOf100(ctx);
  const listed = (await call(ctx.app, 'GET', '/_sandbox/requests?path=/v1/ais/accounts/transactions')).body.items[0];
  const entry = (await call(ctx.app, 'GET', `/_sandbox/requests/${listed.id}`)).body;
  t.equal(entry.responseBodyTruncated, true);
  t.equal(typeof entry.responseBody, 'string');
  t.equal(entry.responseBody, answer.body.slice(0, 4096), 'the first 4 KB as sent');
});
