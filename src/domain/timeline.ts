/**
 * A payment's timeline (GET /_sandbox/payments/{paymentId}): what its row and its events tell.
 * A payment keeps its creation, the payer's first look at the hosted page and its last change;
 * the states in between are not stored, so the timeline does not invent them.
 */
import type { PaymentStatus } from './payment.js';

export interface TimelineDelivery {
  id: number;
  state: 'pending' | 'delivering' | 'delivered' | 'failed';
  outcome: string | null;
  statusCode: number | null;
}

export interface TimelineEntry {
  at: string;
  kind: 'created' | 'page_opened' | 'status_changed' | 'event';
  status: PaymentStatus | null;
  event: string | null;
  eventId: string | null;
  deliveries: TimelineDelivery[];
}

interface PaymentFacts {
  status: PaymentStatus;
  created_at: string;
  updated_at: string;
  page_opened_at: string | null;
}

export function paymentTimeline(
  payment: PaymentFacts,
  events: readonly { id: string; name: string; created_at: string }[],
  deliveriesOf: (eventId: string) => TimelineDelivery[],
): TimelineEntry[] {
  const entry = (at: string, kind: TimelineEntry['kind'], status: PaymentStatus | null = null): TimelineEntry => ({
    at,
    kind,
    status,
    event: null,
    eventId: null,
    deliveries: [],
  });
  const timeline = [entry(payment.created_at, 'created', 'pending')];
  if (payment.page_opened_at) timeline.push(entry(payment.page_opened_at, 'page_opened'));
  if (payment.status !== 'pending') timeline.push(entry(payment.updated_at, 'status_changed', payment.status));
  for (const e of events) {
    timeline.push({ ...entry(e.created_at, 'event'), event: e.name, eventId: e.id, deliveries: deliveriesOf(e.id) });
  }
  // stable: entries at one instant keep the order above (the change before its event)
  return timeline.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
