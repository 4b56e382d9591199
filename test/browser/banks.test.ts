/**
 * Banks that behave like banks, in a real browser (real Chromium, a listening obsim on a frozen
 * virtual clock, a loopback receiver; docs/banks.md):
 * - a down bank: the page marks it, choosing it shows the form again with the others offered,
 *   the payer chooses another bank and pays; payment.completed arrives, signed;
 * - decoupled approval: the page waits for the bank app, a clock advance brings the approval,
 *   reloading shows the payment completed.
 */
import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { browserMissing, browserSession, inCI, partner, signatureValid } from '../helpers/browser.js';
import { scaled } from '../helpers/speed.js';

const missing = browserMissing();
const skip = missing && inCI() ? 'chromium missing in CI: test/browser/pages.test.ts fails for it' : missing;

t.test('the hosted payment page at banks with a profile', { skip, timeout: scaled(90_000) }, async (t) => {
  const session = await browserSession(t);
  const { app, baseUrl, receiver } = session;
  const hook = await partner(baseUrl, 'POST', '/v1/partner/webhooks', {
    url: `${receiver.url}/webhooks`,
    events: ['payment.completed', 'payment.failed'],
  });
  const shop = await partner(baseUrl, 'POST', '/v1/partner/merchants/test', { companyName: 'Bank Behaviour ApS' });
  const newPage = async (t: Test): Promise<Page> => (await session.newPage(t)).page;
  const payment = (amount: number) =>
    partner<{ paymentId: number; paymentUrl: string }>(baseUrl, 'POST', '/v1/partner/payments', {
      merchantClientId: shop.clientId,
      amount,
      referenceNumber: `BANK-${amount}`,
    });
  const statusOf = (id: number) =>
    partner<{ status: string; bankPaymentStatus: string }>(baseUrl, 'GET', `/v1/partner/payments/${id}/status`);
  async function events(paymentId: number) {
    await app.webhooks.drain();
    return receiver.received
      .filter((r) => r.url === '/webhooks')
      .map((r) => ({ r, body: JSON.parse(r.body) as { event: string; data: { paymentId: number } } }))
      .filter((e) => e.body.data.paymentId === paymentId);
  }

  await t.test('a down bank: marked, refused with the others offered; another bank pays', async (t) => {
    await partner(baseUrl, 'PUT', '/_sandbox/banks/nordlys-bank', { profile: 'outage-1h' });
    const page = await newPage(t);
    const p = await payment(210);
    t.equal((await page.goto(p.paymentUrl))?.status(), 200);
    t.match(await page.locator('label[for="f-bankId"]').textContent(), /Nordlys Bank.*unavailable right now/);
    await page.getByLabel(/Nordlys Bank/).check();
    await page.getByRole('button', { name: 'Approve payment' }).click();
    await page.locator('#f-bankId-error').waitFor();
    t.match(
      await page.locator('#f-bankId-error').textContent(),
      'Nordlys Bank is unavailable right now. Choose another bank, or cancel the payment.',
    );
    t.match(await statusOf(p.paymentId), { status: 'pending' }, 'nothing changed');
    await page.getByLabel(/Fjord Sparekasse/).check();
    await page.getByRole('button', { name: 'Approve payment' }).click();
    await page.locator('h1', { hasText: 'Payment completed' }).waitFor();
    t.match(await statusOf(p.paymentId), { status: 'paid' });
    const sent = await events(p.paymentId);
    t.same(
      sent.map((e) => e.body.event),
      ['payment.completed'],
    );
    t.ok(signatureValid(sent[0].r, hook.secret), 'signed');
    await partner(baseUrl, 'DELETE', '/_sandbox/banks/nordlys-bank');
  });

  await t.test('decoupled approval: the page waits, a clock advance brings the approval', async (t) => {
    await partner(baseUrl, 'PUT', '/_sandbox/banks/rhein-direktbank', { profile: 'slow-app-approval' });
    const page = await newPage(t);
    const p = await payment(220);
    await page.goto(p.paymentUrl);
    await page.getByLabel(/Rhein Direktbank/).check();
    await page.getByRole('button', { name: 'Approve payment' }).click();
    await page.locator('h1', { hasText: 'Approve in your banking app' }).waitFor();
    t.match(await page.locator('[data-status="awaiting-app"]').count(), 1, 'a waiting state');
    t.match(await page.locator('main').textContent(), /Open the Rhein Direktbank app on your phone/);
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.locator('h1', { hasText: 'Approve in your banking app' }).waitFor();
    t.match(await statusOf(p.paymentId), { status: 'pending', bankPaymentStatus: 'Pending' });
    await partner(baseUrl, 'POST', '/_sandbox/clock/advance', { duration: '10m' });
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.locator('h1', { hasText: 'Payment completed' }).waitFor();
    t.match(await statusOf(p.paymentId), { status: 'paid', bankPaymentStatus: 'AcceptedSettlementCompleted' });
    t.same(
      (await events(p.paymentId)).map((e) => e.body.event),
      ['payment.completed'],
    );
  });
});
