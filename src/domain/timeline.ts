/**
 * A payment's timeline (GET /_sandbox/payments/{paymentId}, the console's payment page): every
 * state it went through (its transitions, src/domain/transitions.ts) with what caused each, the
 * payer's first look at the hosted page, the payer sent to approve in the bank's app, the bank and
 * profile rule behind a change (docs/banks.md), and the events each change emitted with their
 * deliveries. A payment whose transitions the sandbox no longer keeps (it keeps its newest
 * 10,000) shows its creation and its last change, as its row tells them.
 */
import type { BankNote } from './bank-rules.js';
import type { PaymentStatus } from './payment.js';
import type { CauseKind } from './transitions.js';

export interface TimelineDelivery {
  id: number;
  state: 'pending' | 'delivering' | 'delivered' | 'failed';
  outcome: string | null;
  statusCode: number | null;
}

export interface TimelineCause {
  kind: CauseKind;
  name: string;
  requestId?: string;
}

export interface TimelineEntry {
  at: string;
  kind: 'created' | 'page_opened' | 'bank_unavailable' | 'app_approval_requested' | 'status_changed' | 'event';
  status: PaymentStatus | null;
  /** What made a change (created, status_changed); null otherwise or when not known. */
  cause: TimelineCause | null;
  event: string | null;
  eventId: string | null;
  deliveries: TimelineDelivery[];
  /** The bank and its profile's rule behind a change (docs/banks.md), when one was. */
  bank?: BankNote;
}

interface PaymentFacts {
  status: PaymentStatus;
  created_at: string;
  updated_at: string;
  page_opened_at: string | null;
  app_approval_requested_at: string | null;
  bank_id: string | null;
  bank_unavailable_id: string | null;
  bank_unavailable_at: string | null;
}

export interface TimelineTransition {
  from: string | null;
  to: string;
  at: string;
  cause: TimelineCause;
  bank?: BankNote;
}

export function paymentTimeline(
  payment: PaymentFacts,
  transitions: readonly TimelineTransition[],
  eventsAt: (atIso: string) => readonly { id: string; name: string; created_at: string }[],
  deliveriesOf: (eventId: string) => TimelineDelivery[],
): TimelineEntry[] {
  const entry = (
    at: string,
    kind: TimelineEntry['kind'],
    status: PaymentStatus | null = null,
    cause: TimelineCause | null = null,
  ): TimelineEntry => ({
    at,
    kind,
    status,
    cause,
    event: null,
    eventId: null,
    deliveries: [],
  });
  const timeline: TimelineEntry[] = [];
  const changedAt: string[] = [];
  if (transitions.length > 0 && transitions[0].from === null) {
    for (const t of transitions) {
      const changed = entry(t.at, t.from === null ? 'created' : 'status_changed', t.to as PaymentStatus, t.cause);
      timeline.push(t.bank ? { ...changed, bank: t.bank } : changed);
      if (t.from !== null) changedAt.push(t.at);
    }
  } else {
    timeline.push(entry(payment.created_at, 'created', 'pending'));
    if (payment.status !== 'pending') {
      timeline.push(entry(payment.updated_at, 'status_changed', payment.status));
      changedAt.push(payment.updated_at);
    }
  }
  if (payment.page_opened_at) timeline.push(entry(payment.page_opened_at, 'page_opened'));
  // the payer chose a bank that was down (and then another, or left)
  if (payment.bank_unavailable_at && payment.bank_unavailable_id) {
    timeline.push({
      ...entry(payment.bank_unavailable_at, 'bank_unavailable'),
      bank: { bankId: payment.bank_unavailable_id, rule: 'bank_down' },
    });
  }
  // waiting for the payer's approval in the bank app (a decoupled bank): while it waits, and after
  if (payment.app_approval_requested_at && payment.bank_id) {
    timeline.push({
      ...entry(payment.app_approval_requested_at, 'app_approval_requested'),
      bank: { bankId: payment.bank_id, rule: 'app_approval' },
    });
  }
  for (const at of new Set(changedAt)) {
    for (const e of eventsAt(at)) {
      timeline.push({ ...entry(e.created_at, 'event'), event: e.name, eventId: e.id, deliveries: deliveriesOf(e.id) });
    }
  }
  // stable: entries at one instant keep the order above (the change before its event)
  return timeline.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
