/**
 * The hosted pages in a real headless browser (Debian's chromium via playwright-core): a real
 * listening obsim, a loopback receiver for webhooks and the consent callback, and the payer /
 * merchant / bank user clicking and typing. Skipped with a message when chromium is absent,
 * except in CI (CI=true, as .ci/run sets): there a missing browser fails (test/browser/ci.test.ts).
 */
import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { browserMissing, browserSession, CHROMIUM_PATH, inCI, partner, signatureValid } from '../helpers/browser.js';
import { scaled } from '../helpers/speed.js';

const missing = browserMissing();
// in CI a missing browser is red: the hosted pages must really be driven there (.ci/run installs chromium)
if (missing && inCI()) {
  t.fail(
    `${CHROMIUM_PATH} is not installed and CI is set (CI=${process.env.CI}): the browser tests must run in CI, not be skipped (apt-get install chromium)`,
  );
}
const skip = missing && inCI() ? 'chromium missing in CI: failed above' : missing;

/** A property of the focused element (default: its id). */
const focused = (page: Page, prop: 'id' | 'name' | 'textContent' = 'id') =>
  page.evaluate<string>(`document.activeElement ? String(document.activeElement.${prop} ?? '') : ''`);

/** The focused element's id once a page that may autofocus has had the chance (the browser applies it after rendering). */
async function autofocused(page: Page): Promise<string> {
  await page
    .waitForFunction('document.activeElement !== null && document.activeElement !== document.body', undefined, { timeout: scaled(5_000) })
    .catch(() => undefined);
  return focused(page);
}

