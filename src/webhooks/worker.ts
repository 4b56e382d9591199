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
 * - Seeded chaos (docs/chaos.md): a delivery of a sandbox with a fault profile may be dropped
 *   (recorded failed, outcome chaos_drop, never sent), held (until the sandbox clock has moved,
 *   or for real milliseconds, so others overtake it) or sent again as copies (new deliveries of
 *   the same event, same X-Webhook-Id and bytes, each marked as the duplicate it is).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent } from 'undici';
import type { FaultMark, WebhookFaults } from '../domain/chaos.js';
import type { ClaimedDelivery, DeliveryResult } from '../store/deliveries.js';
import type { Store } from '../store/index.js';
import { formatTraceparent, parseTraceContext } from '../domain/trace-context.js';
import { idsOnly, type DeliverySpan, type Telemetry } from '../telemetry/index.js';
import { DELIVERY_TIMEOUT_MS, deliveryAgent, postWebhook, type PostResult } from './post.js';
import { sign } from './sign.js';

/** Deliveries in flight at once. */
export const DELIVERY_CONCURRENCY = 256;
/**
 * Deliveries claimed and started per turn of the event loop: a burst (1,000 payments settling at
 * once) is sent 32 at a time with the loop given back in between, instead of 256 requests started
 * in one go while every API request waits.
 */
export const CLAIM_CHUNK = 32;
/** After the database refused a claim or a record, try again after this long. */
const RETRY_AFTER_FAILURE_MS = 1_000;

