/**
 * A HAR recorded by Chromium (playwright-core's recordHar, Debian's /usr/bin/chromium) over a flow
 * driven through obsim's hosted payment page: the partner's calls made by the page's own fetch
 * (with the partner's credentials), the payer choosing a bank and approving on the page, the
 * status read after. Imported, it runs green on a fresh sandbox, and the partner's secret the
 * HAR holds is not in the YAML. Skipped without chromium, except in CI.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { defaultConfig } from '../../src/config.js';
import { lifecycleSettings } from '../../src/domain/settings.js';
import { importHar } from '../../src/har-import/import.js';
import { parseScenarioText, validateScenario } from '../../src/scenarios/loader.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { injectTransport } from '../../src/scenarios/transport.js';
import { PARTNER } from '../helpers/app.js';
import { browserMissing, CHROMIUM_PATH, inCI, launchBrowser, startServer } from '../helpers/browser.js';
import { failure } from '../helpers/scenarios.js';
import { scaled } from '../helpers/speed.js';

const missing = browserMissing();
if (missing && inCI()) t.fail(`${CHROMIUM_PATH} is not installed and CI is set: the HAR import's browser test must run in CI`);
const skip = missing && inCI() ? 'chromium missing in CI: failed above' : missing;

t.test('a HAR Chromium recorded through the hosted payment page runs green as a scenario', { skip, timeout: scaled(90_000) }, async (t) => {
  const { app, baseUrl } = await startServer();
  const browser = await launchBrowser();
  const dir = mkdtempSync(join(tmpdir(), 'obsim-har-'));
  t.teardown(async () => {
    await browser.close();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const harPath = join(dir, 'checkout.har');
  const context = await browser.newContext({ recordHar: { path: harPath, content: 'embed' } });
  const page = await context.newPage();
  page.setDefaultTimeout(scaled(10_000));
  await page.goto(`${baseUrl}/healthz`);
  /** The partner's call, made by the page's fetch (so the browser records it). */
  const partnerCall = (method: string, path: string, body?: unknown) =>
    page.evaluate(
      async ([m, p, b, headers]) => {
        const res = await fetch(p, {
          method: m,
          headers: { ...headers, ...(b === undefined ? {} : { 'Content-Type': 'application/json' }) },
          body: b === undefined ? undefined : JSON.stringify(b),
        });
        return (await res.json()) as Record<string, any>;
      },
      [
        method,
        path,
        body,
        { 'X-Partner-Client-Id': PARTNER['x-partner-client-id'], 'X-Partner-Client-Secret': PARTNER['x-partner-client-secret'] },
      ] as const,
    );
  const shop = await partnerCall('POST', '/v1/partner/merchants/test', { companyName: 'Chromium Shop ApS' });
  const payment = await partnerCall('POST', '/v1/partner/payments', {
    merchantClientId: shop.clientId,
    amount: 88.8,
    referenceNumber: 'CH-1',
  });
  t.equal((await partnerCall('GET', `/v1/partner/payments/${payment.paymentId}/status`)).status, 'pending');
  await page.goto(payment.paymentUrl);
  await page.getByLabel('Fjord Sparekasse').check();
  await page.getByRole('button', { name: 'Approve payment' }).click();
  await page.locator('h1', { hasText: 'Payment completed' }).waitFor();
  // the hosted page's content security policy allows it no fetch: the partner's app reads again
  await page.goto(`${baseUrl}/healthz`);
  t.equal((await partnerCall('GET', `/v1/partner/payments/${payment.paymentId}/status`)).status, 'paid');
  await context.close();

  const text = readFileSync(harPath, 'utf8');
  t.match(JSON.parse(text).log.creator, { name: 'Playwright' }, 'written by Playwright’s recorder');
  t.ok(text.includes(PARTNER['x-partner-client-secret']), 'the HAR holds the partner’s secret');
  const imported = importHar(text, { name: 'chromium-checkout', origin: 'checkout.har', settings: lifecycleSettings(defaultConfig()) });
  t.notOk(imported.yaml.includes(PARTNER['x-partner-client-secret']), 'the YAML does not');
  t.match(imported.summary, { taken: 7, skipped: [], flagged: [] });
  const steps = (parse(imported.yaml) as { steps: Record<string, any>[] }).steps;
  t.match(
    steps.map((s) => `${s.request.method} ${s.request.path}`),
    [
      'POST /v1/partner/merchants/test',
      'POST /v1/partner/payments',
      'GET /v1/partner/payments/${paymentId}/status',
      'GET ${paymentUrl}',
      'POST ${paymentUrl}',
      'GET ${paymentUrl}',
      'GET /v1/partner/payments/${paymentId}/status',
    ],
    'the partner’s calls and the payer’s page, in order',
  );
  t.match(steps[4], { request: { auth: 'none', form: { bankId: 'fjord-sparekasse', decision: 'approve' }, expect: { status: 303 } } });

  const fresh = await app.inject({
    method: 'POST',
    url: '/_sandbox/sandboxes',
    payload: { name: 'chromium-replay', clock: { frozen: true } },
  });
  const result = await runScenario(validateScenario(parseScenarioText(imported.yaml, 'chromium.yaml'), 'chromium.yaml'), {
    transport: injectTransport(app),
    partner: (JSON.parse(fresh.body) as { credentials: { clientId: string; clientSecret: string } }).credentials,
  });
  t.ok(result.passed, `the import runs green${failure(result)}\n${imported.yaml}`);
});
