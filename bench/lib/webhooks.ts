/**
 * The webhook case: a loopback receiver that timestamps every delivery and checks its
 * signature, and the two measurements built on it:
 *
 * - burst: N payments settle at once (one POST /_sandbox/clock/advance past the settle delay on
 *   a frozen clock) -> N signed deliveries; latency from the trigger to each receipt, and the API
 *   p99 (GET onboarding-status, open-loop probe at a fixed rate) during the burst vs quiet;
 * - paced: payments completed one by one at a fixed rate (POST /_sandbox/payments/{id}/complete,
 *   200 events/s by default); latency from each trigger to its receipt.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoadGenerator, LoadSummary } from './load.js';
import { ok } from './http.js';
import { createMerchant, PARTNER_HEADERS, registerWebhook } from './obsim.js';
import { sleep } from './proc.js';
import { percentile, round } from './stats.js';

interface Receipt {
  at: number;
  raw: Buffer;
  signature: string;
  webhookId: string;
  parsed?: { paymentId: number | null; event: string; signatureOk: boolean };
}

export class Receiver {
  readonly receipts: Receipt[] = [];
  secret = '';
  private server: HttpServer;
  private waiters: { n: number; resolve: () => void }[] = [];

  constructor() {
    // the receiver only timestamps and keeps the bytes while deliveries arrive (it shares a core
    // with the load generator); signatures and bodies are checked afterwards (details())
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        this.receipts.push({
          at,
          raw: Buffer.concat(chunks),
          signature: String(req.headers['x-webhook-signature'] ?? ''),
          webhookId: String(req.headers['x-webhook-id'] ?? ''),
        });
        this.waiters = this.waiters.filter((w) => (this.receipts.length >= w.n ? (w.resolve(), false) : true));
      });
    });
    this.server.keepAliveTimeout = 30_000;
  }

  /** Event name, paymentId and signature validity of a receipt (computed once, after the fact). */
  details(r: Receipt): { paymentId: number | null; event: string; signatureOk: boolean } {
    if (!r.parsed) {
      const expected = createHmac('sha256', this.secret).update(r.raw).digest('hex');
      let paymentId: number | null = null;
      let event = '';
      try {
        const body = JSON.parse(r.raw.toString('utf8'));
        event = body.event;
        paymentId = typeof body.data?.paymentId === 'number' ? body.data.paymentId : null;
      } catch {
        /* counted as a bad delivery */
      }
      const signatureOk = r.signature.length === expected.length && timingSafeEqual(Buffer.from(r.signature), Buffer.from(expected));
      r.parsed = { paymentId, event, signatureOk };
    }
    return r.parsed;
  }

  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves when `n` deliveries in total have arrived, or after timeoutMs. */
  waitFor(n: number, timeoutMs: number): Promise<boolean> {
    if (this.receipts.length >= n) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push({ n, resolve: () => (clearTimeout(timer), resolve(true)) });
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

export interface WebhookResult {
  events: number;
  burst: {
    delivered: number;
    signedOk: number;
    distinctIds: number;
    medianMs: number | null;
    p99Ms: number | null;
    lastMs: number | null;
    advanceCallMs: number;
  };
  paced: {
    ratePerS: number;
    delivered: number;
    signedOk: number;
    medianMs: number | null;
    p99Ms: number | null;
    maxMs: number | null;
  };
  api: { rate: number; quiet: LoadSummary; burst: LoadSummary; paced: LoadSummary };
}

/** Create `n` payments (bounded concurrency) on a frozen clock; returns their ids. */
async function createPayments(base: string, clientId: string, n: number, tag: string): Promise<number[]> {
  const ids: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const p = await ok(
        base,
        'POST',
        '/v1/partner/payments',
        { merchantClientId: clientId, amount: 125.5, referenceNumber: `wh-${tag}-${i}` },
        PARTNER_HEADERS,
      );
      ids.push(p.paymentId);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return ids;
}

export async function webhookCase(opts: {
  base: string;
  receiver: Receiver;
  receiverUrl: string;
  load: LoadGenerator;
  events: number;
  pacedRate: number;
  apiRate: number;
  apiSeconds: number;
  settleDelayMs: number;
}): Promise<WebhookResult> {
  const { base, receiver, load } = opts;
  const { merchantId, clientId } = await createMerchant(base);
  const hook = await registerWebhook(base, opts.receiverUrl);
  receiver.secret = hook.secret;
  // the probe runs in the load-generator process, away from this process's receiver
  const apiPath = `/v1/partner/merchants/${merchantId}/onboarding-status`;
  const apiProbe = (seconds: number) =>
    load.run({
      url: base,
      method: 'GET',
      path: apiPath,
      headers: PARTNER_HEADERS,
      connections: 1,
      durationS: seconds,
      probeRate: opts.apiRate,
    });

  // warm the API path and the delivery path (undici loads with the first delivery), then the
  // quiet p99 at the probe rate
  await load.run({
    url: base,
    method: 'GET',
    path: `/v1/partner/merchants/${merchantId}/onboarding-status`,
    headers: PARTNER_HEADERS,
    connections: 50,
    durationS: 1,
  });
  await ok(base, 'POST', `/v1/partner/webhooks/${hook.id}/test`, undefined, PARTNER_HEADERS);
  await receiver.waitFor(1, 5000);
  const quiet = await apiProbe(opts.apiSeconds);

  // burst: N payments settle at once
  const burstIds = await createPayments(base, clientId, opts.events, 'burst');
  const before = receiver.receipts.length;
  const apiDuring = apiProbe(opts.apiSeconds);
  await sleep(Math.min(500, (opts.apiSeconds * 1000) / 4));
  const trigger = performance.now();
  await ok(base, 'POST', '/_sandbox/clock/advance', { ms: opts.settleDelayMs + 1000 }, PARTNER_HEADERS);
  const advanceCallMs = performance.now() - trigger;
  await receiver.waitFor(before + opts.events, 60_000);
  const burstApi = await apiDuring;
  const burstIdSet = new Set(burstIds);
  const pid = (r: (typeof receiver.receipts)[number]) => receiver.details(r).paymentId;
  const burstReceipts = receiver.receipts.slice(before).filter((r) => pid(r) !== null && burstIdSet.has(pid(r)!));
  const burstLat = burstReceipts.map((r) => r.at - trigger);

  // paced: complete payments one by one at pacedRate
  const pacedIds = await createPayments(base, clientId, opts.events, 'paced');
  const sentAt = new Map<number, number>();
  const beforePaced = receiver.receipts.length;
  const pacedApi = apiProbe(Math.max(opts.apiSeconds, Math.ceil(opts.events / opts.pacedRate)));
  await sleep(200);
  const interval = 1000 / opts.pacedRate;
  const t0 = performance.now();
  const inflight: Promise<unknown>[] = [];
  for (let i = 0; i < pacedIds.length; i++) {
    const due = t0 + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const id = pacedIds[i];
    sentAt.set(id, performance.now());
    inflight.push(ok(base, 'POST', `/_sandbox/payments/${id}/complete`, undefined, PARTNER_HEADERS));
  }
  await Promise.all(inflight);
  await receiver.waitFor(beforePaced + opts.events, 30_000);
  const pacedApiResult = await pacedApi;
  const pacedReceipts = receiver.receipts.slice(beforePaced).filter((r) => pid(r) !== null && sentAt.has(pid(r)!));
  const pacedLat = pacedReceipts.map((r) => r.at - sentAt.get(pid(r)!)!);

  return {
    events: opts.events,
    burst: {
      delivered: burstReceipts.length,
      signedOk: burstReceipts.filter((r) => receiver.details(r).signatureOk && receiver.details(r).event === 'payment.completed').length,
      distinctIds: new Set(burstReceipts.map((r) => r.webhookId)).size,
      medianMs: round(percentile(burstLat, 50)),
      p99Ms: round(percentile(burstLat, 99)),
      lastMs: round(burstLat.length ? Math.max(...burstLat) : null),
      advanceCallMs: round(advanceCallMs)!,
    },
    paced: {
      ratePerS: opts.pacedRate,
      delivered: pacedReceipts.length,
      signedOk: pacedReceipts.filter((r) => receiver.details(r).signatureOk && receiver.details(r).event === 'payment.completed').length,
      medianMs: round(percentile(pacedLat, 50)),
      p99Ms: round(percentile(pacedLat, 99)),
      maxMs: round(pacedLat.length ? Math.max(...pacedLat) : null),
    },
    api: { rate: opts.apiRate, quiet, burst: burstApi, paced: pacedApiResult },
  };
}
