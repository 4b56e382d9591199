/**
 * The console's readiness page in real Chromium: it renders (verdict, both pictures as SVG),
 * loads nothing from outside obsim, runs no script of its own, and every link in it — checklist
 * evidence, smells and the coverage grid's cells — resolves to a journal entry page; the
 * check-receiver button turns "Verifies webhook signatures" met for a receiver that verifies.
 */
import { createHmac } from 'node:crypto';
import t from 'tap';
import { browserMissing, browserSession, consoleSignIn, inCI, partner } from '../helpers/browser.js';
import { scaled } from '../helpers/speed.js';

const missing = browserMissing();
const skip = missing && inCI() ? 'chromium missing in CI: test/browser/pages.test.ts fails for it' : missing;

t.test('the readiness page in chromium', { skip, timeout: scaled(120_000) }, async (t) => {
  const session = await browserSession(t);
  const { baseUrl, receiver, newPage } = session;
  const hook = await partner(baseUrl, 'POST', '/v1/partner/webhooks', { url: `${receiver.url}/verifying`, events: ['payment.completed'] });
  // the loopback receiver answers 200 to everything: for this test it verifies signatures
  receiver.answer = (path, headers, body) =>
    path === '/verifying' && headers['x-webhook-signature'] !== createHmac('sha256', hook.secret).update(body).digest('hex') ? 401 : 200;
  const shop = await partner(baseUrl, 'POST', '/v1/partner/merchants/test', { companyName: 'Ready Shop ApS' });
  await partner(baseUrl, 'POST', '/v1/partner/payments', { merchantClientId: shop.clientId, amount: 20, referenceNumber: 'ready-1' });
  await partner(baseUrl, 'POST', '/v1/partner/payments', { merchantClientId: shop.clientId, amount: 20, referenceNumber: 'ready-1' });

  const { page, requested } = await newPage(t);
  await consoleSignIn(page, baseUrl);
  await page.getByRole('link', { name: 'Readiness' }).click();
  await page.locator('h1', { hasText: 'Readiness' }).waitFor();
  t.equal(await page.getByTestId('verdict').textContent(), 'failed');
  t.equal(await page.locator('svg[data-testid="coverage-grid"]').count(), 1);
  t.equal(await page.locator('svg[data-testid="lifecycle-picture"]').count(), 1);
  const box = await page.locator('svg[data-testid="coverage-grid"]').boundingBox();
  t.ok(box && box.width > 200 && box.height > 200, 'the grid is drawn at a readable size');
  const row = page.getByRole('row', { name: /Verifies webhook signatures/ });
  t.match(await row.textContent(), /failed/);

  const hrefs = await page.$$eval('main a[href^="/console/requests/"], svg a', (as) => as.map((a) => a.getAttribute('href') ?? ''));
  t.ok(hrefs.length >= 3, `${hrefs.length} links to journal entries`);
  for (const href of new Set(hrefs)) {
    const res = await page.request.get(`${baseUrl}${href}`);
    t.equal(res.status(), 200, `${href} resolves`);
  }
  await page.locator('a[data-testid="cell-createPayment-2xx"]').click();
  await page.locator('h1', { hasText: 'Request POST /v1/partner/payments' }).waitFor();
  t.pass('a grid cell opens the journal entry behind it');

  await page.goBack();
  await page.getByRole('button', { name: 'Check the registered receiver' }).click();
  await page.locator('.notice', { hasText: /check-receiver against .*: passed/ }).waitFor();
  t.match(await page.getByRole('row', { name: /Verifies webhook signatures/ }).textContent(), /passed/, 'met after a passing run');
  t.same(
    requested.filter((u) => !u.startsWith(baseUrl)),
    [],
    'nothing is loaded from outside obsim',
  );
});
