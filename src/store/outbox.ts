/**
 * The outbox (events table): an event is written in the same transaction as the state change
 * that causes it, with one pending delivery per webhook of that partner subscribed to it. The
 * webhook worker sends them after commit; a crash after commit loses nothing (pending and
 * in-flight deliveries are picked up again at start).
 *
 * The body is serialized once here and stored, so every attempt (and every redelivery) sends
 * the same bytes under the same X-Webhook-Id (= event id).
 */
import type { BankNote } from '../domain/bank-rules.js';
import type { WebhookEnvelope } from '../domain/events.js';
import type { TraceHeaders } from '../domain/trace-context.js';
import { newEventId } from '../domain/ids.js';
import type { EventName } from '../domain/machine.js';
import type { Db } from './db.js';
import type { DeliveryStore } from './deliveries.js';

export function outboxStore(db: Db, deliveries: DeliveryStore) {
  const insertEvent = db.prepare(
    'INSERT INTO events (id, partner_id, name, body, created_at, traceparent, tracestate, bank) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const subscribed = db.prepare(
    `SELECT id, url, contract_version FROM webhooks
     WHERE partner_id = ? AND EXISTS (SELECT 1 FROM json_each(webhooks.events) WHERE value = ?)`,
  );

  // an event is written at the instant of the change that caused it, so a payment's events sit at its updated_at
  const paymentEventsAt = db.prepare(
    `SELECT id, name, created_at FROM events
      WHERE partner_id = ? AND created_at = ? AND json_extract(body, '$.data.paymentId') = ? ORDER BY id`,
  );

  /** The body a contract version sends for an event (set by src/plugins/contract-versions.ts; none: the event's own). */
  let shapeFor: ((version: string, envelope: WebhookEnvelope) => string | null) | undefined;
  const versionedBody = (version: string | null, envelope: WebhookEnvelope): string | null =>
    version === null || shapeFor === undefined ? null : shapeFor(version, envelope);

  function record(partnerId: string, envelope: WebhookEnvelope, trace: TraceHeaders | null, bank: BankNote | null = null): string {
    const id = newEventId();
    insertEvent.run(
      id,
      partnerId,
      envelope.event,
      JSON.stringify(envelope),
      envelope.timestamp,
      trace?.traceparent ?? null,
      trace?.tracestate ?? null,
      bank && JSON.stringify(bank),
    );
    return id;
  }

  return {
    /** The events a payment's last change emitted (payment.completed / payment.failed). */
    paymentEvents: (partnerId: string, paymentId: number, atIso: string) =>
      paymentEventsAt.all(partnerId, atIso, paymentId) as { id: string; name: string; created_at: string }[],

    /**
     * Record an event and fan it out to the partner's subscribed webhooks. Call inside the
     * transaction that makes the change, with the trace context of that change (every delivery
     * of the event continues its trace). Returns the event id.
     */
    emit(
      partnerId: string,
      envelope: WebhookEnvelope & { event: EventName },
      trace: TraceHeaders | null = null,
      bank: BankNote | null = null,
    ): string {
      const id = record(partnerId, envelope, trace, bank);
      for (const hook of subscribed.all(partnerId, envelope.event) as { id: string; url: string; contract_version: string | null }[]) {
        deliveries.insert(id, hook, partnerId, envelope.timestamp, null, versionedBody(hook.contract_version, envelope));
      }
      return id;
    },

    /**
     * Record a test event for ONE webhook (POST /v1/partner/webhooks/{id}/test), whatever
     * events it subscribes to. Call inside a transaction. Returns event and delivery ids.
     */
    emitTest(
      partnerId: string,
      hook: { id: string; url: string; contract_version?: string | null },
      envelope: WebhookEnvelope,
      trace: TraceHeaders | null = null,
    ): { eventId: string; deliveryId: number } {
      const eventId = record(partnerId, envelope, trace);
      const body = versionedBody(hook.contract_version ?? null, envelope);
      return { eventId, deliveryId: deliveries.insert(eventId, hook, partnerId, envelope.timestamp, null, body) };
    },

    /** How a contract version shapes an event's body (null: as the event is). */
    setShaper(shape: (version: string, envelope: WebhookEnvelope) => string | null): void {
      shapeFor = shape;
    },
  };
}
