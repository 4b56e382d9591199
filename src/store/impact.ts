/**
 * What the impact report reads of a sandbox (src/impact/collect.ts): its journal's pages with
 * their answers' bodies, and its attempted webhook deliveries with the body each sent and the
 * contract version of its webhook. Read on the reader's connection (src/store/reader.ts) when the
 * database is a file, so the serving thread never waits for it.
 */
import type { Db } from './db.js';
import type { JournalPageRow } from './journal.js';

export interface ImpactDeliveryRow {
  id: number;
  event: string;
  /** The bytes sent (a version's body when its webhook was registered under one). */
  body: string;
  /** The webhook's contract version; null: the base (or a webhook since deleted). */
  contract_version: string | null;
  state: 'pending' | 'delivering' | 'delivered' | 'failed';
}

export function impactStore(db: Db) {
  const pages = db.prepare(
    'SELECT first_id, last_id, data, answers FROM journal_pages WHERE partner_id = CAST(? AS TEXT) AND last_id > ? ORDER BY first_id',
  );
  const deliveries = db.prepare(
    `SELECT d.id, e.name AS event, coalesce(d.versioned_body, e.body) AS body, w.contract_version, d.state
       FROM deliveries d JOIN events e ON e.id = d.event_id LEFT JOIN webhooks w ON w.id = d.webhook_id
      WHERE d.partner_id = CAST(? AS TEXT) AND d.id > ? ORDER BY d.id`,
  );
  const deliveryMark = db.prepare('SELECT count(*) AS n, coalesce(max(id), 0) AS last FROM deliveries WHERE partner_id = CAST(? AS TEXT)');
  return {
    /** The partner's pages holding entries newer than `afterId`, oldest first, answers included (one at a time). */
    pages: (partnerId: string, afterId: number): IterableIterator<JournalPageRow> =>
      pages.iterate(partnerId, afterId) as IterableIterator<JournalPageRow>,
    /** The partner's deliveries after `afterId`, oldest first, each with its state (one at a time). */
    deliveries: (partnerId: string, afterId: number): IterableIterator<ImpactDeliveryRow> =>
      deliveries.iterate(partnerId, afterId) as IterableIterator<ImpactDeliveryRow>,
    /** How many deliveries the partner has and the newest one's id (a reset removes them). */
    deliveryMark: (partnerId: string): { n: number; last: number } => deliveryMark.get(partnerId) as { n: number; last: number },
  };
}
