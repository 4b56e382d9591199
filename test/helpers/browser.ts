/**
 * Real-browser test harness (not a test file: tap runs *.test.ts only).
 *
 * - `startServer()`: a real listening obsim on 127.0.0.1 with an in-memory database and a frozen
 *   clock. The links obsim hands out (paymentUrl, onboardingUrl, authorizationUrl) must point at
 *   the listening address, and publicUrl is fixed when the app is built, so a free port is found
 *   first (bind port 0, read it, release it) and the app is built for it; on the rare EADDRINUSE
 *   race the whole start is retried with a new port.
 * - `startReceiver()`: a loopback HTTP server that records every request with its raw body
 *   (webhook deliveries, consent callbacks).
 * - `launchBrowser()`: Debian's /usr/bin/chromium through playwright-core — never a downloaded
 *   browser. `CHROMIUM_PATH` says where it is expected; `browserMissing()` gives the skip reason
 *   outside CI; `inCI()` says a missing browser must fail instead.
 */
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp } from '../../src/app.js';
import { VirtualClock } from '../../src/clock.js';
import type { Config } from '../../src/config.js';
import { PARTNER, T0 } from './app.js';
import { scaled } from './speed.js';

/** Debian's chromium; OBSIM_CHROMIUM_PATH points elsewhere (e.g. to check the skip path). */
export const CHROMIUM_PATH = process.env.OBSIM_CHROMIUM_PATH ?? '/usr/bin/chromium';

export function browserMissing(): string | false {
  return existsSync(CHROMIUM_PATH) ? false : `${CHROMIUM_PATH} is not installed (apt-get install chromium); browser tests skipped`;
}

/**
 * Running in CI: `CI` set to anything but empty, `0` or `false` (.ci/run exports CI=true, as do
 * GitHub Actions and most CI systems). There a missing browser is a failure, never a skip.
 */
export function inCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = (env.CI ?? '').trim().toLowerCase();
  return v !== '' && v !== '0' && v !== 'false';
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface Running {
  app: FastifyInstance;
  baseUrl: string;
}

export async function startServer(config: Partial<Config> = {}): Promise<Running> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const app = await buildApp({
      logger: false,
      clock: VirtualClock.create({ start: T0, frozen: true }),
      config: { db: ':memory:', host: '127.0.0.1', port, publicUrl: baseUrl, validateResponses: true, ...config },
    });
    try {
      await app.listen({ port, host: '127.0.0.1' });
      return { app, baseUrl };
    } catch (err) {
      await app.close();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 3) throw err;
    }
  }
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status to answer (default: 200 to everything). */
  answer?: (path: string, headers: IncomingHttpHeaders, body: Buffer) => number;
  close(): Promise<void>;
}

/** Loopback receiver: records everything and answers 200 (or what `answer` says). */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: raw.toString('utf8') });
      res.writeHead(receiver.answer?.(req.url ?? '', req.headers, raw) ?? 200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>receiver</title><h1>Back at the partner</h1>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** Partner API call on the listening server (JSON). */
export async function partner<T = any>(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...PARTNER, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** True when the X-Webhook-Signature of a recorded delivery matches HMAC-SHA256(secret, raw body). */
export function signatureValid(delivery: Received, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(delivery.body, 'utf8').digest('hex');
  return delivery.headers['x-webhook-signature'] === expected;
}

export interface BrowserSession extends Running {
  receiver: Receiver;
  browser: Browser;
  /** A fresh page in its own context (closed with the test) that records every URL it requests. */
  newPage(t: { teardown(fn: () => unknown): void }): Promise<{ page: Page; requested: string[] }>;
}

/** A listening obsim (frozen clock), a loopback receiver and Chromium, all closed when `t` ends. */
export async function browserSession(t: { teardown(fn: () => unknown): void }, config: Partial<Config> = {}): Promise<BrowserSession> {
  const server = await startServer(config);
  const receiver = await startReceiver();
  const browser = await launchBrowser();
  t.teardown(async () => {
    await browser.close();
    await server.app.close();
    await receiver.close();
  });
  return {
    ...server,
    receiver,
    browser,
    async newPage(t) {
      const context = await browser.newContext();
      t.teardown(() => context.close());
      const page = await context.newPage();
      page.setDefaultTimeout(scaled(10_000));
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      return { page, requested };
    },
  };
}

/** Sign in to the console as a partner, as a person does (labels, the button), and wait for the overview. */
export async function consoleSignIn(page: Page, baseUrl: string, clientId = 'sandbox-partner', secret = 'sandbox-secret'): Promise<void> {
  await page.goto(`${baseUrl}/console/sign-in`);
  await page.getByLabel('Client id').fill(clientId);
  await page.getByLabel('Client secret').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('h1', { hasText: 'Overview' }).waitFor();
}
