/**
 * The web console in real Chromium (playwright-core) against a listening obsim on a frozen
 * virtual clock, with a loopback webhook receiver:
 * - sign-in refused for wrong credentials, then accepted, keyboard only;
 * - advance the clock on the overview and watch, in other tabs and without a reload, a payment
 *   settle and its delivery appear (Server-Sent Events);
 * - drive a merchant from pending_onboarding to activated with its buttons;
 * - redeliver a failed delivery; run a scenario;
 * - a created sandbox's console shows none of the default sandbox's data;
 * - script-injection payloads in merchant names, references and webhook bodies stay text;
 * - axe-core finds no serious or critical violation on any page, at 1280×800 and at 390×800.
 */
import { createRequire } from 'node:module';
import t, { type Test } from 'tap';
import type { BrowserContext, Page } from 'playwright-core';
import { browserMissing, browserSession, consoleSignIn as signIn, inCI, partner, type BrowserSession } from '../helpers/browser.js';
import { scaled } from '../helpers/speed.js';

const missing = browserMissing();
const skip = missing && inCI() ? 'chromium missing in CI: test/browser/pages.test.ts fails for it' : missing;
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
t.setTimeout(scaled(240_000));
const XSS = `<script>window.__xss=1</script><img src=x onerror="window.__xss=2">"'&`;

async function context(t: Test, session: BrowserSession, viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  // bypassCSP only so axe-core can be injected; the pages' own CSP is checked in test/routes/console
  const ctx = await session.browser.newContext({ viewport, bypassCSP: true });
  t.teardown(() => ctx.close());
  return ctx;
}

