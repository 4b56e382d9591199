/**
 * The delivery log as the control API shows it: deliveries joined with their event (name, exact
 * body) and the signature sent (or, not yet attempted, the one that will be sent).
 */
import { ApiError } from '../domain/errors.js';
import type { Db } from '../store/db.js';
import { sign } from './sign.js';

interface DeliveryJoined {
  id: number;
  event_id: string;
  name: string;
  webhook_id: string;
  url: string;
  state: 'pending' | 'delivering' | 'delivered' | 'failed';
  status_code: number | null;
  outcome: string | null;
  error: string | null;
  duration_ms: number | null;
  attempted_at: string | null;
  created_at: string;
  redelivery_of: number | null;
  body: string;
  signature: string | null;
  secret: string | null;
}

export interface DeliveryView {
  id: number;
  eventId: string;
  event: string;
  webhookId: string;
  url: string;
  state: DeliveryJoined['state'];
  statusCode: number | null;
  outcome: string | null;
  error: string | null;
  durationMs: number | null;
  attemptedAt: string | null;
  createdAt: string;
  redeliveryOf: number | null;
  body: string;
  signature: string;
}

const SELECT = `SELECT d.*, e.name, e.body, w.secret FROM deliveries d
  JOIN events e ON e.id = d.event_id LEFT JOIN webhooks w ON w.id = d.webhook_id`;

export function deliveryView(r: DeliveryJoined): DeliveryView {
  return {
    id: r.id,
    eventId: r.event_id,
    event: r.name,
    webhookId: r.webhook_id,
    url: r.url,
    state: r.state,
    statusCode: r.status_code,
    outcome: r.outcome,
    error: r.error,
    durationMs: r.duration_ms,
    attemptedAt: r.attempted_at,
    createdAt: r.created_at,
    redeliveryOf: r.redelivery_of,
    body: r.body,
    signature: r.signature ?? (r.secret !== null ? sign(r.secret, r.body) : ''),
  };
}

export function deliveryLog(db: Db) {
  const byId = db.prepare(`${SELECT} WHERE d.id = ? AND d.partner_id = ?`);
  const list = db.prepare(
    `${SELECT} WHERE d.partner_id = @partner AND (@event IS NULL OR e.name = @event)
       AND (@webhook IS NULL OR d.webhook_id = @webhook) AND (@state IS NULL OR d.state = @state)
       AND (@outcome IS NULL OR d.outcome = @outcome) AND (@status_code IS NULL OR d.status_code = @status_code)
     ORDER BY d.id DESC LIMIT @limit`,
  );
  const count = db
    .prepare(
      `SELECT count(*) FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.partner_id = @partner AND (@event IS NULL OR e.name = @event)
       AND (@webhook IS NULL OR d.webhook_id = @webhook) AND (@state IS NULL OR d.state = @state)
       AND (@outcome IS NULL OR d.outcome = @outcome) AND (@status_code IS NULL OR d.status_code = @status_code)`,
    )
    .pluck();
  const hookOf = db.prepare('SELECT url FROM webhooks WHERE id = ? AND partner_id = ?').pluck();
  const insert = db.prepare(
    `INSERT INTO deliveries (event_id, webhook_id, partner_id, url, state, redelivery_of, created_at) VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
  );

  return {
    get(id: number, partnerId: string): DeliveryView | undefined {
      const r = byId.get(id, partnerId) as DeliveryJoined | undefined;
      return r && deliveryView(r);
    },
    list(
      partnerId: string,
      q: { event?: string; webhookId?: string; state?: string; outcome?: string; statusCode?: number; limit?: number },
    ): { items: DeliveryView[]; total: number } {
      const params = {
        partner: partnerId,
        event: q.event ?? null,
        webhook: q.webhookId ?? null,
        state: q.state ?? null,
        outcome: q.outcome ?? null,
        status_code: q.statusCode ?? null,
      };
      const items = (list.all({ ...params, limit: q.limit ?? 50 }) as DeliveryJoined[]).map(deliveryView);
      return { items, total: count.get(params) as number };
    },
    /** New pending delivery of the same event to the same webhook (call inside a transaction). */
    redeliver(id: number, partnerId: string, nowIso: string): number {
      const original = byId.get(id, partnerId) as DeliveryJoined | undefined;
      if (!original) throw new ApiError('delivery_not_found', { message: `Delivery ${id} not found` });
      const url = hookOf.get(original.webhook_id, partnerId) as string | undefined;
      if (url === undefined) throw new ApiError('webhook_not_found', { message: `Webhook ${original.webhook_id} no longer exists` });
      return Number(insert.run(original.event_id, original.webhook_id, partnerId, url, id, nowIso).lastInsertRowid);
    },
  };
}
