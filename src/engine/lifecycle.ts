/**
 * Applying a trigger to one aggregate, inside the caller's store transaction:
 *
 *   load row -> domain decides (next state + events, or 409) -> store writes the row
 *            -> outbox records the events -> the aggregate's timer is replaced
 *
 * Nothing here decides anything: the rules are in src/domain, the SQL in src/store. A timed
 * transition uses the timer's due instant as `atMs` (updated_at, event timestamps), so a big
 * clock advance produces the same history as waiting would have.
 */
import { consentTimer, decideConsent, type ConsentTrigger } from '../domain/consent.js';
import { ApiError } from '../domain/errors.js';
import { envelope } from '../domain/events.js';
import type { EventName } from '../domain/machine.js';
import { creationEvents, decideMerchant, merchantEventData, merchantTimer, type MerchantTrigger } from '../domain/merchant.js';
import { decidePayment, payerOpensPage, paymentEventData, paymentTimer, type PaymentTrigger } from '../domain/payment.js';
import type { LifecycleSettings, TimerRequest } from '../domain/settings.js';
import type { ConsentRow } from '../domain/consent.js';
import type { Store } from '../store/index.js';
import type { MerchantRow } from '../domain/merchant.js';
import type { PaymentRow } from '../domain/payment.js';
import type { TimerAggregate } from '../store/timers.js';

export interface MerchantOpts {
  /** Only this partner's merchant (control API); otherwise any (hosted pages, timers). */
  partnerId?: string;
  /** Merged into merchants.details (onboarding form data). */
  data?: Record<string, unknown>;
}
export interface PaymentOpts {
  partnerId?: string;
  bankId?: string;
}
export interface ConsentOpts {
  partnerId?: string;
  errorMessage?: string;
  bankId?: string;
}

export type Lifecycle = ReturnType<typeof createLifecycle>;

/** The lifecycle of one sandbox: its settings, and its id on every timer it schedules. */
export function createLifecycle(store: Store, settings: LifecycleSettings, sandboxId: string) {
  const { timers, outbox } = store;

  function emit(partnerId: string, events: readonly EventName[], data: object, atIso: string): void {
    for (const name of events) outbox.emit(partnerId, envelope(name, data, atIso) as Parameters<typeof outbox.emit>[1]);
  }

  /** Replace the aggregate's timer with the one its new state asks for (if any). */
  function reschedule(
    partnerId: string,
    aggregate: TimerAggregate,
    id: string | number,
    timer: TimerRequest | undefined,
    isNew = false,
  ): void {
    if (!isNew) timers.cancel(aggregate, id);
    if (timer) timers.schedule(sandboxId, partnerId, aggregate, id, timer.trigger, timer.dueAtMs);
  }

  function merchant(id: number, trigger: MerchantTrigger, opts: MerchantOpts, atMs: number): MerchantRow {
    const row = store.merchants.getAny(id);
    if (!row || (opts.partnerId !== undefined && row.partner_id !== opts.partnerId)) throw new ApiError('merchant_not_found');
    const { change, events } = decideMerchant(row, trigger, opts.data, atMs);
    const updated = store.merchants.update(id, change);
    emit(row.partner_id, events, merchantEventData(updated, row.status, change.updated_at), change.updated_at);
    reschedule(row.partner_id, 'merchant', id, merchantTimer(updated, settings, atMs));
    return updated;
  }

  function payment(id: number, trigger: PaymentTrigger, opts: PaymentOpts, atMs: number): PaymentRow {
    const row = store.payments.getAny(id);
    if (!row || (opts.partnerId !== undefined && row.partner_id !== opts.partnerId)) throw new ApiError('payment_not_found');
    const { change, events } = decidePayment(row, trigger, opts.bankId, atMs);
    const updated = store.payments.update(id, change);
    if (events.length > 0) {
      const merchantName = store.merchants.getAny(updated.merchant_id)?.company_name ?? '';
      emit(row.partner_id, events, paymentEventData(updated, merchantName, change.updated_at), change.updated_at);
    }
    reschedule(row.partner_id, 'payment', id, paymentTimer(updated, settings));
    return updated;
  }

  /** The payer opened the hosted page: recorded once, and the payment's timer becomes its expiry. */
  function paymentPageOpened(id: number, atMs: number): PaymentRow | undefined {
    const row = store.payments.getAny(id);
    const change = row && payerOpensPage(row, atMs, settings);
    if (!row || !change) return row;
    const updated = store.payments.markPageOpened(id, change.page_opened_at);
    reschedule(row.partner_id, 'payment', id, paymentTimer(updated, settings));
    return updated;
  }

  function consent(requestId: string, trigger: ConsentTrigger, opts: ConsentOpts, atMs: number): ConsentRow {
    const found = store.consents.getWithPartner(requestId);
    if (!found || (opts.partnerId !== undefined && found.partnerId !== opts.partnerId)) throw new ApiError('consent_not_found');
    const updated = store.consents.update(requestId, decideConsent(found.row, trigger, opts, atMs));
    reschedule(found.partnerId, 'consent', requestId, consentTimer(updated));
    return updated;
  }

  return {
    merchant,
    payment,
    paymentPageOpened,
    consent,
    /** Fire one timer: its trigger on its aggregate at its due instant. */
    fire(aggregate: TimerAggregate, aggregateId: string, trigger: string, atMs: number): void {
      if (aggregate === 'merchant') merchant(Number(aggregateId), trigger as MerchantTrigger, {}, atMs);
      else if (aggregate === 'payment') payment(Number(aggregateId), trigger as PaymentTrigger, {}, atMs);
      else consent(aggregateId, trigger as ConsentTrigger, {}, atMs);
    },
    /** Call inside the transaction that inserted the payment: its settlement or expiry timer. */
    paymentCreated(row: PaymentRow): void {
      reschedule(row.partner_id, 'payment', row.id, paymentTimer(row, settings), true);
    },
    /** Call inside the transaction that inserted the merchant: creation events (a test merchant is activated) and its timer. */
    merchantCreated(row: MerchantRow): void {
      for (const e of creationEvents(row)) emit(row.partner_id, [e.name], e.data, row.created_at);
      reschedule(row.partner_id, 'merchant', row.id, merchantTimer(row, settings, Date.parse(row.created_at)));
    },
    /** Call inside the transaction that inserted the consent: its expiry timer. */
    consentCreated(row: ConsentRow, partnerId: string): void {
      reschedule(partnerId, 'consent', row.request_id, consentTimer(row), true);
    },
  };
}
