/**
 * Deliveries table: one row per attempt to send an event to a webhook. Written by the outbox
 * (a pending row per subscribed webhook, in the transaction that made the change), claimed and
 * recorded by the webhook worker, listed and redelivered through the control API. A delivery
 * whose webhook was deleted has no secret and fails with an error.
 */
import type Database from 'better-sqlite3';
import { ApiError } from '../domain/errors.js';
import type { Db } from './db.js';

export type DeliveryState = 'pending' | 'delivering' | 'delivered' | 'failed';

export interface DeliveryRow {
  id: number;
  event_id: string;
  webhook_id: string;
  partner_id: string;
  url: string;
  state: DeliveryState;
  status_code: number | null;
  outcome: string | null;
  error: string | null;
  duration_ms: number | null;
  attempted_at: string | null;
  redelivery_of: number | null;
  created_at: string;
  /** The signature sent with the attempt (040_delivery_signature); null before the first attempt. */
  signature: string | null;
  /** JSON FaultMark: what the sandbox's fault profile did to it (101_fault_profiles); null: nothing. */
  fault: string | null;
  /** The W3C traceparent sent with the attempt (102_transitions): the attempt's span in its event's trace. */
  traceparent: string | null;
  /** Wall clock (ms) when the delivery was queued: the delivery lag is measured from it. */
  queued_at_ms: number | null;
}

/** A delivery with its event (name, exact body) and its webhook's secret. */
export interface DeliveryWithEvent extends DeliveryRow {
  name: string;
  body: string;
  secret: string | null;
  /** The event's W3C tracestate: what each attempt sends with its traceparent (104_tracestate). */
  tracestate: string | null;
  /** JSON BankNote: the bank and profile rule behind the change that sent the event (105); null: none. */
  bank: string | null;
}

/** What the worker needs to send one delivery. */
export interface ClaimedDelivery {
  id: number;
  event_id: string;
  /** The event's name (payment.completed, …). */
  event: string;
  partner_id: string;
  url: string;
  body: string;
  secret: string | null;
  signature: string | null;
  /** Set on a duplicate the fault profile made: it is sent as it is, never given a fault of its own. */
  fault: string | null;
  /** The trace context of the change that emitted the event (null: none recorded). */
  event_traceparent: string | null;
  event_tracestate: string | null;
  /** The traceparent this attempt sends (set when it is claimed). */
  traceparent: string | null;
  redelivery_of: number | null;
  queued_at_ms: number | null;
}

export interface DeliveryResult {
  id: number;
  state: 'delivered' | 'failed';
  status_code: number | null;
  outcome: string;
  error: string | null;
  duration_ms: number;
  /** JSON FaultMark of a fault the profile gave the delivery (kept when undefined). */
  fault?: string;
}

export interface DeliveryFilter {
  event?: string;
  webhookId?: string;
  state?: string;
  outcome?: string;
  statusCode?: number;
  limit?: number;
}

const WITH_EVENT = `SELECT d.*, e.name, coalesce(d.versioned_body, e.body) AS body, e.tracestate, e.bank, w.secret FROM deliveries d
  JOIN events e ON e.id = d.event_id LEFT JOIN webhooks w ON w.id = d.webhook_id`;
/** The list's filters, each a condition only when given (so SQLite can pick the index it names). */
const FILTERS = {
  event: 'e.name = @event',
  webhook: 'd.webhook_id = @webhook',
  state: 'd.state = @state',
  outcome: 'd.outcome = @outcome',
  status_code: 'd.status_code = @status_code',
} as const;
type FilterName = keyof typeof FILTERS;

/** `total` counts matches up to this many (a count of a million rows would grow with the table). */
export const DELIVERY_COUNT_LIMIT = 10_000;

