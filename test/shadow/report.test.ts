/**
 * The drift report at /_shadow/report (docs/drift.md, "The report"): JSON with its summary,
 * exchanges and webhooks; JUnit XML (a drift fails its test case, an uncomparable one is skipped);
 * one self-contained HTML page; an unknown format refused in the documented error shape; the
 * exchanges as HAR 1.2 with credentials redacted.
 */
import t from 'tap';
import { request } from 'undici';
import { convert } from 'xmlbuilder2';
import { schemaErrors } from '../helpers/app.js';
import { shadowFlow, LATE_AFTER_MS, WEBHOOK_WAIT_MS } from '../helpers/drift.js';

const get = async (url: string) => {
  const r = await request(url);
  return { status: r.statusCode, type: String(r.headers['content-type']), text: await r.body.text() };
};

t.test('one flow with a drifted answer and a dropped webhook, in every format', async (t) => {
  await shadowFlow('payment-paid', {
    mutation: { webhook: { event: 'payment.completed', mutation: { op: 'drop' } } },
    waitForWebhooksMs: WEBHOOK_WAIT_MS + LATE_AFTER_MS,
    inspect: async ({ shadow }) => {
      const json = await get(`${shadow.reportUrl}`);
      t.equal(json.status, 200);
      t.match(json.type, /application\/json/);
      const report = JSON.parse(json.text);
      t.match(report, {
        upstream: /^http:\/\/127\.0\.0\.1:\d+$/,
        summary: { exchanges: { match: 4, drift: 0, uncomparable: 0 }, webhooks: { match: 0, drift: 1, uncomparable: 0, waiting: 0 } },
        webhookComparison: { compared: true },
      });
      t.match(report.exchanges[0], {
        method: 'POST',
        path: '/v1/partner/merchants/test',
        operationId: 'createTestMerchant',
        upstreamStatus: 200,
        obsimStatus: 200,
        verdict: 'match',
        drifts: [],
      });
      t.match(report.webhooks, [
        {
          event: 'payment.completed',
          exchange: Number,
          verdict: 'drift',
          drifts: [{ kind: 'event_missing', pointer: '', obsim: 'payment.completed' }],
        },
      ]);
      const causing = report.exchanges.find((e: { index: number }) => e.index === report.webhooks[0].exchange);
      t.equal(causing.operationId, 'createPayment', 'the webhook names the request that scheduled its settlement');

      const junit = await get(`${shadow.reportUrl}?format=junit`);
      t.match(junit.type, /xml/);
      const doc = convert(junit.text, { format: 'object' }) as any;
      const suites = doc.testsuites.testsuite;
      t.same(
        suites.map((s: any) => [s['@name'], s['@tests'], s['@failures'], s['@skipped']]),
        [
          ['exchanges', '4', '0', '0'],
          ['webhooks', '1', '1', '0'],
        ],
      );
      t.match(suites[1].testcase.failure['#'], /event_missing/);

      const html = await get(`${shadow.reportUrl}?format=html`);
      t.match(html.type, /text\/html/);
      t.notMatch(html.text, /<script|<link|src="http|href="http/, 'self-contained: no scripts, no external assets');
      t.match(html.text, /event_missing/);
      t.match(html.text, /exchange #\d+/);
      t.ok(html.text.indexOf('createTestMerchant') < html.text.indexOf('payment.completed'), 'the flow in order');

      const bad = await get(`${shadow.reportUrl}?format=pdf`);
      t.equal(bad.status, 400);
      const body = JSON.parse(bad.text);
      t.same(schemaErrors('ErrorBody', body), []);
      t.match(body, { code: 'validation_failed', field: '/format', in: 'query' });
      const exchanges = shadow.reportUrl.replace('/_shadow/report', '/_shadow/exchanges');
      const badSide = await get(`${exchanges}?format=har&side=partner`);
      t.equal(badSide.status, 400);
      t.match(JSON.parse(badSide.text), { code: 'validation_failed', field: '/side', in: 'query' });
      const posted = await request(shadow.reportUrl, { method: 'POST', body: '{}' });
      t.equal(posted.statusCode, 405);
      t.match(await posted.body.json(), { status: 405, code: 'method_not_allowed' });
      const elsewhere = await get(shadow.reportUrl.replace('/_shadow/report', '/_shadow/other'));
      t.equal(elsewhere.status, 404);
      t.same(schemaErrors('ErrorBody', JSON.parse(elsewhere.text)), []);

      const har = JSON.parse((await get(`${shadow.reportUrl.replace('/_shadow/report', '/_shadow/exchanges')}?format=har`)).text);
      t.equal(har.log.version, '1.2');
      t.equal(har.log.entries.length, 4);
      for (const e of har.log.entries) {
        t.match(e, {
          startedDateTime: String,
          time: Number,
          request: {
            method: String,
            url: /^http/,
            httpVersion: String,
            headers: Array,
            queryString: Array,
            cookies: Array,
            headersSize: -1,
            bodySize: Number,
          },
          response: { status: Number, content: { size: Number, mimeType: String }, headers: Array, redirectURL: String },
          cache: {},
          timings: { send: 0, wait: Number, receive: 0 },
        });
        t.same(
          e.request.headers.filter((h: { name: string }) => h.name === 'x-partner-client-secret').map((h: { value: string }) => h.value),
          ['[redacted]'],
          'the partner secret is redacted',
        );
      }
      const registration = har.log.entries.find((e: any) => e.request.url.endsWith('/v1/partner/webhooks'));
      t.equal(JSON.parse(registration.response.content.text).secret, '[redacted]', "a webhook's secret is redacted");
    },
  });
});
