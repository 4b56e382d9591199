/**
 * What the readiness report reads of a sandbox's rows (src/readiness/collect.ts): the states its
 * payments, merchants and consents reached, its finished webhook deliveries, and the
 * check-receiver runs made from the server against its registered webhooks (kept here: they are
 * the only evidence that its receiver verifies signatures). Receiver checks outlive a reset and a
 * snapshot restore, like the journal, and go with the sandbox.
 */
import type { Db } from './db.js';

/** Counts by state, e.g. { paid: 3, failed: 1 }. */
export type StateCounts = Record<string, number>;

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

/** Payments whose states are counted: the newest, as many as a journal keeps by default. */
const ROWS_COUNTED = 10_000;
/** Runs kept per sandbox: the newest are evidence enough. */
const RECEIVER_CHECKS_KEPT = 20;

export function readinessStore(db: Db) {
  const counts = (sql: string) => {
    const statement = db.prepare(sql).raw();
    return (partnerId: string): StateCounts =>
      Object.fromEntries((statement.all(partnerId) as [string, number][]).filter(([state]) => state !== null));
  };
  // the newest ROWS_COUNTED payments (along payments_partner): a sandbox that made a million
  // payments must not scan them all for every report, and the report judges what the sandbox did
  // lately, as its journal does
  const paymentCounts = db
    .prepare(
      `SELECT status, failure_reason, count(*) FROM (SELECT status, failure_reason FROM payments WHERE partner_id = ? ORDER BY id DESC LIMIT ${ROWS_COUNTED}) GROUP BY status, failure_reason`,
    )
    .raw();
  function paymentStates(partnerId: string): { payments: StateCounts; failureReasons: StateCounts } {
    const payments: StateCounts = {};
    const failureReasons: StateCounts = {};
    for (const [status, reason, n] of paymentCounts.all(partnerId) as [string, string | null, number][]) {
      payments[status] = (payments[status] ?? 0) + n;
      if (status === 'failed' && reason !== null) failureReasons[reason] = (failureReasons[reason] ?? 0) + n;
    }
    return { payments, failureReasons };
  }
  const merchantStates = counts('SELECT status, count(*) FROM merchants WHERE partner_id = ? GROUP BY status');
  const consentStates = counts(
    'SELECT status, count(*) FROM consents WHERE merchant_id IN (SELECT id FROM merchants WHERE partner_id = ?) GROUP BY status',
  );
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
    states: (partnerId: string) => ({
      ...paymentStates(partnerId),
      merchants: merchantStates(partnerId),
      consents: consentStates(partnerId),
    }),
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
