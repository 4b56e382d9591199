/**
 * A payer who opens the payment page is in control (real Chromium, a listening obsim on a frozen
 * virtual clock, a loopback receiver for the webhooks):
 * - opened, then rejected after 8 s of virtual time: still pending when the settle delay (5 s)
 *   has passed, then failed bank_rejected; payment.failed sent, never payment.completed;
 * - opened, then left past its expiry: failed expired, the page says the link expired;
 * - never opened: settles to paid after the settle delay, as before (headless use).
 */
import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { browserMissing, browserSession, inCI, partner, signatureValid } from '../helpers/browser.js';
import { scaled } from '../helpers/speed.js';

const missing = browserMissing();
const skip = missing && inCI() ? 'chromium missing in CI: test/browser/pages.test.ts fails for it' : missing;

t.test('the payer in control of an opened payment page', { skip, timeout: scaled(90_000) }, async (t) => {
  const session = await browserSession(t);
  const { app, baseUrl, receiver } = session;
  const hook = await partner(baseUrl, 'POST', '/v1/partner/webhooks', {
    url: `${receiver.url}/webhooks`,
    events: ['payment.completed', 'payment.failed'],
  });
  const shop = await partner(baseUrl, 'POST', '/v1/partner/merchants/test', { companyName: 'Payer Control ApS' });

  const newPage = async (t: Test): Promise<Page> => (await session.newPage(t)).page;
  const payment = (amount: number) =>
    partner<{ paymentId: number; paymentUrl: string }>(baseUrl, 'POST', '/v1/partner/payments', {
      merchantClientId: shop.clientId,
      amount,
      referenceNumber: `PC-${amount}`,
    });
  const advance = (duration: string) => partner(baseUrl, 'POST', '/_sandbox/clock/advance', { duration });
  const statusOf = async (id: number) =>
    await partner<{ status: string; failureReason: string | null }>(baseUrl, 'GET', `/v1/partner/payments/${id}/status`);
  async function events(paymentId: number) {
    await app.webhooks.drain();
    return receiver.received
      .filter((r) => r.url === '/webhooks')
      .map((r) => ({ r, body: JSON.parse(r.body) as { event: string; data: { paymentId: number; failureReason?: string } } }))
      .filter((e) => e.body.data.paymentId === paymentId);
  }

  await t.test('opened, then rejected after 8 s: the settle delay passes without settling; failed bank_rejected', async (t) => {
    const page = await newPage(t);
    const p = await payment(120);
    t.equal((await page.goto(p.paymentUrl))?.status(), 200);
    await advance('8s');
    t.match(await statusOf(p.paymentId), { status: 'pending' }, 'still pending 8 s later: the payer is looking at the page');
    t.same(await events(p.paymentId), [], 'no payment.completed, although nobody authorized');
    await page.getByLabel('Nordlys Bank').check();
    await page.getByRole('button', { name: 'Reject at the bank' }).click();
    await page.locator('h1', { hasText: 'Payment failed' }).waitFor();
    t.match(await page.locator('main').textContent(), /The bank rejected the payment/, 'the payer is told what happened: rejected');
    t.match(await statusOf(p.paymentId), { status: 'failed', failureReason: 'bank_rejected' });
    const sent = await events(p.paymentId);
    t.same(
      sent.map((e) => e.body.event),
      ['payment.failed'],
      'payment.failed, and never payment.completed',
    );
    t.ok(signatureValid(sent[0].r, hook.secret), 'signed');
  });

  await t.test('opened, then left past the expiry: failed expired, the page says so', async (t) => {
    const page = await newPage(t);
    const p = await payment(130);
    t.equal((await page.goto(p.paymentUrl))?.status(), 200);
    await advance('10s');
    t.match(await statusOf(p.paymentId), { status: 'pending' }, 'not settled by itself');
    await advance('31m');
    t.match(await statusOf(p.paymentId), { status: 'failed', failureReason: 'expired' });
    const reload = await page.reload();
    t.equal(reload?.status(), 410);
    t.equal(await page.locator('h1').textContent(), 'This payment link has expired');
    t.same(
      (await events(p.paymentId)).map((e) => [e.body.event, e.body.data.failureReason]),
      [['payment.failed', 'expired']],
    );
  });

  await t.test('never opened: settles to paid after the settle delay (headless use)', async (t) => {
    const p = await payment(140);
    await advance('6s');
    t.match(await statusOf(p.paymentId), { status: 'paid' });
    t.same(
      (await events(p.paymentId)).map((e) => e.body.event),
      ['payment.completed'],
    );
    const page = await newPage(t);
    t.equal((await page.goto(p.paymentUrl))?.status(), 200);
    t.equal(await page.locator('h1').textContent(), 'Payment completed', 'opening it later shows the result');
  });
});
