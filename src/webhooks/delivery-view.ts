/**
 * A delivery as the control API shows it: the delivery joined with its event (name, exact
 * body) and the signature sent (or, not yet attempted, the one that will be sent).
 */
import type { BankNote } from '../domain/bank-rules.js';
import type { FaultMark } from '../domain/chaos.js';
import type { DeliveryWithEvent } from '../store/deliveries.js';
import { sign } from './sign.js';

export function deliveryView(r: DeliveryWithEvent) {
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
    ...(r.fault !== null ? { fault: JSON.parse(r.fault) as FaultMark } : {}),
    ...(r.bank ? { bank: JSON.parse(r.bank) as BankNote } : {}),
    ...(r.traceparent !== null ? { traceparent: r.traceparent, ...(r.tracestate ? { tracestate: r.tracestate } : {}) } : {}),
  };
}
