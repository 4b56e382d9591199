/**
 * Bounded load run: `npm run load` (60 s) or as part of `npm run test:long`; npm test runs a
 * short smoke of the same traffic through runLoad() (test/reliability/load-smoke.test.ts). The real server (`obsim serve`, ./processes.ts) on a temporary database file,
 * autocannon on loopback with mixed traffic (health, lists, payment and merchant creations,
 * status reads, token issuance, delivery listing) and a webhook receiver. Figures printed:
 * requests, errors, non-2xx by status, 5xx, latency p50/p99, RSS of the server in the first and
 * last 20 s. Fails (exit 1) on any error, any 5xx, or RSS growth beyond noise (> 15%).
 *
 *   OBSIM_LOAD_SECONDS=60 OBSIM_LOAD_CONNECTIONS=10 npx tsx test/reliability/load.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BIN } from './processes.js';

/** The part of autocannon's API used here (the package ships no types). */
interface AcRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (r: AcRequest) => AcRequest;
}
interface AcResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
}
type AcInstance = PromiseLike<AcResult> & { on(event: 'response', fn: (client: unknown, statusCode: number) => void): void };
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: {
  url: string;
  connections: number;
  duration: number;
  requests: AcRequest[];
}) => AcInstance;

const PARTNER = {
  'x-partner-client-id': 'sandbox-partner',
  'x-partner-client-secret': 'sandbox-secret',
  'content-type': 'application/json',
};

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export interface LoadResult {
  seconds: number;
  connections: number;
  endpoints: number;
  requests: number;
  perSecond: number;
  errors: number;
  timeouts: number;
  fiveXx: number;
  statuses: Record<string, number>;
  latency: { p50: number; p99: number; max: number };
  /** Mean server RSS (MB) over the first and the last `window` seconds. */
  rss: { window: number; first: number; last: number; growth: number };
  /** The figures as printed (`# load: …` lines without the `# `). */
  lines: string[];
  /** Why the run fails: any error or timeout, any 5xx, any non-2xx, RSS growth > 15% (when checked). */
  failures: string[];
}

/**
 * Start the real server on a temporary database, drive `seconds` of mixed traffic over
 * `connections` connections, stop the server. `checkMemory` false skips the RSS-growth rule (a
 * few seconds are too short for a first/last comparison).
 */