export function deliveryStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO deliveries (event_id, webhook_id, partner_id, url, state, redelivery_of, created_at, queued_at_ms, versioned_body)
     VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?)`,
  );
  const nextPending = db.prepare(
    `SELECT d.id, d.event_id, e.name AS event, d.partner_id, d.url, coalesce(d.versioned_body, e.body) AS body, w.secret, d.signature, d.fault,
            e.traceparent AS event_traceparent, e.tracestate AS event_tracestate, d.redelivery_of, d.queued_at_ms
       FROM deliveries d JOIN events e ON e.id = d.event_id LEFT JOIN webhooks w ON w.id = d.webhook_id
      WHERE d.state = 'pending' ORDER BY d.id LIMIT CAST(? AS INTEGER)`,
  );
  const markDelivering = db.prepare(
    `UPDATE deliveries SET state = 'delivering', attempted_at = ?, signature = ?, traceparent = ? WHERE id = ? AND state = 'pending'`,
  );
  const record = db.prepare(
    `UPDATE deliveries SET state = @state, status_code = @status_code, outcome = @outcome, error = @error, duration_ms = @duration_ms,
       fault = coalesce(@fault, fault) WHERE id = @id`,
  );
  const insertDuplicate = db.prepare(
    `INSERT INTO deliveries (event_id, webhook_id, partner_id, url, state, redelivery_of, created_at, fault, queued_at_ms, versioned_body)
     SELECT event_id, webhook_id, partner_id, url, 'pending', id, ?, ?, ?, versioned_body FROM deliveries WHERE id = ?`,
  );
  const sinceInstant = db.prepare(
    `SELECT d.id, e.name AS event, d.webhook_id, coalesce(d.versioned_body, e.body) AS body, d.created_at, d.redelivery_of FROM deliveries d JOIN events e ON e.id = d.event_id
      WHERE d.partner_id = CAST(? AS TEXT) AND d.created_at >= ? ORDER BY d.id LIMIT CAST(? AS INTEGER)`,
  );
  const resumeInterrupted = db.prepare(`UPDATE deliveries SET state = 'pending' WHERE state = 'delivering'`);
  const countPending = db.prepare(`SELECT count(*) FROM deliveries WHERE state = 'pending'`).pluck();
  const anyPending = db.prepare(`SELECT 1 FROM deliveries WHERE state = 'pending' LIMIT 1`).pluck();
  const byId = db.prepare(`${WITH_EVENT} WHERE d.id = ? AND d.partner_id = ?`);
  // one pair of statements per combination of filters given, prepared at its first use
  const listStatements = new Map<string, { list: Database.Statement; count: Database.Statement }>();
  function statementsFor(given: FilterName[]) {
    const key = given.join(',');
    let found = listStatements.get(key);
    if (!found) {
      const where = ['d.partner_id = CAST(@partner AS TEXT)', ...given.map((f) => FILTERS[f])].join(' AND ');
      const join = given.includes('event') ? 'JOIN events e ON e.id = d.event_id' : '';
      found = {
        list: db.prepare(`${WITH_EVENT} WHERE ${where} ORDER BY d.id DESC LIMIT CAST(@limit AS INTEGER)`),
        count: db.prepare(`SELECT count(*) FROM (SELECT 1 FROM deliveries d ${join} WHERE ${where} LIMIT @cap)`).pluck(),
      };
      listStatements.set(key, found);
    }
    return found;
  }
  const forEvent = db.prepare(`${WITH_EVENT} WHERE d.event_id = CAST(? AS TEXT) AND d.partner_id = CAST(? AS TEXT) ORDER BY d.id`);
  const byOutcome = db.prepare(
    'SELECT state, outcome, count(*) AS n FROM deliveries WHERE partner_id = ? GROUP BY state, outcome ORDER BY state, outcome',
  );
  const webhookUrl = db.prepare('SELECT url FROM webhooks WHERE id = ? AND partner_id = ?').pluck();

  /**
   * Claim up to `limit` pending rows: each is marked delivering with the signature `sign` gives it
   * and the traceparent `trace` gives its attempt.
   */
  // typed as plain functions: the declaration files of the package cannot name better-sqlite3's Transaction
  const claim: (
    limit: number,
    attemptedAt: (row: ClaimedDelivery) => string,
    sign: (row: ClaimedDelivery) => string | null,
    trace: (row: ClaimedDelivery) => string,
  ) => ClaimedDelivery[] = db.transaction(
    (
      limit: number,
      attemptedAt: (row: ClaimedDelivery) => string,
      sign: (row: ClaimedDelivery) => string | null,
      trace: (row: ClaimedDelivery) => string,
    ): ClaimedDelivery[] => {
      const rows = nextPending.all(limit) as ClaimedDelivery[];
      for (const row of rows) {
        row.signature = sign(row);
        row.traceparent = trace(row);
        markDelivering.run(attemptedAt(row), row.signature, row.traceparent, row.id);
      }
      return rows;
    },
  );
  /** Rows inserted on this connection so far (the webhook worker estimates its backlog from it). */
  let inserted = 0;
  const recordAll: (rows: readonly DeliveryResult[]) => void = db.transaction((rows: readonly DeliveryResult[]) => {
    for (const r of rows) record.run({ ...r, fault: r.fault ?? null });
  });

  return {
    /** A pending delivery of `eventId` to one webhook (call inside the transaction that wrote the event). */
    insert(
      eventId: string,
      hook: { id: string; url: string },
      partnerId: string,
      nowIso: string,
      redeliveryOf: number | null = null,
      versionedBody: string | null = null,
    ): number {
      inserted++;
      return Number(insert.run(eventId, hook.id, partnerId, hook.url, redeliveryOf, nowIso, Date.now(), versionedBody).lastInsertRowid);
    },
    /** Deliveries inserted on this connection since it opened (committed or not). */
    get insertedCount(): number {
      return inserted;
    },
    /** One index probe: is anything waiting to be sent? */
    anyPending: (): boolean => anyPending.get() !== undefined,
    countPending: (): number => countPending.get() as number,
    claim,
    /** Write the outcomes of finished attempts, in one transaction. */
    recordAll,
    /** At start: attempts a crash interrupted are sent again (same event id, same bytes). */
    resumeInterrupted: (): void => void resumeInterrupted.run(),
    get: (id: number, partnerId: string) => byId.get(id, partnerId) as DeliveryWithEvent | undefined,
    /** Every delivery of one event (a payment's timeline), oldest first. */
    forEvent: (eventId: string, partnerId: string) => forEvent.all(eventId, partnerId) as DeliveryWithEvent[],
    countByOutcome: (partnerId: string) => byOutcome.all(partnerId) as { state: DeliveryState; outcome: string | null; n: number }[],
    /**
     * Newest first, at most `limit`; `total` counts the matches up to DELIVERY_COUNT_LIMIT
     * (`totalCapped` when there are more): both walk an index of the partner's deliveries (by
     * state when a state is given), never the whole table.
     */
    list(partnerId: string, q: DeliveryFilter): { rows: DeliveryWithEvent[]; total: number; totalCapped: boolean } {
      const values: Record<FilterName, string | number | undefined> = {
        event: q.event,
        webhook: q.webhookId,
        state: q.state,
        outcome: q.outcome,
        status_code: q.statusCode,
      };
      const given = (Object.keys(FILTERS) as FilterName[]).filter((f) => values[f] !== undefined);
      const params: Record<string, string | number> = { partner: partnerId };
      for (const f of given) params[f] = values[f]!;
      const { list, count } = statementsFor(given);
      const counted = count.get({ ...params, cap: DELIVERY_COUNT_LIMIT + 1 }) as number;
      return {
        rows: list.all({ ...params, limit: q.limit ?? 50 }) as DeliveryWithEvent[],
        total: Math.min(counted, DELIVERY_COUNT_LIMIT),
        totalCapped: counted > DELIVERY_COUNT_LIMIT,
      };
    },
    /** A partner's deliveries made at or after an instant of its clock, oldest first (a recording's webhooks). */
    sinceInstant: (partnerId: string, sinceIso: string, limit: number) =>
      sinceInstant.all(partnerId, sinceIso, limit) as {
        id: number;
        event: string;
        webhook_id: string;
        body: string;
        created_at: string;
        redelivery_of: number | null;
      }[],
    /**
     * `copies` pending deliveries of the same event to the same URL as delivery `id`, marked with
     * the fault that made them (seeded chaos: a webhook sent twice); call inside a transaction.
     */
    duplicate(id: number, copies: number, nowIso: string, fault: string): void {
      for (let i = 0; i < copies; i++) {
        inserted++;
        insertDuplicate.run(nowIso, fault, Date.now(), id);
      }
    },
    /** A new pending delivery of the same event to the same webhook (call inside a transaction); its id. */
    redeliver(id: number, partnerId: string, nowIso: string): number {
      const original = byId.get(id, partnerId) as DeliveryWithEvent | undefined;
      if (!original) throw new ApiError('delivery_not_found', { message: `Delivery ${id} not found` });
      const url = webhookUrl.get(original.webhook_id, partnerId) as string | undefined;
      if (url === undefined) throw new ApiError('webhook_not_found', { message: `Webhook ${original.webhook_id} no longer exists` });
      inserted++;
      // the same bytes as the original, a version's shaping included
      const versionedBody = (original as DeliveryWithEvent & { versioned_body: string | null }).versioned_body;
      return Number(
        insert.run(original.event_id, original.webhook_id, partnerId, url, id, nowIso, Date.now(), versionedBody).lastInsertRowid,
      );
    },
  };
}
export type DeliveryStore = ReturnType<typeof deliveryStore>;