t.test('hosted pages in chromium', { skip, timeout: scaled(90_000) }, async (t) => {
  const { app, baseUrl, receiver, newPage } = await browserSession(t, { jwtSecret: 'browser-test-secret-0123456789abcdef0123456789' });
  const hook = await partner(baseUrl, 'POST', '/v1/partner/webhooks', {
    url: `${receiver.url}/webhooks`,
    events: ['payment.completed', 'payment.failed', 'merchant.onboarding.completed'],
  });
  const shop = await partner(baseUrl, 'POST', '/v1/partner/merchants/test', { companyName: 'Browser Shop ApS' });

  const onlyLocal = (t: Test, urls: string[]) =>
    t.same(
      urls.filter((u) => !u.startsWith(baseUrl) && !u.startsWith(receiver.url)),
      [],
      'no request leaves obsim (no external assets)',
    );

  async function payment(amount = 249.95) {
    const p = await partner(baseUrl, 'POST', '/v1/partner/payments', {
      merchantClientId: shop.clientId,
      amount,
      referenceNumber: `ORDER-${amount}`,
    });
    return p as { paymentId: number; paymentUrl: string };
  }
  async function deliveries(event: string) {
    await app.webhooks.drain();
    return receiver.received.filter((r) => r.url === '/webhooks' && JSON.parse(r.body).event === event);
  }
  const status = (id: number) => app.db.prepare('SELECT status, failure_reason, bank_id FROM payments WHERE id = ?').get(id);

  await t.test('payment: keyboard only (Tab, Space, arrow, Enter) -> paid, signed payment.completed received', async (t) => {
    const { page, requested } = await newPage(t);
    const p = await payment(249.95);
    t.match(p.paymentUrl, baseUrl);
    const first = await page.goto(p.paymentUrl);
    t.equal(first?.status(), 200);
    t.equal(await page.locator('h1').textContent(), 'Pay Browser Shop ApS');
    // Tab until the bank radio group has focus
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      if ((await focused(page, 'name')) === 'bankId') break;
    }
    t.equal(await focused(page), 'f-bankId', 'Tab reaches the first bank');
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown'); // moves to and selects the second bank
    t.equal(await page.locator('input[name=bankId]:checked').getAttribute('value'), 'fjord-sparekasse');
    await page.keyboard.press('Tab');
    t.equal(await focused(page, 'textContent'), 'Approve payment', 'Tab reaches the Approve button');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'Payment completed' }).waitFor();
    t.equal(new URL(page.url()).pathname, new URL(p.paymentUrl).pathname, 'POST-redirect-GET back to the payment page');
    t.match(await page.locator('main').textContent(), /Fjord Sparekasse[\s\S]*DKK 249\.95|DKK 249\.95[\s\S]*Fjord Sparekasse/);
    t.match(status(p.paymentId), { status: 'paid', bank_id: 'fjord-sparekasse' });
    const [delivery] = await deliveries('payment.completed');
    t.ok(delivery, 'payment.completed delivered to the receiver');
    t.ok(signatureValid(delivery, hook.secret), 'X-Webhook-Signature = HMAC-SHA256(secret, raw body)');
    t.match(JSON.parse(delivery.body).data, {
      paymentId: p.paymentId,
      status: 'paid',
      amount: 249.95,
      bankPaymentStatus: 'AcceptedSettlementCompleted',
    });
    onlyLocal(t, requested);
  });

  await t.test('payment: reject at the bank -> failed page, payment.failed bank_rejected', async (t) => {
    const { page } = await newPage(t);
    const p = await payment(80);
    await page.goto(p.paymentUrl);
    await page.getByRole('button', { name: 'Approve payment' }).click();
    await page.locator('#f-bankId-error').waitFor();
    t.equal(
      await page.locator('#f-bankId-error').textContent(),
      'Error: Choose your bank.',
      'approving without a bank: error next to the bank list',
    );
    t.equal(await autofocused(page), 'f-bankId', 'focus on the bank list');
    await page.getByLabel('Nordlys Bank').check();
    await page.getByRole('button', { name: 'Reject at the bank' }).click();
    await page.locator('h1', { hasText: 'Payment failed' }).waitFor();
    t.match(await page.locator('main').textContent(), 'The bank rejected the payment.');
    t.match(status(p.paymentId), { status: 'failed', failure_reason: 'bank_rejected' });
    const failed = (await deliveries('payment.failed')).map((d) => JSON.parse(d.body).data);
    t.match(
      failed.find((d) => d.paymentId === p.paymentId),
      { status: 'failed', failureReason: 'bank_rejected' },
    );
  });

  await t.test('payment: cancel -> failed page, payer_abandoned', async (t) => {
    const { page } = await newPage(t);
    const p = await payment(81);
    await page.goto(p.paymentUrl);
    await page.getByRole('button', { name: 'Cancel payment' }).click();
    await page.locator('h1', { hasText: 'Payment failed' }).waitFor();
    t.match(await page.locator('main').textContent(), 'cancelled');
    t.match(status(p.paymentId), { status: 'failed', failure_reason: 'payer_abandoned' });
    const failed = (await deliveries('payment.failed')).map((d) => JSON.parse(d.body).data);
    t.match(
      failed.find((d) => d.paymentId === p.paymentId),
      { failureReason: 'payer_abandoned' },
    );
    // the result stays on reload
    const again = await page.reload();
    t.equal(again?.status(), 200);
    t.match(await page.locator('h1').textContent(), 'Payment failed');
  });

  await t.test(
    'standard onboarding: empty submit by keyboard -> errors next to fields; lookup, add a person, submit -> awaiting_approval',
    async (t) => {
      const { page, requested } = await newPage(t);
      const m = await partner(baseUrl, 'POST', '/v1/partner/merchants', { companyName: 'Keyboard Shop ApS', contactEmail: 'kb@shop.test' });
      await page.goto(m.onboardingUrl);
      t.equal(await page.locator('h1').textContent(), 'Merchant onboarding');
      // keyboard: Tab to the registration number of the main form, press Enter (implicit submission)
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Tab');
        if ((await focused(page)) === 'f-registrationNumber') break;
      }
      t.equal(await focused(page), 'f-registrationNumber');
      const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.keyboard.press('Enter')]);
      t.equal(response.status(), 400, 'invalid submission answers 400');
      await page.locator('.error-summary').waitFor();
      t.equal(await autofocused(page), 'f-registrationNumber', 'focus on the first invalid field');
      t.equal(await page.locator('#f-registrationNumber').getAttribute('aria-invalid'), 'true');
      t.match(await page.locator('#f-registrationNumber').getAttribute('aria-describedby'), 'f-registrationNumber-error');
      t.match(await page.locator('#f-registrationNumber-error').textContent(), 'Enter the company registration number (CVR).');
      t.match(await page.locator('#f-ubos-0-fullName-error').textContent(), 'Enter at least one beneficial owner');
      t.match(await page.locator('#f-iban-error').textContent(), 'Enter the IBAN');
      t.match(await page.locator('#f-billingAgreement-error').textContent(), 'Accept the billing agreement');
      t.equal(await page.locator('#f-companyName').inputValue(), 'Keyboard Shop ApS', 'entered values kept');
      // error summary links move focus to the field
      await page.locator('.error-summary a[href="#f-iban"]').click();
      t.equal(await focused(page), 'f-iban');

      // registry lookup (its own form): type and press Enter
      await page.locator('#f-lookup').fill('20000007');
      await page.locator('#f-lookup').press('Enter');
      await page.locator('text=Found Fjordcykler A/S in the registry').waitFor();
      t.equal(await page.locator('#f-companyName').inputValue(), 'Fjordcykler A/S');
      t.equal(await page.locator('#f-city').inputValue(), 'Aarhus C');
      t.equal(await page.locator('#f-ubos-1-fullName').inputValue(), 'Ida Bruun Sørensen');

      // add a signatory: the new row gets focus, type into it
      await page.getByRole('button', { name: 'Add another signatory' }).click();
      await page.locator('#f-signatories-1-fullName').waitFor();
      t.equal(await autofocused(page), 'f-signatories-1-fullName', 'new row focused');
      await page.keyboard.type('Karl Keyboard');
      await page.locator('#f-bankId').selectOption('nordlys-bank');
      await page.locator('#f-iban').fill('DK50 0040 0440 1162 43');
      await page.locator('#f-billingAgreement').focus();
      await page.keyboard.press('Space');
      t.ok(await page.locator('#f-billingAgreement').isChecked(), 'Space ticks the billing agreement');
      await page.getByRole('button', { name: 'Submit onboarding' }).click();
      await page.locator('h1', { hasText: 'Onboarding submitted' }).waitFor();
      t.match(await page.locator('main').textContent(), 'awaiting approval');
      const row = app.db.prepare('SELECT status, details FROM merchants WHERE id = ?').get(m.merchantId) as {
        status: string;
        details: string;
      };
      t.equal(row.status, 'awaiting_approval');
      const onboarding = JSON.parse(row.details).onboarding;
      t.same(
        onboarding.signatories.map((s: { fullName: string }) => s.fullName),
        ['Ida Bruun Sørensen', 'Karl Keyboard'],
      );
      t.equal(onboarding.bankLinking.iban, 'DK5000400440116243');
      const [event] = (await deliveries('merchant.onboarding.completed')).filter(
        (d) => JSON.parse(d.body).data.merchantId === m.merchantId,
      );
      t.ok(event && signatureValid(event, hook.secret), 'merchant.onboarding.completed delivered, signed');
      onlyLocal(t, requested);
    },
  );

  await t.test('fast-track completion: bank + billing agreement -> awaiting_approval', async (t) => {
    const { page } = await newPage(t);
    const m = await partner(baseUrl, 'POST', '/v1/partner/merchants/fast-track', {
      companyName: 'Fast Lane ApS',
      contactEmail: 'ops@fastlane.test',
      registrationNumber: '12345678',
      website: 'https://fastlane.test',
      iban: 'DK5000400440116243',
    });
    await page.goto(m.onboardingUrl);
    t.equal(await page.locator('h1').textContent(), 'Complete your onboarding');
    await page.getByRole('button', { name: 'Complete onboarding' }).click();
    await page.locator('#f-bankId-error').waitFor();
    t.equal(await autofocused(page), 'f-bankId');
    await page.locator('#f-bankId').selectOption('fjord-sparekasse');
    await page.getByLabel('I accept the billing agreement on behalf of the company').check();
    await page.getByRole('button', { name: 'Complete onboarding' }).click();
    await page.locator('h1', { hasText: 'Onboarding submitted' }).waitFor();
    t.equal(app.db.prepare('SELECT status FROM merchants WHERE id = ?').pluck().get(m.merchantId), 'awaiting_approval');
  });

  await t.test('consent page: choose a bank, authorize -> redirected to the callbackUrl with consentId and status', async (t) => {
    const { page } = await newPage(t);
    const userId = 'browser-user-1';
    const tokenRes = await fetch(`${baseUrl}/v1/auth/generate-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId, merchantId: shop.merchantId, permissions: ['ais:accounts:read'] }),
    });
    const { token } = (await tokenRes.json()) as { token: string };
    const consentRes = await fetch(`${baseUrl}/v1/ais/consents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        userId,
        merchantId: shop.merchantId,
        permissions: ['ReadAccountsDetail', 'ReadBalances'],
        expirationDateTime: app.clock.iso(30 * 86_400_000),
        transactionFromDateTime: '2025-06-01T00:00:00.000Z',
        callbackUrl: `${receiver.url}/callback?state=xyz`,
      }),
    });
    t.equal(consentRes.status, 200);
    const consent = (await consentRes.json()) as { requestId: string; authorizationUrl: string };
    await page.goto(consent.authorizationUrl);
    await page.getByLabel('Nordlys Bank').check();
    await page.getByRole('button', { name: 'Authorize access' }).click();
    await page.waitForURL(`${receiver.url}/callback**`);
    const url = new URL(page.url());
    t.equal(url.searchParams.get('state'), 'xyz', 'the partner query string is kept');
    t.equal(url.searchParams.get('status'), 'authorized');
    t.equal(url.searchParams.get('requestId'), consent.requestId);
    t.match(url.searchParams.get('consentId'), /.+/);
    t.equal(await page.locator('h1').textContent(), 'Back at the partner');
  });

  await t.test('consent page: keyboard only (Tab, Space, arrow, Enter) -> authorized, result page, accounts readable', async (t) => {
    const { page, requested } = await newPage(t);
    const userId = 'user-typical';
    const tokenRes = await fetch(`${baseUrl}/v1/auth/generate-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId, merchantId: shop.merchantId, permissions: ['ais:accounts:read'] }),
    });
    const { token } = (await tokenRes.json()) as { token: string };
    const bearer = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    // no callbackUrl: the bank page itself shows the result
    const consentRes = await fetch(`${baseUrl}/v1/ais/consents`, {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({
        userId,
        merchantId: shop.merchantId,
        permissions: ['ReadAccountsDetail'],
        expirationDateTime: app.clock.iso(30 * 86_400_000),
        transactionFromDateTime: '2025-06-01T00:00:00.000Z',
      }),
    });
    t.equal(consentRes.status, 200);
    const consent = (await consentRes.json()) as { requestId: string; authorizationUrl: string };
    const first = await page.goto(consent.authorizationUrl);
    t.equal(first?.status(), 200);
    t.match(await page.locator('h1').textContent(), 'Browser Shop ApS asks for access to your accounts');
    // Tab until the bank radio group has focus
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      if ((await focused(page, 'name')) === 'bankId') break;
    }
    t.equal(await focused(page), 'f-bankId', 'Tab reaches the first bank');
    await page.keyboard.press('Space');
    t.equal(await page.locator('input[name=bankId]:checked').getAttribute('value'), 'nordlys-bank', 'Space selects it');
    await page.keyboard.press('ArrowDown'); // moves to and selects the second bank
    t.equal(await page.locator('input[name=bankId]:checked').getAttribute('value'), 'fjord-sparekasse', 'an arrow key moves the choice');
    await page.keyboard.press('Tab');
    t.equal(await focused(page, 'textContent'), 'Authorize access', 'Tab reaches the Authorize button');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'Access authorized' }).waitFor();
    t.equal(
      new URL(page.url()).pathname,
      new URL(consent.authorizationUrl).pathname,
      'POST-redirect-GET back to the bank page, which shows the result',
    );

    const row = app.store.consents.get(consent.requestId)!;
    t.match(row, { status: 'authorized', bank_id: 'fjord-sparekasse' });
    t.match(await page.locator('main').textContent(), row.consent_id!, 'the result page names the consent id');
    const accounts = await fetch(`${baseUrl}/v1/ais/accounts`, {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({ userId, merchantId: shop.merchantId }),
    });
    t.equal(accounts.status, 200, 'the authorized consent lets the partner read accounts');
    t.match(await accounts.json(), { consentId: row.consent_id, totalAccounts: 3 });
    const again = await page.reload();
    t.equal(again?.status(), 200);
    t.match(await page.locator('h1').textContent(), 'Access authorized', 'a reload shows the result and decides nothing');
    onlyLocal(t, requested);
  });

  await t.test('expired onboarding link: 410 page asking for a new link', async (t) => {
    const { page } = await newPage(t);
    const m = await partner(baseUrl, 'POST', '/v1/partner/merchants', { companyName: 'Late Shop ApS', contactEmail: 'late@shop.test' });
    app.clock.advance(8 * 86_400_000);
    const res = await page.goto(m.onboardingUrl);
    t.equal(res?.status(), 410);
    t.equal(await page.locator('h1').textContent(), 'This onboarding link has expired');
    t.match(await page.locator('main').textContent(), 'resend the onboarding link');
  });
});