export async function runLoad(opts: { seconds: number; connections: number; checkMemory?: boolean }): Promise<LoadResult> {
  const { seconds: SECONDS, connections: CONNECTIONS, checkMemory = true } = opts;
  const dir = mkdtempSync(join(tmpdir(), 'obsim-load-'));
  const rx = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hook`;

  const child = spawn(process.execPath, [...BIN, 'serve', '--db', join(dir, 'load.sqlite'), '--port', '0', '--log-level', 'warn'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  child.stdout.resume();

  try {
    const post = async (path: string, body: unknown) => {
      const res = await fetch(base + path, { method: 'POST', headers: PARTNER, body: JSON.stringify(body) });
      return (await res.json()) as Record<string, any>;
    };
    await post('/v1/partner/webhooks', { url: hookUrl, events: ['payment.completed', 'payment.failed', 'merchant.activated'] });
    const merchant = await post('/v1/partner/merchants/test', { companyName: 'Load ApS' });
    const payment = await post('/v1/partner/payments', { merchantClientId: merchant.clientId, amount: 12.5, referenceNumber: 'load-0' });

    let n = 0;
    const requests: AcRequest[] = [
      { method: 'GET', path: '/healthz' },
      { method: 'GET', path: '/v1/partner/merchants?page=1&limit=20', headers: PARTNER },
      {
        method: 'POST',
        path: '/v1/partner/payments',
        headers: PARTNER,
        setupRequest: (r) => ({
          ...r,
          body: JSON.stringify({ merchantClientId: merchant.clientId, amount: 1 + (n++ % 900), referenceNumber: `load-${n}` }),
        }),
      },
      { method: 'GET', path: `/v1/partner/payments/${payment.paymentId}/status`, headers: PARTNER },
      {
        method: 'POST',
        path: '/v1/partner/merchants',
        headers: PARTNER,
        setupRequest: (r) => ({ ...r, body: JSON.stringify({ companyName: `Load ${n++} ApS`, contactEmail: `l${n}@load.test` }) }),
      },
      { method: 'GET', path: `/v1/partner/merchants/${merchant.merchantId}/onboarding-status`, headers: PARTNER },
      {
        method: 'POST',
        path: '/v1/auth/generate-token',
        headers: PARTNER,
        body: JSON.stringify({ userId: 'load-user', merchantId: merchant.merchantId, permissions: ['ais:accounts:read'] }),
      },
      { method: 'GET', path: '/_sandbox/deliveries?limit=10', headers: PARTNER },
    ];

    const samples: { at: number; rss: number }[] = [];
    const started = Date.now();
    const sampler = setInterval(() => samples.push({ at: (Date.now() - started) / 1000, rss: rssMb(child.pid!) }), 1000);
    const statuses: Record<string, number> = {};
    const instance = autocannon({ url: base, connections: CONNECTIONS, duration: SECONDS, requests });
    instance.on('response', (_client, statusCode) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
    const result = await instance;
    clearInterval(sampler);

    const window = Math.min(20, Math.floor(SECONDS / 3));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    // one sample a second: the first and the last `window` of them (a run of a few seconds has
    // no sample at or before 1 s, so filtering on time would compare nothing)
    const first = mean(samples.slice(0, window).map((s) => s.rss));
    const last = mean(samples.slice(-window).map((s) => s.rss));
    const fiveXx = Object.entries(statuses)
      .filter(([s]) => Number(s) >= 500)
      .reduce((a, [, c]) => a + c, 0);
    const growth = (last - first) / first;
    const lines = [
      `load: ${SECONDS} s, ${CONNECTIONS} connections, mixed traffic over ${requests.length} endpoints`,
      `load: ${result.requests.total} requests (${Math.round(result.requests.average)}/s), errors ${result.errors}, timeouts ${result.timeouts}, 5xx ${fiveXx}, statuses ${JSON.stringify(statuses)}`,
      `load: latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
      `load: server RSS first ${window} s ${first.toFixed(1)} MB, last ${window} s ${last.toFixed(1)} MB (${(growth * 100).toFixed(1)}%)`,
    ];
    const failures: string[] = [];
    if (result.errors > 0 || result.timeouts > 0) failures.push(`${result.errors} errors, ${result.timeouts} timeouts`);
    if (fiveXx > 0) failures.push(`${fiveXx} responses with 5xx`);
    if (checkMemory && growth > 0.15) failures.push(`RSS grew ${(growth * 100).toFixed(1)}% between the first and last ${window} s`);
    if (Object.keys(statuses).some((s) => Number(s) >= 300)) failures.push(`non-2xx answers: ${JSON.stringify(statuses)}`);
    return {
      seconds: SECONDS,
      connections: CONNECTIONS,
      endpoints: requests.length,
      requests: result.requests.total,
      perSecond: Math.round(result.requests.average),
      errors: result.errors,
      timeouts: result.timeouts,
      fiveXx,
      statuses,
      latency: result.latency,
      rss: { window, first, last, growth },
      lines,
      failures,
    };
  } finally {
    child.kill('SIGTERM');
    rx.close();
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const seconds = Number(process.env.OBSIM_LOAD_SECONDS ?? 60);
  const connections = Number(process.env.OBSIM_LOAD_CONNECTIONS ?? 10);
  const { lines, failures } = await runLoad({ seconds, connections });
  for (const l of lines) console.log(`# ${l}`);
  console.log(failures.length ? `not ok - load: ${failures.join('; ')}` : 'ok - load: 0 errors, 0 5xx, memory flat');
  return failures.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main();