export interface WebhookWorkerOptions {
  store: Store;
  /** Now (ISO) on the clock of a partner's sandbox: a delivery's attempted_at. */
  nowIsoFor: (partnerId: string) => string;
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  timeoutMs?: number;
  concurrency?: number;
  /** What the sandbox's fault profile does to a delivery about to be sent (none: nothing). */
  faults?: (row: ClaimedDelivery) => WebhookFaults | undefined;
  /** Resolves once the clock of the partner's sandbox reaches `atMs` (a delay on the virtual clock). */
  clockReaches?: (partnerId: string, atMs: number, signal: AbortSignal) => Promise<void>;
  /** The partner's sandbox clock now (ms). */
  nowMsFor?: (partnerId: string) => number;
  /** Spans of delivery attempts (src/telemetry); ids only without it. */
  telemetry?: Telemetry;
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>;

/** A finished attempt, as told to `onAttempt` listeners (the journal's live stream). */
export interface DeliveryAttempt {
  delivery: ClaimedDelivery;
  result: DeliveryResult;
}

export function createWebhookWorker(options: WebhookWorkerOptions) {
  const { store, nowIsoFor } = options;
  const { deliveries } = store;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const concurrency = options.concurrency ?? DELIVERY_CONCURRENCY;
  let agent: Agent | undefined;
  const dispatcher = (): Agent => (agent ??= deliveryAgent());
  const closing = new AbortController();

  const inFlight = new Set<Promise<void>>();
  const attemptListeners = new Set<(attempt: DeliveryAttempt) => void>();
  let started = false;
  let stopped = false;
  let scheduled = false;

  const telemetry = options.telemetry ?? idsOnly;
  /** The span of each attempt in flight, ended with its outcome. */
  const spans = new Map<number, DeliverySpan>();
  /**
   * An attempt's span, in the trace of the change that emitted its event (a redelivery and a
   * chaos duplicate too: they send the same event); its traceparent is what the attempt sends.
   */
  function traceAttempt(row: ClaimedDelivery): string {
    const span = telemetry.startDelivery(parseTraceContext(row.event_traceparent, row.event_tracestate), {
      event: row.event,
      url: row.url,
      deliveryId: row.id,
      redeliveryOf: row.redelivery_of,
    });
    spans.set(row.id, span);
    return formatTraceparent(span.context);
  }
  function endSpan(row: ClaimedDelivery, result: DeliveryResult): void {
    const span = spans.get(row.id);
    spans.delete(row.id);
    if (!span) return;
    // the recorded fault is the log's JSON ({"rule":0,"kind":"webhook_delay"}): the span names its kind
    const fault = result.fault ?? row.fault;
    const faultKind = fault ? (JSON.parse(fault) as { kind: string }).kind : null;
    span.end({ outcome: result.outcome, statusCode: result.status_code, fault: faultKind, error: result.error });
  }

  /** Claim up to `limit` pending deliveries, each signed with its webhook's secret and given its attempt's traceparent. */
  const claim = (limit: number): ClaimedDelivery[] =>
    deliveries.claim(
      limit,
      (row) => nowIsoFor(row.partner_id),
      (row) => (row.secret === null ? null : sign(row.secret, row.body)),
      traceAttempt,
    );

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
      if (!deliveries.anyPending()) {
        countFrom(0);
        return;
      }
      rows = claim(Math.min(room, CLAIM_CHUNK));
      claimed += rows.length;
    } catch (err) {
      if (!stopped) options.log?.error({ err }, 'webhook worker: cannot claim deliveries; retrying in a second');
      retryLater();
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

  // the backlog (deliveries waiting to be claimed), estimated without a count over the table:
  // pending when counting started + inserted since - claimed since; counting restarts from 0
  // whenever nothing is pending (inserts a rollback undid are forgotten then)
  let pendingAtStart = 0;
  let insertedAtStart = deliveries.insertedCount;
  let claimed = 0;
  const backlog = () => Math.max(0, pendingAtStart + deliveries.insertedCount - insertedAtStart - claimed);
  function countFrom(pending: number): void {
    pendingAtStart = pending;
    insertedAtStart = deliveries.insertedCount;
    claimed = 0;
  }

  /** The database refused a write (disk full, read-only, …): look again in a second, commits or not. */
  let retry: NodeJS.Timeout | undefined;
  function retryLater(): void {
    if (retry || stopped) return;
    retry = setTimeout(() => {
      retry = undefined;
      kick();
    }, RETRY_AFTER_FAILURE_MS);
    retry.unref();
  }

  /** Look for pending deliveries soon (coalesced; never blocks the caller). */
  function kick(): void {
    if (scheduled || stopped || !started) return;
    scheduled = true;
    setImmediate(pump);
  }

  async function deliver(row: ClaimedDelivery): Promise<void> {
    // a duplicate the profile made is sent as it is
    const faults = row.fault === null ? options.faults?.(row) : undefined;
    if (faults?.drop) {
      const dropped: DeliveryResult = {
        id: row.id,
        state: 'failed',
        status_code: null,
        outcome: 'chaos_drop',
        error: `dropped by the sandbox's fault profile (rule ${faults.drop.rule}); never sent`,
        duration_ms: 0,
        fault: markJson(faults.drop),
      };
      await recordSoon(dropped);
      endSpan(row, dropped);
      for (const listener of attemptListeners) listener({ delivery: row, result: dropped });
      return;
    }
    let result: PostResult;
    try {
      await hold(row, faults);
      result = await send(row);
    } catch (err) {
      if (stopped) return void spans.delete(row.id); // closing while held: left 'delivering', sent at next start
      result = { outcome: 'error', statusCode: null, error: String(err), durationMs: 0 };
    }
    if (stopped && result.outcome === 'aborted') return void spans.delete(row.id); // closing: leave it 'delivering', resumed at next start
    const mark = faults?.delay ?? faults?.reorder ?? faults?.duplicate;
    const recorded: DeliveryResult = {
      id: row.id,
      state: result.outcome === 'delivered' ? 'delivered' : 'failed',
      status_code: result.statusCode,
      outcome: result.outcome === 'aborted' ? 'error' : result.outcome,
      error: result.error,
      duration_ms: result.durationMs,
      ...(mark ? { fault: markJson(mark) } : {}),
    };
    await recordSoon(recorded);
    endSpan(row, recorded);
    for (const listener of attemptListeners) listener({ delivery: row, result: recorded });
    if (faults?.duplicate) {
      const { copies } = faults.duplicate;
      store.tx(() => deliveries.duplicate(row.id, copies, nowIsoFor(row.partner_id), markJson(faults.duplicate!)));
    }
  }

  const markJson = (m: FaultMark): string => JSON.stringify({ rule: m.rule, kind: m.kind });

  /** Wait out a delay or a reorder the profile gave the delivery (aborted when the worker stops). */
  async function hold(row: ClaimedDelivery, faults: WebhookFaults | undefined): Promise<void> {
    const delay = faults?.delay;
    if (delay && 'virtualMs' in delay && options.clockReaches && options.nowMsFor) {
      await options.clockReaches(row.partner_id, options.nowMsFor(row.partner_id) + delay.virtualMs, closing.signal);
    } else if (delay && 'realMs' in delay) await sleep(delay.realMs, undefined, { signal: closing.signal });
    if (faults?.reorder) await sleep(faults.reorder.realMs, undefined, { signal: closing.signal });
  }

  // Results are written in one transaction per turn of the event loop instead of one commit
  // per delivery (a burst of 1,000 deliveries was 1,000 WAL commits competing with the API).
  // deliver() resolves only once its row is written, so drain() and the delivery log see it.
  let toRecord: DeliveryResult[] = [];
  let recorded: Promise<void> | undefined;
  function recordSoon(outcome: DeliveryResult | DeliveryResult[]): Promise<void> {
    if (Array.isArray(outcome)) toRecord.push(...outcome);
    else toRecord.push(outcome);
    recorded ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        const rows = toRecord;
        toRecord = [];
        recorded = undefined;
        try {
          deliveries.recordAll(rows);
          resolve();
        } catch (err) {
          if (stopped) return resolve();
          // the outcome stays to be written: retried in a second (until then the row says delivering)
          options.log?.error({ err }, 'webhook worker: cannot record delivery outcomes; retrying in a second');
          setTimeout(() => void recordSoon(rows).then(resolve), RETRY_AFTER_FAILURE_MS).unref();
        }
      }),
    );
    return recorded;
  }

  async function send(row: ClaimedDelivery): Promise<PostResult> {
    if (row.secret === null || row.signature === null) {
      return { outcome: 'error', statusCode: null, error: 'the webhook no longer exists', durationMs: 0 };
    }
    return postWebhook(
      {
        url: row.url,
        body: row.body,
        eventId: row.event_id,
        signature: row.signature,
        traceparent: row.traceparent ?? undefined,
        tracestate: row.event_tracestate ?? undefined,
      },
      { dispatcher: dispatcher(), timeoutMs, signal: closing.signal },
    );
  }

  // right after a COMMIT no group is open: claim then, in the same turn. Under load a new group
  // opens in nearly every turn, so a pump deferred to a later turn found one open almost always
  // and deliveries waited (measured: 6 delivered/s while 6,000 payments/s were created).
  const offCommit = store.onCommit(() => {
    if (started && !stopped) pump();
  });

  return {
    /** Re-attempt rows a crash left 'delivering', then send everything pending. */
    start(): void {
      if (started) return;
      started = true;
      deliveries.resumeInterrupted();
      countFrom(deliveries.countPending());
      kick();
    },
    kick,
    /** Told of every finished attempt once its outcome is recorded; returns the unsubscribe. */
    onAttempt(listener: (attempt: DeliveryAttempt) => void): () => void {
      attemptListeners.add(listener);
      return () => attemptListeners.delete(listener);
    },
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
      clearTimeout(retry);
      closing.abort();
      await Promise.allSettled([...inFlight]);
      await agent?.close().catch(() => undefined);
    },
    get inFlight(): number {
      return inFlight.size;
    },
    /** About how many deliveries wait to be claimed (see countFrom). */
    get backlog(): number {
      return backlog();
    },
  };
}
