/**
 * The webhook delivery worker: sends outbox deliveries after commit.
 *
 * - Woken after every commit (store.onCommit) and at start; never claims while a group
 *   transaction is open (its events are not committed yet); never awaited by a
 *   request, so a slow receiver cannot slow the API down.
 * - Claims pending rows in a transaction (state 'delivering', attempted_at, signature), then
 *   POSTs them concurrently (up to `concurrency` in flight), so one hanging receiver never
 *   delays the others.
 * - One limit on the whole exchange (connect + headers + body): AbortSignal.timeout(10 s).
 *   Redirects are not followed (a 3xx is recorded as outcome `redirect`). The response body is
 *   always dumped with a size cap, never buffered. No automatic retries (contract rule 4).
 * - Rows left 'delivering' by a crash are re-attempted at start, with the same X-Webhook-Id and
 *   the same body bytes (the receiver de-duplicates on X-Webhook-Id).
 */
import { performance } from 'node:perf_hooks';
import type { Agent } from 'undici';
import { lazyRequire } from '../lazy.js';
import type { VirtualClock } from '../clock.js';
import type { ClaimedDelivery, DeliveryResult } from '../store/deliveries.js';
import type { Store } from '../store/index.js';
import { sign } from './sign.js';

/** Contract: the receiver answers within 10 seconds. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Deliveries in flight at once. */
export const DELIVERY_CONCURRENCY = 256;
/**
 * Deliveries claimed and started per turn of the event loop: a burst (1,000 payments settling at
 * once) is sent 32 at a time with the loop given back in between, instead of 256 requests started
 * in one go while every API request waits.
 */
export const CLAIM_CHUNK = 32;
/** Bytes of a response body read (and discarded) before the connection is dropped. */
export const RESPONSE_DUMP_LIMIT = 64 * 1024;
export const USER_AGENT = 'obsim-webhooks/1';

/** undici is loaded with the first delivery (start-up time). */
const undici = lazyRequire<typeof import('undici')>('undici');

export type DeliveryOutcome = 'delivered' | 'timeout' | 'connection_refused' | 'connection_reset' | 'non_2xx' | 'redirect' | 'error';

