/**
 * Screenshots of the web console for docs/console.md: `npm run docs:screenshots` (Debian's
 * chromium through playwright-core; OBSIM_CHROMIUM_PATH to use another). Starts an obsim on an
 * in-memory database and a frozen clock, fills it by running shipped scenarios and a few API
 * calls, and writes one PNG per page. test/docs/console.test.ts runs it into a temporary
 * directory and checks the docs' images are the pages it takes.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { defaultConfig } from '../src/config.js';
import { startServer } from '../src/server.js';

export const CHROMIUM = process.env.OBSIM_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** file name (docs/images/console-<name>.png) -> the page, and the window width. */
export const SHOTS: readonly { name: string; path: (ids: Ids) => string; width?: number }[] = [
  { name: 'sign-in', path: () => '/console/sign-in' },
  { name: 'overview', path: () => '/console' },
  { name: 'merchants', path: () => '/console/merchants' },
  { name: 'merchant', path: (ids) => `/console/merchants/${ids.merchantId}` },
  { name: 'payments', path: () => '/console/payments' },
  { name: 'payment', path: (ids) => `/console/payments/${ids.paymentId}` },
  { name: 'consents', path: () => '/console/consents' },
  { name: 'webhooks', path: () => '/console/webhooks' },
  { name: 'delivery', path: (ids) => `/console/deliveries/${ids.deliveryId}` },
  { name: 'requests', path: () => '/console/requests' },
  { name: 'scenarios', path: () => '/console/scenarios' },
  { name: 'contract', path: () => '/console/contract' },
  { name: 'overview-narrow', path: () => '/console', width: 390 },
];

interface Ids {
  merchantId: number;
  paymentId: number;
  deliveryId: number;
}

const HEADERS = { 'x-partner-client-id': 'sandbox-partner', 'x-partner-client-secret': 'sandbox-secret' };

export async function takeScreenshots(outDir: string): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(req.url === '/broken' ? 500 : 200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const server = await startServer(
    {
      ...defaultConfig(),
      port: 0,
      host: '127.0.0.1',
      db: ':memory:',
      logLevel: 'silent',
      clockStart: '2026-03-02T09:00:00Z',
      clockFrozen: true,
      // the example contract version beside the base: the Contract page shows their changelog
      contracts: fileURLToPath(new URL('../examples/contracts', import.meta.url)),
    },
    () => undefined,
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: body === undefined ? HEADERS : { ...HEADERS, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    await api('POST', '/v1/partner/webhooks', {
      url: `${receiverUrl}/webhooks`,
      events: ['payment.completed', 'payment.failed', 'merchant.activated'],
    });
    await api('POST', '/v1/partner/webhooks', { url: `${receiverUrl}/broken`, events: ['payment.failed'] });
    for (const name of [
      'merchant-standard-onboarding',
      'payment-paid',
      'payment-failed-bank-rejected',
      'consent-authorized-read',
      'consent-denied',
    ]) {
      await api('POST', '/_sandbox/scenarios/run', { name });
    }
    const shop = await api<{ merchantId: number; clientId: string }>('POST', '/v1/partner/merchants/test', {
      companyName: 'Nordic Bikes ApS',
    });
    const pending = await api<{ merchantId: number }>('POST', '/v1/partner/merchants', {
      companyName: 'Fjord Coffee ApS',
      contactEmail: 'shop@fjord.test',
    });
    await api('POST', `/_sandbox/merchants/${pending.merchantId}/submit-onboarding`);
    let paymentId = 0;
    for (const [amount, ref] of [
      [249, 'order-1001'],
      [1299.5, 'order-1002'],
      [89, 'order-1003'],
    ] as const) {
      paymentId = (
        await api<{ paymentId: number }>('POST', '/v1/partner/payments', { merchantClientId: shop.clientId, amount, referenceNumber: ref })
      ).paymentId;
    }
    await api('POST', '/_sandbox/clock/advance', { duration: '10s' });
    await api('POST', '/v1/partner/payments', { merchantClientId: shop.clientId, amount: 45, referenceNumber: 'order-1004' });
    await server.app.webhooks.drain();
    const deliveries = await api<{ items: { id: number; event: string }[] }>('GET', '/_sandbox/deliveries?event=payment.completed&limit=1');
    const ids: Ids = { merchantId: pending.merchantId, paymentId, deliveryId: deliveries.items[0].id };

    const written: string[] = [];
    for (const width of [...new Set(SHOTS.map((s) => s.width ?? 1280))]) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      let signedIn = false;
      for (const shot of SHOTS.filter((s) => (s.width ?? 1280) === width)) {
        if (shot.name !== 'sign-in' && !signedIn) {
          signedIn = true;
          await page.goto(`${server.url}/console/sign-in`);
          await page.getByLabel('Client id').fill('sandbox-partner');
          await page.getByLabel('Client secret').fill('sandbox-secret');
          await page.getByRole('button', { name: 'Sign in' }).click();
          await page.locator('h1', { hasText: 'Overview' }).waitFor();
        }
        await page.goto(`${server.url}${shot.path(ids)}`);
        if (shot.name === 'scenarios') {
          await page.locator('tr', { hasText: 'payment-paid' }).first().getByRole('button', { name: 'Run' }).click();
          await page.getByTestId('scenario-result').waitFor();
        }
        if (shot.name !== 'sign-in') await page.locator('body[data-live=open]').waitFor({ state: 'attached' });
        const file = join(outDir, `console-${shot.name}.png`);
        await page.screenshot({ path: file, fullPage: false });
        written.push(file);
      }
      await context.close();
    }
    return written;
  } finally {
    await browser.close();
    await server.close();
    receiver.close();
  }
}

export const USAGE = `usage: npm run docs:screenshots [-- DIR]
       npx tsx scripts/console-screenshots.ts [DIR]

Writes one PNG per console page into DIR (default: docs/images). OBSIM_CHROMIUM_PATH names the
browser (default /usr/bin/chromium).`;

/** The output folder from the command line; a flag is never taken for a folder's name. */
export function screenshotsDir(args: string[]): { dir: string } | { help: true } | { error: string } {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    return { error: (err as Error).message };
  }
  if (parsed.values.help) return { help: true };
  if (parsed.positionals.length > 1) return { error: `one folder at most, got ${parsed.positionals.length}` };
  return { dir: parsed.positionals[0] ?? fileURLToPath(new URL('../docs/images', import.meta.url)) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = screenshotsDir(process.argv.slice(2));
  if ('help' in args) console.log(USAGE);
  else if ('error' in args) {
    console.error(`${args.error}\n\n${USAGE}`);
    process.exitCode = 2;
  } else for (const file of await takeScreenshots(args.dir)) console.log(`wrote ${file}`);
}
