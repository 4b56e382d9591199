/**
 * What the readiness report reads of a sandbox's rows (src/readiness/collect.ts): the states its
 * payments, merchants and consents reached and the transitions they made (from the transitions
 * table: a payment now paid counts for pending too), its finished webhook deliveries, and the
 * check-receiver runs made from the server against its registered webhooks (kept here: they are
 * the only evidence that its receiver verifies signatures). Receiver checks outlive a reset and a
 * snapshot restore, like the journal, and go with the sandbox.
 */
import { transitionName, type TransitionResource } from '../domain/transitions.js';
import type { Db } from './db.js';

/** Counts by state, e.g. { paid: 3, failed: 1 }. */
export type StateCounts = Record<string, number>;

export interface ReachedStates {
  payments: StateCounts;
  failureReasons: StateCounts;
  merchants: StateCounts;
  consents: StateCounts;
  /** Transitions made, by name (`pending -> failed (expired)`), per resource. */
  transitions: { payments: StateCounts; merchants: StateCounts; consents: StateCounts };
  /** Payments and consents a bank profile's rule was behind (docs/banks.md), by rule. */
  bankRules: StateCounts;
}

export interface FinishedDeliveryRow {
  event: string;
  /** data.paymentId of a payment event, else null. */
  payment_id: number | null;
  state: 'delivered' | 'failed';
  /** On the sandbox's clock. */
  attempted_at: string;
}

export interface ReceiverCheckRow {
  id: number;
  partner_id: string;
  webhook_id: string;
  url: string;
  passed: 0 | 1;
  forged_accepted: 0 | 1;
  /** Wall clock (ISO). */
  checked_at: string;
  /** The whole run as JSON (src/webhooks/receiver-check.ts ReceiverReport). */
  report: string;
}

/** Runs kept per sandbox: the newest are evidence enough. */
const RECEIVER_CHECKS_KEPT = 20;

export function readinessStore(db: Db) {
  // the transitions the sandbox keeps (its newest 10,000, along transitions_partner): what it did
  // lately, as its journal keeps its newest requests
  const transitionCounts = db
    .prepare(
      `SELECT resource, from_state, to_state, reason, count(*) FROM transitions WHERE partner_id = ?
       GROUP BY resource, from_state, to_state, reason`,
    )
    .raw();
  const bankRuleCounts = db
    .prepare(
      `SELECT bank_rule, count(DISTINCT resource || ' ' || resource_id) FROM transitions WHERE partner_id = ? AND bank_rule IS NOT NULL
       GROUP BY bank_rule`,
    )
    .raw();
  /** States reached (transitions into each) and transitions made, by resource. */
  function reached(partnerId: string): ReachedStates {
    const out: ReachedStates = {
      payments: {},
      failureReasons: {},
      merchants: {},
      consents: {},
      transitions: { payments: {}, merchants: {}, consents: {} },
      bankRules: Object.fromEntries(bankRuleCounts.all(partnerId) as [string, number][]),
    };
    const plural = { payment: 'payments', merchant: 'merchants', consent: 'consents' } as const;
    for (const [resource, from, to, reason, n] of transitionCounts.all(partnerId) as [
      TransitionResource,
      string | null,
      string,
      string | null,
      number,
    ][]) {
      const kind = plural[resource];
      if (!kind) continue;
      out[kind][to] = (out[kind][to] ?? 0) + n;
      if (resource === 'payment' && to === 'failed' && reason !== null) out.failureReasons[reason] = (out.failureReasons[reason] ?? 0) + n;
      const name = transitionName(from, to, resource === 'payment' ? reason : null);
      out.transitions[kind][name] = (out.transitions[kind][name] ?? 0) + n;
    }
    return out;
  }
  const finished = db.prepare(
    `SELECT e.name AS event, json_extract(e.body, '$.data.paymentId') AS payment_id, d.state, d.attempted_at
     FROM deliveries d JOIN events e ON e.id = d.event_id
     WHERE d.partner_id = ? AND d.state IN ('delivered', 'failed') ORDER BY d.id`,
  );
  const insertCheck = db.prepare(
    `INSERT INTO receiver_checks (partner_id, webhook_id, url, passed, forged_accepted, checked_at, report)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
  );
  const trimChecks = db.prepare(
    'DELETE FROM receiver_checks WHERE partner_id = ? AND id NOT IN (SELECT id FROM receiver_checks WHERE partner_id = ? ORDER BY id DESC LIMIT ?)',
  );
  const listChecks = db.prepare('SELECT * FROM receiver_checks WHERE partner_id = ? ORDER BY id');
  const clearChecks = db.prepare('DELETE FROM receiver_checks WHERE partner_id = ?');

  return {
    states: reached,
    /** Deliveries that were attempted and finished, oldest first. */
    finishedDeliveries: (partnerId: string) => finished.all(partnerId) as FinishedDeliveryRow[],
    /** Record a check-receiver run (call inside a transaction); the oldest beyond the kept number go. */
    addReceiverCheck(check: Omit<ReceiverCheckRow, 'id'>): ReceiverCheckRow {
      const row = insertCheck.get(
        check.partner_id,
        check.webhook_id,
        check.url,
        check.passed,
        check.forged_accepted,
        check.checked_at,
        check.report,
      ) as ReceiverCheckRow;
      trimChecks.run(check.partner_id, check.partner_id, RECEIVER_CHECKS_KEPT);
      return row;
    },
    receiverChecks: (partnerId: string) => listChecks.all(partnerId) as ReceiverCheckRow[],
    clearReceiverChecks: (partnerId: string): void => void clearChecks.run(partnerId),
  };
}
