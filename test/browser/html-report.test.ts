/**
 * `obsim scenario run --report FILE.html`, opened from disk in Chromium: it renders the
 * summary and a timeline per scenario, loads nothing from anywhere (one self-contained file),
 * the filter box and "failed only" narrow what is shown, and a failing step shows its expected
 * beside its actual. The shipped suite's report stays under 2 MB.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { shippedScenariosDir } from '../../src/scenarios/loader.js';
import { runObsim } from '../helpers/processes.js';
import { browserMissing, inCI, launchBrowser } from '../helpers/browser.js';
import { scaled } from '../helpers/speed.js';

const missing = browserMissing();
const skip = missing && inCI() ? 'chromium missing in CI: test/browser/pages.test.ts fails for it' : missing;

t.test(
  'the HTML report of a run: renders from disk, filters, shows a failing step’s diff',
  { skip, timeout: scaled(120_000) },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'obsim-report-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const failing = join(dir, 'wrong-amount.yaml');
    writeFileSync(
      failing,
      `name: wrong-amount
description: expects an amount the payment does not have
steps:
  - request:
      method: POST
      path: /v1/partner/merchants/test
      body: { companyName: "Report Shop" }
      capture: { merchant.clientId: clientId }
  - request:
      method: POST
      path: /v1/partner/payments
      body: { merchantClientId: "\${merchant.clientId}", amount: 10, referenceNumber: "r-1" }
      expect: { body: { amount: 11, status: pending } }
`,
    );
    const report = join(dir, 'out', 'report.html');
    const run = await runObsim(['scenario', 'run', '--in-process', shippedScenariosDir(), failing, '--quiet', '--report', report], {
      timeoutMs: 120_000,
    });
    t.equal(run.code, 1, 'a scenario failed: exit 1');
    t.match(run.stdout, `HTML report written to ${report}`);
    const size = statSync(report).size;
    t.ok(size < 2 * 1024 * 1024, `the report of the shipped suite and one more is ${size} bytes (limit 2 MB)`);
    const text = readFileSync(report, 'utf8');
    t.notMatch(text, /<script[^>]+src=|<link[^>]+href=|@import|url\(/, 'no external script, style or font');

    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(pathToFileURL(report).href);
    t.same(requested, [pathToFileURL(report).href], 'it loads nothing but itself');
    const shipped = (await page.locator('section.scenario').count()) - 1;
    t.ok(shipped >= 20);
    t.match(await page.locator('.summary').textContent(), new RegExp(`${shipped} passed, 1 failed · ${shipped + 1} scenarios`));
    t.equal(await page.locator('#shown').textContent(), String(shipped + 1));

    const paid = page.locator('section.scenario', { has: page.locator('h2', { hasText: 'payment-paid' }) });
    t.ok(await paid.locator('li.step').first().isVisible(), 'a timeline of steps');
    t.match(await paid.locator('.when').nth(3).textContent(), /^\+5s/, 'on the sandbox clock: +5s after advancing 5 s');
    t.match(await paid.locator('.webhook').first().textContent(), /payment\.completed.*signature valid \(recomputed\)/s);
    const exchange = paid.locator('details.exchange').first();
    t.notOk(await exchange.locator('pre').first().isVisible(), 'bodies collapsed');
    await exchange.locator('summary').click();
    t.ok(await exchange.locator('pre').first().isVisible(), 'and open on a click');
    t.match(await paid.locator('.state').first().textContent(), /activated/, 'state changes shown');

    await page.locator('#filter').fill('consent-revoked');
    t.equal(await page.locator('#shown').textContent(), '1', 'the filter box narrows to one scenario');
    t.ok(await page.locator('section.scenario', { hasText: 'consent-revoked' }).isVisible());
    t.notOk(await paid.isVisible());
    await page.locator('#filter').fill('');
    await page.locator('#failed-only').check();
    t.equal(await page.locator('#shown').textContent(), '1', 'failed only');
    const wrong = page.locator('section.scenario.failed');
    t.match(await wrong.locator('h2').textContent(), 'wrong-amount');
    const diff = wrong.locator('li.failed table.diff');
    t.ok(await diff.isVisible(), "the failing step's diff");
    t.equal(await diff.locator('td').nth(0).textContent(), 'amount');
    t.equal(await diff.locator('td.expected').textContent(), '11');
    t.equal(await diff.locator('td.actual').textContent(), '10');
  },
);
