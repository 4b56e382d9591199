/**
 * A QA session by hand, kept as a regression test (real Chromium, a listening obsim): in a
 * sandbox of its own, a merchant fills in the hosted onboarding form (registry lookup, bank,
 * billing agreement) and a payer first forgets to pick a bank, then approves on the payment page;
 * QA then presses "Record as scenario" on the console's requests page. The recording shown and
 * downloaded is the same file, it validates, names no secret, and passes when run with
 * --isolate on a fresh sandbox.
 */
import t from 'tap';
import { parse } from 'yaml';
import { parseScenarioText, validateScenario } from '../../src/scenarios/loader.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { httpTransport } from '../../src/scenarios/transport.js';
import { failure } from '../helpers/scenarios.js';
import { browserMissing, browserSession, consoleSignIn, inCI } from '../helpers/browser.js';
import { scaled } from '../helpers/speed.js';

const missing = browserMissing();
const skip = missing && inCI() ? 'chromium missing in CI: test/browser/pages.test.ts fails for it' : missing;

t.test(
  'a session driven by hand through the hosted pages, recorded from the console, replays',
  { skip, timeout: scaled(120_000) },
  async (t) => {
    const session = await browserSession(t);
    const { baseUrl, receiver } = session;
    const created = (await (
      await fetch(`${baseUrl}/_sandbox/sandboxes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"qa-by-hand"}',
      })
    ).json()) as { sandboxId: string; credentials: { clientId: string; clientSecret: string } };
    const creds = created.credentials;
    const api = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          'x-partner-client-id': creds.clientId,
          'x-partner-client-secret': creds.clientSecret,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      t.ok(res.ok, `${method} ${path}: ${res.status}`);
      return (await res.json()) as T;
    };

    await api('POST', '/v1/partner/webhooks', {
      url: `${receiver.url}/webhooks`,
      events: ['merchant.onboarding.completed', 'payment.completed', 'payment.failed'],
    });
    const onboarding = await api<{ merchantId: number; onboardingUrl: string }>('POST', '/v1/partner/merchants', {
      companyName: 'Fjordcykler A/S',
      contactEmail: 'ejer@fjordcykler.example',
    });
    const { page } = await session.newPage(t);
    await page.goto(onboarding.onboardingUrl);
    await page.locator('#f-lookup').fill('20000007');
    await page.locator('#f-lookup').press('Enter');
    await page.locator('text=Found Fjordcykler A/S in the registry').waitFor();
    await page.locator('#f-bankId').selectOption('nordlys-bank');
    await page.locator('#f-iban').fill('DK50 0040 0440 1162 43');
    await page.locator('#f-billingAgreement').check();
    await page.getByRole('button', { name: 'Submit onboarding' }).click();
    await page.locator('h1', { hasText: 'Onboarding submitted' }).waitFor();

    const shop = await api<{ clientId: string }>('POST', '/v1/partner/merchants/test', { companyName: 'Hand Shop ApS' });
    const payment = await api<{ paymentId: number; paymentUrl: string }>('POST', '/v1/partner/payments', {
      merchantClientId: shop.clientId,
      amount: 249.95,
      referenceNumber: 'qa-hand-1',
    });
    await page.goto(payment.paymentUrl);
    await page.getByRole('button', { name: 'Approve payment' }).click();
    await page.locator('#f-bankId-error').waitFor(); // forgot the bank: refused, and recorded as refused
    await page.getByLabel('Nordlys Bank').check();
    await page.getByRole('button', { name: 'Approve payment' }).click();
    await page.locator('h1', { hasText: /Payment (approved|complete|received)/ }).waitFor();
    await api('POST', '/_sandbox/clock/advance', { duration: '10s' });

    const console = await session.newPage(t);
    await consoleSignIn(console.page, baseUrl, creds.clientId, creds.clientSecret);
    await console.page.goto(`${baseUrl}/console/requests`);
    await console.page.getByLabel('Scenario name').fill('qa-by-hand');
    await console.page.getByRole('button', { name: 'Record as scenario' }).click();
    await console.page.locator('h1', { hasText: 'Recorded scenario' }).waitFor();
    const shown = (await console.page.locator('pre.scenario-draft').textContent()) ?? '';
    const [download] = await Promise.all([
      console.page.waitForEvent('download'),
      console.page.getByRole('link', { name: 'Download the scenario (.yaml)' }).click(),
    ]);
    t.equal(download.suggestedFilename(), 'qa-by-hand.yaml');
    const downloaded = await new Promise<string>((resolve, reject) => {
      void download.createReadStream().then((stream) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        stream.on('error', reject);
      }, reject);
    });
    t.equal(downloaded, shown, 'the file downloaded is the one shown');

    const doc = parse(shown) as { name: string; steps: Record<string, any>[] };
    t.equal(doc.name, 'qa-by-hand');
    const requests = doc.steps.filter((s) => s.request).map((s) => `${s.request.method} ${s.request.path} ${s.request.expect.status}`);
    t.ok(requests.includes('GET /onboarding/${onboardingToken} 200'), 'the merchant opening the form');
    t.ok(requests.includes('POST /onboarding/${onboardingToken} 303'), 'the form submitted');
    t.ok(requests.includes('POST ${paymentUrl} 400'), 'the payer forgetting the bank');
    t.ok(requests.includes('POST ${paymentUrl} 303'), 'the payer approving');
    const form = doc.steps.find(
      (s) => s.request?.method === 'POST' && s.request.path === '${paymentUrl}' && s.request.expect.status === 303,
    );
    t.match(form!.request, { auth: 'none', form: { bankId: 'nordlys-bank', decision: 'approve' } });
    t.ok(doc.steps.some((s) => s.advanceClock === '10s'));
    t.ok(doc.steps.some((s) => s.expectWebhook?.event === 'merchant.onboarding.completed'));
    t.ok(doc.steps.some((s) => s.expectWebhook?.event === 'payment.completed'));
    t.notOk(shown.includes(creds.clientSecret), 'no secret');

    const scenario = validateScenario(parseScenarioText(shown, 'qa-by-hand.yaml'), 'qa-by-hand.yaml');
    const replay = await runScenario(scenario, { transport: httpTransport(baseUrl), isolate: true });
    t.ok(replay.passed, `the recording passes on a fresh sandbox${failure(replay)}\n${shown}`);
  },
);