async function open(ctx: BrowserContext): Promise<Page> {
  const page = await ctx.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  type Violation = { id: string; impact: string | null; nodes: { target: string[] }[] };
  const result = await page.evaluate(async () => {
    const g = globalThis as unknown as {
      document: unknown;
      axe: { run(ctx: unknown, opts: object): Promise<{ violations: Violation[] }> };
    };
    return g.axe.run(g.document, { resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

t.test('the web console', { skip, timeout: scaled(180_000) }, async (t) => {
  const session = await browserSession(t);
  const { app, baseUrl, receiver } = session;
  const shop = await partner(baseUrl, 'POST', '/v1/partner/merchants/test', { companyName: 'Console Shop ApS' });

  await t.test('wrong credentials are refused; right ones sign in, keyboard only', async (t) => {
    const page = await open(await context(t, session));
    const r = await page.goto(`${baseUrl}/console/payments`);
    t.equal(r?.status(), 401, 'no session: the sign-in page');
    await page.keyboard.press('Tab'); // skip link
    await page.keyboard.press('Tab');
    await page.keyboard.type('sandbox-partner');
    await page.keyboard.press('Tab');
    await page.keyboard.type('wrong-secret');
    await page.keyboard.press('Enter');
    await page.locator('#sign-in-error').waitFor();
    t.match(await page.locator('#sign-in-error').textContent(), /refused.*partner_credentials_invalid/);
    t.equal(await page.getByLabel('Client id').inputValue(), 'sandbox-partner', 'the client id is kept');
    await page.getByLabel('Client secret').focus();
    await page.keyboard.type('sandbox-secret');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'Payments' }).waitFor();
    t.equal(new URL(page.url()).pathname, '/console/payments', 'back where it was going');
    const cookies = await page.context().cookies();
    const cookie = cookies.find((c) => c.name === 'obsim_console');
    t.match(cookie, { httpOnly: true, sameSite: 'Strict', path: '/console' });
    t.notOk(cookie!.value.includes('sandbox-secret'), 'the secret is not readable in the cookie');
  });

  await t.test('advance the clock: a payment settles and its delivery appears live in other tabs', async (t) => {
    await partner(baseUrl, 'POST', '/v1/partner/webhooks', { url: `${receiver.url}/live`, events: ['payment.completed'] });
    const p = await partner<{ paymentId: number }>(baseUrl, 'POST', '/v1/partner/payments', {
      merchantClientId: shop.clientId,
      amount: 42,
      referenceNumber: 'live-1',
    });
    const ctx = await context(t, session);
    const control = await open(ctx);
    await signIn(control, baseUrl);
    const payments = await open(ctx);
    await payments.goto(`${baseUrl}/console/payments`);
    const deliveries = await open(ctx);
    await deliveries.goto(`${baseUrl}/console/webhooks`);
    const status = payments.getByTestId(`payment-status-${p.paymentId}`);
    t.equal((await status.textContent())?.trim(), 'pending');
    const navigations: string[] = [];
    for (const page of [payments, deliveries]) page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));
    // the SSE stream is open before anything happens
    for (const page of [payments, deliveries]) await page.locator('body[data-live=open]').waitFor({ state: 'attached' });

    await control.getByLabel('Advance by').fill('10s');
    await control.getByRole('button', { name: 'Advance' }).click();
    await control.getByText('Advanced the clock by 10s.').waitFor();
    await payments.getByTestId(`payment-status-${p.paymentId}`).filter({ hasText: 'paid' }).waitFor();
    t.pass('the payments tab shows paid without a reload');
    await deliveries.locator('#deliveries td', { hasText: 'payment.completed' }).waitFor();
    // the row can first show the attempt under way (delivering): its outcome arrives with the next live update
    await deliveries.locator('#deliveries .badge', { hasText: 'delivered' }).waitFor();
    t.match(await deliveries.locator('#deliveries').textContent(), /delivered/, 'the delivery appears, delivered');
    t.same(navigations, [], 'neither tab navigated');
    t.ok(
      receiver.received.some((r) => r.url === '/live'),
      'the receiver got it',
    );

    await payments.goto(`${baseUrl}/console/payments/${p.paymentId}`);
    t.match(await payments.getByTestId('timeline').textContent(), /payment\.completed[\s\S]*delivery \d+/);
  });

  await t.test('drive a merchant from pending_onboarding to activated with the buttons', async (t) => {
    const m = await partner<{ merchantId: number }>(baseUrl, 'POST', '/v1/partner/merchants', {
      companyName: 'Buttons ApS',
      contactEmail: 'b@shop.test',
    });
    const page = await open(await context(t, session));
    await signIn(page, baseUrl);
    await page.goto(`${baseUrl}/console/merchants?status=pending_onboarding`);
    await page.getByRole('link', { name: String(m.merchantId) }).click();
    await page.locator('h1', { hasText: 'Buttons ApS' }).waitFor();
    const buttons = async () => (await page.locator('form[action*="/console/merchants/"] button').allTextContents()).map((s) => s.trim());
    t.same(await buttons(), ['submit-onboarding', 'reject', 'activate'], 'exactly the legal actions');
    t.match(await page.locator('.states [aria-current=true]').textContent(), /pending_onboarding/);
    await page.getByRole('button', { name: 'submit-onboarding' }).click();
    await page.locator('.states [aria-current=true]', { hasText: 'awaiting_approval' }).waitFor();
    t.same(await buttons(), ['approve', 'reject', 'activate']);
    await page.getByRole('button', { name: 'approve' }).click();
    await page.getByTestId('merchant-status').filter({ hasText: 'activated' }).waitFor();
    t.same(await buttons(), ['deactivate']);
    const status = await partner<{ onboardingStatus: string }>(baseUrl, 'GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`);
    t.equal(status.onboardingStatus, 'activated', 'the API agrees');
  });

  await t.test('redeliver a failed delivery', async (t) => {
    const hook = await partner<{ id: string }>(baseUrl, 'POST', '/v1/partner/webhooks', {
      url: 'http://127.0.0.1:9/closed',
      events: ['merchant.deactivated'],
    });
    const page = await open(await context(t, session));
    await signIn(page, baseUrl);
    await page.goto(`${baseUrl}/console/webhooks`);
    await page.locator('tr', { hasText: hook.id }).getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test delivery queued.').waitFor();
    await app.webhooks.drain();
    await page.goto(`${baseUrl}/console/webhooks?state=failed`);
    const row = page.locator('#deliveries tr', { hasText: 'http://127.0.0.1:9/closed' }).first();
    const failedId = Number((await row.locator('a').first().textContent())?.trim());
    await row.getByRole('button', { name: 'Redeliver' }).click();
    await page.locator('h1', { hasText: /^Delivery \d+$/ }).waitFor();
    const newId = Number(/Delivery (\d+)/.exec((await page.locator('h1').textContent()) ?? '')?.[1]);
    t.not(newId, failedId);
    const redelivery = await partner<{ redeliveryOf: number; eventId: string }>(baseUrl, 'GET', `/_sandbox/deliveries/${newId}`);
    t.equal(redelivery.redeliveryOf, failedId, 'a new delivery of the failed one');
    t.match(await page.locator('main').textContent(), /x-webhook-id/);
  });

  await t.test('run a scenario and read its steps', async (t) => {
    const page = await open(await context(t, session));
    await signIn(page, baseUrl);
    await page.goto(`${baseUrl}/console/scenarios`);
    const row = page.locator('tr', { hasText: 'payment-paid' }).first();
    await row.getByLabel('in a fresh sandbox').check();
    await row.getByRole('button', { name: 'Run' }).click();
    const result = page.getByTestId('scenario-result');
    await result.waitFor({ timeout: scaled(30_000) });
    t.match(await result.locator('h2').textContent(), /payment-paid: passed/);
    t.ok((await result.locator('tbody tr').count()) >= 3, 'its steps are listed');
  });

  await t.test("a created sandbox's console shows none of another's data", async (t) => {
    await partner(baseUrl, 'POST', '/v1/partner/payments', { merchantClientId: shop.clientId, amount: 1, referenceNumber: 'default-only' });
    const res = await fetch(`${baseUrl}/_sandbox/sandboxes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const created = (await res.json()) as { sandboxId: string; credentials: { clientId: string; clientSecret: string } };
    const page = await open(await context(t, session));
    await signIn(page, baseUrl, created.credentials.clientId, created.credentials.clientSecret);
    t.match(await page.locator('main').textContent(), new RegExp(created.sandboxId));
    for (const path of ['/console/payments', '/console/merchants', '/console/webhooks', '/console/requests']) {
      await page.goto(`${baseUrl}${path}`);
      const text = (await page.locator('main').textContent()) ?? '';
      t.notMatch(text, /default-only|Console Shop ApS|Buttons ApS|127\.0\.0\.1:9\/closed/, `${path}: nothing of the default sandbox`);
    }
    const r = await page.goto(`${baseUrl}/console/merchants/${shop.merchantId}`);
    t.equal(r?.status(), 404, "the default sandbox's merchant is not found");
  });

  await t.test('script payloads stay text everywhere they are shown', async (t) => {
    const evil = await partner<{ merchantId: number; clientId: string }>(baseUrl, 'POST', '/v1/partner/merchants/test', {
      companyName: XSS,
    });
    await partner(baseUrl, 'POST', '/v1/partner/webhooks', { url: `${receiver.url}/xss`, events: ['payment.completed'] });
    const p = await partner<{ paymentId: number }>(baseUrl, 'POST', '/v1/partner/payments', {
      merchantClientId: evil.clientId,
      amount: 7,
      referenceNumber: XSS,
    });
    await partner(baseUrl, 'POST', `/_sandbox/payments/${p.paymentId}/complete`);
    await app.webhooks.drain();
    const deliveries = await partner<{ items: { id: number; body: string }[] }>(
      baseUrl,
      'GET',
      '/_sandbox/deliveries?event=payment.completed',
    );
    const delivery = deliveries.items.find((d) => d.body.includes('__xss'))!;
    const journal = await partner<{ items: { id: string }[] }>(
      baseUrl,
      'GET',
      '/_sandbox/requests?method=POST&pathPrefix=/v1/partner/payments&limit=1',
    );
    const page = await open(await context(t, session));
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await signIn(page, baseUrl);
    for (const path of [
      `/console/merchants/${evil.merchantId}`,
      '/console/merchants',
      `/console/payments/${p.paymentId}`,
      '/console/payments',
      `/console/deliveries/${delivery.id}`,
      `/console/requests/${journal.items[0].id}`,
    ]) {
      await page.goto(`${baseUrl}${path}`);
      t.equal(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss), undefined, `${path}: no script ran`);
      t.match(await page.locator('main').textContent(), /<script>window\.__xss=1<\/script>/, `${path}: the payload is shown as text`);
    }
    t.same(dialogs, []);
  });

  await t.test('axe-core: no serious or critical violations, wide and narrow', async (t) => {
    const payment = await partner<{ items: { payment: { paymentId: number } }[] }>(baseUrl, 'GET', '/_sandbox/payments?limit=1');
    const delivery = await partner<{ items: { id: number }[] }>(baseUrl, 'GET', '/_sandbox/deliveries?limit=1');
    const requests = await partner<{ items: { id: string }[] }>(baseUrl, 'GET', '/_sandbox/requests?limit=1');
    const paths = [
      '/console',
      '/console/merchants',
      `/console/merchants/${shop.merchantId}`,
      '/console/payments',
      `/console/payments/${payment.items[0].payment.paymentId}`,
      '/console/consents',
      '/console/webhooks',
      `/console/deliveries/${delivery.items[0].id}`,
      '/console/requests',
      `/console/requests/${requests.items[0].id}`,
      '/console/scenarios',
    ];
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 800 },
    ]) {
      const page = await open(await context(t, session, viewport));
      await page.goto(`${baseUrl}/console/sign-in`);
      t.same(await seriousViolations(page), [], `sign-in at ${viewport.width}px`);
      await signIn(page, baseUrl);
      for (const path of paths) {
        await page.goto(`${baseUrl}${path}`);
        t.same(await seriousViolations(page), [], `${path} at ${viewport.width}px`);
        const overflow = await page.evaluate(() => {
          const g = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
          return g.document.documentElement.scrollWidth - g.innerWidth;
        });
        t.ok(overflow <= 1, `${path} at ${viewport.width}px: no sideways scrolling of the page (${overflow}px)`);
      }
    }
  });
});