export interface WebhookWorkerOptions {
  store: Store;
  clock: VirtualClock;
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  timeoutMs?: number;
  concurrency?: number;
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>;

export function createWebhookWorker(options: WebhookWorkerOptions) {
  const { store, clock } = options;
  const { deliveries } = store;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const concurrency = options.concurrency ?? DELIVERY_CONCURRENCY;
  let agent: Agent | undefined;
  const dispatcher = (): Agent => (agent ??= new (undici().Agent)({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 5_000 }));
  const closing = new AbortController();

  const inFlight = new Set<Promise<void>>();
  let started = false;
  let stopped = false;
  let scheduled = false;

  /** Claim up to `limit` pending deliveries, each signed with its webhook's secret. */
  const claim = (limit: number): ClaimedDelivery[] =>
    deliveries.claim(limit, clock.iso(), (row) => (row.secret === null ? null : sign(row.secret, row.body)));

  function pump(): void {
    scheduled = false;
    if (!started || stopped) return;
    const room = concurrency - inFlight.size;
    if (room <= 0) return;
    // a group transaction is open: its events are not committed yet, so none may leave; the
    // after-commit listener kicks again right after its COMMIT
    if (store.groupOpen) return;
    let rows: ClaimedDelivery[];
    try {
      // the worker is kicked after every commit; most commits create no delivery, so look
      // (one index probe) before opening a claim transaction
      if (!deliveries.anyPending()) return;
      rows = claim(Math.min(room, CLAIM_CHUNK));
    } catch (err) {
      if (!stopped) options.log?.error({ err }, 'webhook worker: cannot claim deliveries');
      return;
    }
    for (const row of rows) {
      const p: Promise<void> = deliver(row).finally(() => {
        inFlight.delete(p);
        kick();
      });
      inFlight.add(p);
    }
    // a full chunk: there may be more, claimed next turn (other work runs in between)
    if (rows.length === CLAIM_CHUNK) kick();
  }

  /** Look for pending deliveries soon (coalesced; never blocks the caller). */
  function kick(): void {
    if (scheduled || stopped || !started) return;
    scheduled = true;
    setImmediate(pump);
  }

  async function deliver(row: ClaimedDelivery): Promise<void> {
    const began = performance.now();
    const result = await send(row);
    if (stopped && result.outcome === 'aborted') return; // closing: leave it 'delivering', resumed at next start
    const durationMs = Math.round(performance.now() - began);
    await recordSoon({
      id: row.id,
      state: result.outcome === 'delivered' ? 'delivered' : 'failed',
      status_code: result.statusCode,
      outcome: result.outcome === 'aborted' ? 'error' : result.outcome,
      error: result.error,
      duration_ms: durationMs,
    });
  }

  // Results are written in one transaction per turn of the event loop instead of one commit
  // per delivery (a burst of 1,000 deliveries was 1,000 WAL commits competing with the API).
  // deliver() resolves only once its row is written, so drain() and the delivery log see it.
  let toRecord: DeliveryResult[] = [];
  let recorded: Promise<void> | undefined;
  function recordSoon(outcome: DeliveryResult): Promise<void> {
    toRecord.push(outcome);
    recorded ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        const rows = toRecord;
        toRecord = [];
        recorded = undefined;
        try {
          deliveries.recordAll(rows);
        } catch (err) {
          if (!stopped) options.log?.error({ err }, 'webhook worker: cannot record a delivery');
        }
        resolve();
      }),
    );
    return recorded;
  }

  async function send(
    row: ClaimedDelivery,
  ): Promise<{ outcome: DeliveryOutcome | 'aborted'; statusCode: number | null; error: string | null }> {
    if (row.secret === null || row.signature === null) {
      return { outcome: 'error', statusCode: null, error: 'the webhook no longer exists' };
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([timeout, closing.signal]);
    try {
      const res = await undici().request(row.url, {
        method: 'POST',
        dispatcher: dispatcher(), // a plain Agent: no redirect interceptor, so 3xx is returned as is
        signal,
        headers: {
          'content-type': 'application/json',
          'x-webhook-signature': row.signature,
          'x-webhook-id': row.event_id,
          'user-agent': USER_AGENT,
        },
        body: row.body,
      });
      // always consume (up to a cap) or cancel the body; the same signal bounds the whole exchange
      await res.body.dump({ limit: RESPONSE_DUMP_LIMIT, signal }).catch(() => undefined);
      if (timeout.aborted) return { outcome: 'timeout', statusCode: null, error: `no complete answer within ${timeoutMs} ms` };
      const status = res.statusCode;
      if (status >= 200 && status < 300) return { outcome: 'delivered', statusCode: status, error: null };
      if (status >= 300 && status < 400) {
        const location = res.headers.location;
        return { outcome: 'redirect', statusCode: status, error: `redirect to ${String(location ?? '(no Location)')} not followed` };
      }
      return { outcome: 'non_2xx', statusCode: status, error: `receiver answered ${status}` };
    } catch (err) {
      if (timeout.aborted) return { outcome: 'timeout', statusCode: null, error: `no complete answer within ${timeoutMs} ms` };
      if (closing.signal.aborted) return { outcome: 'aborted', statusCode: null, error: 'obsim stopped' };
      return classify(err);
    }
  }

  const offCommit = store.onCommit(kick);

  return {
    /** Re-attempt rows a crash left 'delivering', then send everything pending. */
    start(): void {
      if (started) return;
      started = true;
      deliveries.resumeInterrupted();
      kick();
    },
    kick,
    /** Resolves when nothing is pending or in flight (tests). */
    async drain(): Promise<void> {
      for (;;) {
        await store.committed()?.catch(() => undefined);
        if (inFlight.size === 0) {
          if (!started || stopped || deliveries.countPending() === 0) return;
          pump();
          if (inFlight.size === 0) {
            if (store.groupOpen) continue; // a new group opened meanwhile: wait for its commit, then claim
            return;
          }
        }
        await Promise.allSettled([...inFlight]);
      }
    },
    /** Stop claiming, abort what is in flight (left 'delivering', resumed at next start). */
    async stop(): Promise<void> {
      stopped = true;
      offCommit();
      closing.abort();
      await Promise.allSettled([...inFlight]);
      await agent?.close().catch(() => undefined);
    },
    get inFlight(): number {
      return inFlight.size;
    },
  };
}

function classify(err: unknown): { outcome: DeliveryOutcome; statusCode: null; error: string } {
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e?.code ?? e?.cause?.code;
  const message = `${code ? `${code}: ` : ''}${e?.message ?? String(err)}`;
  if (code === 'ECONNREFUSED') return { outcome: 'connection_refused', statusCode: null, error: message };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return { outcome: 'connection_reset', statusCode: null, error: message };
  return { outcome: 'error', statusCode: null, error: message };
}
