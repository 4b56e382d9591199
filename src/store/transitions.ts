/**
 * The transitions table (src/domain/transitions.ts): one row per state change, written in the
 * transaction of the change. Bounded per sandbox like the journal: the newest TRANSITIONS_KEPT
 * of a partner are kept (the oldest go in batches, every TRIM_EVERY rows a partner writes).
 */
import type { BankNote, BankRule } from '../domain/bank-rules.js';
import type { Cause, CauseKind, Transition, TransitionResource } from '../domain/transitions.js';
import { formatTraceparent, parseTraceparent } from '../domain/trace-context.js';
import type { Db } from './db.js';

/** Transitions kept per sandbox, as many as its journal keeps requests. */
export const TRANSITIONS_KEPT = 10_000;
const TRIM_EVERY = 500;

export interface TransitionRow {
  id: number;
  partner_id: string;
  resource: TransitionResource;
  resource_id: string;
  from_state: string | null;
  to_state: string;
  reason: string | null;
  at: string;
  cause_kind: CauseKind;
  cause_name: string;
  request_id: string | null;
  traceparent: string | null;
  bank_id: string | null;
  bank_rule: BankRule | null;
}

export interface NewTransition {
  partnerId: string;
  resource: TransitionResource;
  resourceId: string | number;
  from: string | null;
  to: string;
  reason?: string | null;
  at: string;
  cause: Cause;
  /** The bank and its profile rule behind the change (docs/banks.md), when one was. */
  bank?: BankNote;
}

/** A row as the API answers it. */
export function transitionView(row: TransitionRow): Transition {
  const traceId = row.traceparent ? parseTraceparent(row.traceparent)?.traceId : undefined;
  return {
    id: row.id,
    resource: row.resource,
    resourceId: row.resource_id,
    from: row.from_state,
    to: row.to_state,
    ...(row.reason ? { reason: row.reason } : {}),
    at: row.at,
    cause: { kind: row.cause_kind, name: row.cause_name, ...(row.request_id ? { requestId: row.request_id } : {}) },
    ...(traceId ? { traceId } : {}),
    ...(row.bank_rule ? { bank: { bankId: row.bank_id ?? '', rule: row.bank_rule } } : {}),
  };
}

export function transitionStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO transitions (partner_id, resource, resource_id, from_state, to_state, reason, at, cause_kind, cause_name, request_id, traceparent,
       bank_id, bank_rule)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const ofResource = db.prepare(
    'SELECT * FROM transitions WHERE partner_id = CAST(? AS TEXT) AND resource = CAST(? AS TEXT) AND resource_id = CAST(? AS TEXT) ORDER BY id',
  );
  const ofPartner = db.prepare('SELECT * FROM transitions WHERE partner_id = ? ORDER BY id');
  // one journal entry's read: along the partner's transitions (at most TRANSITIONS_KEPT), no index of its own to keep
  const ofRequest = db.prepare('SELECT * FROM transitions WHERE partner_id = ? AND request_id = ? ORDER BY id');
  const trim = db.prepare(
    `DELETE FROM transitions WHERE partner_id = ? AND id < (
       SELECT id FROM transitions WHERE partner_id = ? ORDER BY id DESC LIMIT 1 OFFSET ${TRANSITIONS_KEPT - 1})`,
  );
  const clear = db.prepare('DELETE FROM transitions WHERE partner_id = ?');
  /** Rows written per partner since its last trim. */
  const written = new Map<string, number>();

  return {
    /** Record one change (call inside the transaction that makes it). Returns its id. */
    record(t: NewTransition): number {
      const id = Number(
        insert.run(
          t.partnerId,
          t.resource,
          String(t.resourceId),
          t.from,
          t.to,
          t.reason ?? null,
          t.at,
          t.cause.kind,
          t.cause.name,
          t.cause.requestId ?? null,
          t.cause.trace ? formatTraceparent(t.cause.trace) : null,
          t.bank?.bankId ?? null,
          t.bank?.rule ?? null,
        ).lastInsertRowid,
      );
      const n = (written.get(t.partnerId) ?? 0) + 1;
      if (n >= TRIM_EVERY) {
        trim.run(t.partnerId, t.partnerId);
        written.delete(t.partnerId);
      } else written.set(t.partnerId, n);
      return id;
    },
    /** One resource's transitions, oldest first. */
    ofResource: (partnerId: string, resource: TransitionResource, resourceId: string | number) =>
      ofResource.all(partnerId, resource, String(resourceId)) as TransitionRow[],
    /** The transitions one request made (its x-request-id), oldest first. */
    ofRequest: (partnerId: string, requestId: string) => ofRequest.all(partnerId, requestId) as TransitionRow[],
    /** Every transition a sandbox keeps, oldest first. */
    ofPartner: (partnerId: string) => ofPartner.all(partnerId) as TransitionRow[],
    /** Forget a sandbox's transitions (its reset or deletion; call inside a transaction). */
    clear(partnerId: string): void {
      clear.run(partnerId);
      written.delete(partnerId);
    },
  };
}
