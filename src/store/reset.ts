/**
 * Deleting one partner's data (POST /_sandbox/reset): every row the partner owns, children
 * first, in the caller's transaction. Sandbox bank fixtures (ais_*) belong to nobody and stay.
 * test/store/reset.test.ts checks that no table keeps a row of a reset partner, so a table added
 * later without a line here fails that test.
 */
import type { Db } from './db.js';

export interface ResetCounts {
  merchants: number;
  payments: number;
  stores: number;
  webhooks: number;
  events: number;
  deliveries: number;
  consents: number;
  timers: number;
  transitions: number;
}

const OF_PARTNER_MERCHANTS = 'merchant_id IN (SELECT id FROM merchants WHERE partner_id = ?)';

/** [table counted, statement]; in order: children before the rows they reference. */
export const RESET_STEPS: readonly [keyof ResetCounts, string][] = [
  ['deliveries', 'DELETE FROM deliveries WHERE partner_id = ?'],
  ['deliveries', 'DELETE FROM deliveries WHERE event_id IN (SELECT id FROM events WHERE partner_id = ?)'],
  ['events', 'DELETE FROM events WHERE partner_id = ?'],
  ['timers', 'DELETE FROM timers WHERE partner_id = ?'],
  ['payments', 'DELETE FROM payments WHERE partner_id = ?'],
  ['stores', `DELETE FROM stores WHERE ${OF_PARTNER_MERCHANTS}`],
  ['payments', `DELETE FROM payments WHERE ${OF_PARTNER_MERCHANTS}`],
  ['consents', `DELETE FROM consents WHERE ${OF_PARTNER_MERCHANTS}`],
  ['merchants', 'DELETE FROM merchants WHERE partner_id = ?'],
  ['webhooks', 'DELETE FROM webhooks WHERE partner_id = ?'],
  ['transitions', 'DELETE FROM transitions WHERE partner_id = ?'],
];

export function resetStore(db: Db) {
  const steps = RESET_STEPS.map(([table, sql]) => [table, db.prepare(sql)] as const);
  return {
    /** Delete every row of `partnerId` (call inside a transaction); how many of each kind. */
    deletePartner(partnerId: string): ResetCounts {
      const counts: ResetCounts = {
        merchants: 0,
        payments: 0,
        stores: 0,
        webhooks: 0,
        events: 0,
        deliveries: 0,
        consents: 0,
        timers: 0,
        transitions: 0,
      };
      for (const [table, statement] of steps) counts[table] += statement.run(partnerId).changes;
      return counts;
    },
  };
}
