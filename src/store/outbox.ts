/**
 * The outbox: events are written in the same transaction as the state change that causes them,
 * with one `pending` delivery row per webhook of that partner subscribed to the event. The
 * delivery worker (src/webhooks) sends them after commit. A crash after commit loses nothing:
 * pending and in-flight deliveries are picked up again at start.
 *
 * The body is serialized once here and stored, so every attempt (and every redelivery) sends
 * the same bytes under the same X-Webhook-Id (= event id).
 */
import { randomBytes } from 'node:crypto';
import type { EventName } from '../domain/machine.js';
import type { Db } from './db.js';

export interface WebhookEnvelope {
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export function newEventId(): string {
  return `evt_${randomBytes(12).toString('hex')}`;
}

export function outboxStore(db: Db) {
  const insertEvent = db.prepare('INSERT INTO events (id, partner_id, name, body, created_at) VALUES (?, ?, ?, ?, ?)');
  const subscribed = db.prepare(
    `SELECT id, url FROM webhooks
     WHERE partner_id = ? AND EXISTS (SELECT 1 FROM json_each(webhooks.events) WHERE value = ?)`,
  );
  const insertDelivery = db.prepare(
    `INSERT INTO deliveries (event_id, webhook_id, partner_id, url, state, created_at) VALUES (?, ?, ?, ?, 'pending', ?)`,
  );

  return {
    /**
     * Record an event and fan it out to the partner's subscribed webhooks. Call inside the
     * transaction that makes the change. Returns the event id.
     */
    emit(partnerId: string, name: EventName, data: Record<string, unknown>, nowIso: string): string {
      const id = newEventId();
      const envelope: WebhookEnvelope = { event: name, timestamp: nowIso, data };
      insertEvent.run(id, partnerId, name, JSON.stringify(envelope), nowIso);
      for (const hook of subscribed.all(partnerId, name) as { id: string; url: string }[]) {
        insertDelivery.run(id, hook.id, partnerId, hook.url, nowIso);
      }
      return id;
    },

    /**
     * Record a `webhook.test` event for ONE webhook (POST /v1/partner/webhooks/{id}/test),
     * whatever events it subscribes to. Call inside a transaction. Returns event and delivery ids.
     */
    emitTest(partnerId: string, hook: { id: string; url: string }, data: Record<string, unknown>, nowIso: string): { eventId: string; deliveryId: number } {
      const id = newEventId();
      const envelope: WebhookEnvelope = { event: 'webhook.test', timestamp: nowIso, data };
      insertEvent.run(id, partnerId, 'webhook.test', JSON.stringify(envelope), nowIso);
      const delivery = insertDelivery.run(id, hook.id, partnerId, hook.url, nowIso);
      return { eventId: id, deliveryId: Number(delivery.lastInsertRowid) };
    },
  };
}
export type OutboxStore = ReturnType<typeof outboxStore>;
