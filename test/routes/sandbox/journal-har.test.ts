/**
 * The journal as HAR 1.2 (docs/journal.md, "HAR"): GET /_sandbox/requests?format=har answers the
 * page as application/har+json, oldest first, credentials redacted as the journal redacts them,
 * paged by `log._nextCursor`; `obsim logs export --har FILE` writes the whole journal as one file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { defaultConfig } from '../../../src/config.js';
import { startServer } from '../../../src/server.js';
import { build, PARTNER, schemaErrors } from '../../helpers/app.js';
import { call, testMerchant } from '../../helpers/partner.js';
import { runObsim } from '../../helpers/processes.js';

t.test('a page as HAR: schema, order, redaction, paging', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  await call(app, 'POST', '/v1/partner/webhooks', { url: 'https://partner.example/hooks', events: ['payment.completed'] });
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 12.5, referenceNumber: 'har-1' });
  await call(app, 'GET', '/v1/partner/merchants?page=1&limit=5');
  const res = await app.inject({ method: 'GET', url: '/_sandbox/requests?format=har', headers: PARTNER });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^application\/har\+json/);
  const har = res.json();
  t.same(schemaErrors('JournalHar', har), []);
  t.match(har.log, { version: '1.2', creator: { name: 'obsim' } });
  const urls = har.log.entries.map((e: any) => `${e.request.method} ${new URL(e.request.url).pathname}`);
  t.same(
    urls,
    ['POST /v1/partner/merchants/test', 'POST /v1/partner/webhooks', 'POST /v1/partner/payments', 'GET /v1/partner/merchants'],
    'oldest first',
  );
  const [, hook, payment, list] = har.log.entries;
  t.same(
    hook.request.headers.filter((h: any) => h.name === 'x-partner-client-secret'),
    [{ name: 'x-partner-client-secret', value: '[redacted]' }],
  );
  t.equal(JSON.parse(hook.response.content.text).secret, '[redacted]', "the webhook's secret");
  t.match(payment.request.postData, { mimeType: 'application/json', text: /"referenceNumber":"har-1"/ });
  t.match(payment.response, { status: 200, content: { mimeType: 'application/json', text: /"paymentId"/ } });
  t.same(list.request.queryString, [
    { name: 'page', value: '1' },
    { name: 'limit', value: '5' },
  ]);
  t.match(payment.comment, /^journal entry \d+, at 2026-01-15T09:00:00\.000Z on the sandbox clock/);

  const first = (await app.inject({ method: 'GET', url: '/_sandbox/requests?format=har&limit=3', headers: PARTNER })).json();
  t.equal(first.log.entries.length, 3);
  t.type(first.log._nextCursor, 'string');
  const older = (
    await app.inject({ method: 'GET', url: `/_sandbox/requests?format=har&limit=3&cursor=${first.log._nextCursor}`, headers: PARTNER })
  ).json();
  t.same(schemaErrors('JournalHar', older), []);
  t.equal(older.log._nextCursor, undefined, 'the last page');
  t.same(
    [...older.log.entries, ...first.log.entries].map((e: any) => e.comment),
    har.log.entries.map((e: any) => e.comment),
    'the older page, then the newer: the whole journal in order',
  );
  const bad = await app.inject({ method: 'GET', url: '/_sandbox/requests?format=xml', headers: PARTNER });
  t.equal(bad.statusCode, 400);
  t.match(bad.json(), { code: 'validation_failed' });
});

t.test('obsim logs export --har: the whole journal in one file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-har-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent' }, () => undefined);
  t.teardown(() => server.close());
  for (let i = 0; i < 7; i++) {
    await fetch(`${server.url}/v1/partner/merchants/test`, {
      method: 'POST',
      headers: { ...PARTNER, 'content-type': 'application/json' },
      body: JSON.stringify({ companyName: `Export ${i}` }),
    });
  }
  const file = join(dir, 'session.har');
  const run = await runObsim(['logs', 'export', '--har', file, '--base-url', server.url]);
  t.equal(run.code, 0, run.stderr);
  t.match(run.stderr, /7 request\(s\) written/);
  const har = JSON.parse(readFileSync(file, 'utf8'));
  t.same(schemaErrors('JournalHar', har), []);
  t.same(
    har.log.entries.map((e: any) => JSON.parse(e.request.postData.text).companyName),
    Array.from({ length: 7 }, (_, i) => `Export ${i}`),
  );
});
