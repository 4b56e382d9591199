/** Webhooks table: a partner's registered URLs, their event lists (JSON array) and secrets. */
import { newWebhookId, newWebhookSecret } from '../domain/ids.js';
import type { Db } from './db.js';

export interface WebhookRow {
  id: string;
  partner_id: string;
  url: string;
  /** JSON array of event names. */
  events: string;
  secret: string;
  created_at: string;
  /** The contract version it was registered under (107); null: the base. */
  contract_version: string | null;
}

export function webhookStore(db: Db) {
  const insert = db.prepare(
    'INSERT INTO webhooks (id, partner_id, url, events, secret, created_at, contract_version) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *',
  );
  const byIdForPartner = db.prepare('SELECT * FROM webhooks WHERE id = ? AND partner_id = ?');
  const byId = db.prepare('SELECT * FROM webhooks WHERE id = ?');
  const forPartner = db.prepare('SELECT * FROM webhooks WHERE partner_id = CAST(? AS TEXT) ORDER BY created_at, id');
  const setSecret = db.prepare('UPDATE webhooks SET secret = ? WHERE id = ?');

  return {
    insert(partnerId: string, url: string, events: readonly string[], nowIso: string, contractVersion: string | null = null): WebhookRow {
      return insert.get(newWebhookId(), partnerId, url, JSON.stringify(events), newWebhookSecret(), nowIso, contractVersion) as WebhookRow;
    },
    get: (id: string, partnerId: string) => byIdForPartner.get(id, partnerId) as WebhookRow | undefined,
    /** Unscoped read, for the delivery worker (it needs the secret). */
    getAny: (id: string) => byId.get(id) as WebhookRow | undefined,
    list: (partnerId: string) => forPartner.all(partnerId) as WebhookRow[],
    /** A persona's fixed secret instead of the generated one (so receivers can be configured ahead). */
    setSecret: (id: string, secret: string): void => void setSecret.run(secret, id),
  };
}
