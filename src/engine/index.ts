/**
 * The lifecycle engine: applies a trigger to one aggregate (merchant, payment, consent) in ONE
 * store transaction:
 *
 *   read row -> domain machine transition (409 illegal_transition) -> update row
 *            -> outbox events (payload per contract) -> cancel / schedule timers
 *
 * and runs the scheduler (`runDue`): due timers fire in due_at order, one transaction each. A
 * timer whose transition is no longer legal (the payer acted first, a control call moved the
 * aggregate on) is simply dropped.
 *
 * Timed transitions use the timer's due instant as "now" (updated_at, event timestamps), so a
 * big clock advance produces the same history as waiting would have.
 */
import { randomUUID } from 'node:crypto';
import type { VirtualClock } from '../clock.js';
import type { Config } from '../config.js';
import { consentMachine, type ConsentStatus, type ConsentTrigger } from '../domain/consent.js';
import { ApiError } from '../domain/errors.js';
import type { EventName } from '../domain/machine.js';
import { merchantMachine, webhookStatusName, type MerchantStatus, type MerchantTrigger } from '../domain/merchant.js';
import {
  bankPaymentStatus,
  FAILURE_REASON_BY_TRIGGER,
  magicOutcome,
  paymentMachine,
  type FailureReason,
  type PaymentStatus,
  type PaymentTrigger,
} from '../domain/payment.js';
import type { Db } from '../store/db.js';
import type { Store } from '../store/index.js';
import type { MerchantRow } from '../store/merchants.js';
import { createScheduler, type Scheduler, type TimerAggregate } from './scheduler.js';

/** Row of the payments table (001_core). */
export interface PaymentRow {
  id: number;
  partner_id: string;
  merchant_id: number;
  merchant_client_id: string;
  amount_minor: number;
  currency: string;
  reference_number: string;
  status: PaymentStatus;
  bank_payment_status: string | null;
  failure_reason: string | null;
  bank_id: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

/** The columns of the consents table the engine reads and writes (the AIS area owns the table). */
export interface ConsentRowLike {
  request_id: string;
  status: ConsentStatus;
  expiration_date_time: string;
  [column: string]: unknown;
}

export interface EngineDeps {
  store: Store;
  clock: VirtualClock;
  config: Config;
  db: Db;
  log?: { error(obj: unknown, msg?: string): void };
}

export interface MerchantOpts {
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

export type Engine = ReturnType<typeof createEngine>;

export function createEngine({ store, clock, config, db, log }: EngineDeps) {
  const scheduler: Scheduler = createScheduler(db, clock);
  const sandbox = config.environment !== 'production';

  // ---- statements (prepared once; consent ones lazily: the AIS migration owns that table) ----
  const merchantById = db.prepare('SELECT * FROM merchants WHERE id = ?');
  const updateMerchant = db.prepare('UPDATE merchants SET status = ?, details = ?, updated_at = ? WHERE id = ? RETURNING *');
  const paymentById = db.prepare('SELECT * FROM payments WHERE id = ?');
  const updatePayment = db.prepare(
    `UPDATE payments SET status = @status, bank_payment_status = @bank_payment_status, failure_reason = @failure_reason,
       bank_id = COALESCE(@bank_id, bank_id), updated_at = @updated_at WHERE id = @id RETURNING *`,
  );
  let consentStmts: ReturnType<typeof prepareConsent> | undefined;
  const consentSql = () => (consentStmts ??= prepareConsent(db));

  const iso = (ms: number) => new Date(ms).toISOString();

  // ---------------------------------------------------------------- merchants
  function merchantEventData(row: MerchantRow, previous: MerchantStatus, atIso: string) {
    return {
      merchantId: row.id,
      clientId: row.client_id,
      companyName: row.company_name,
      status: webhookStatusName(row.status),
      previousStatus: webhookStatusName(previous),
      timestamp: atIso,
    };
  }

  function emitAll(partnerId: string, events: readonly EventName[], data: Record<string, unknown>, atIso: string) {
    for (const name of events) store.outbox.emit(partnerId, name, data, atIso);
  }

  function scheduleMerchant(row: MerchantRow, atMs: number) {
    scheduler.cancel('merchant', row.id);
    if (row.status === 'awaiting_approval' && sandbox) {
      scheduler.schedule(row.partner_id, 'merchant', row.id, 'approve', atMs + config.approvalDelayMs);
    }
  }

  function applyMerchant(id: number, trigger: MerchantTrigger, opts: MerchantOpts, atMs: number): MerchantRow {
    const row = merchantById.get(id) as MerchantRow | undefined;
    if (!row || (opts.partnerId !== undefined && row.partner_id !== opts.partnerId)) throw new ApiError('merchant_not_found');
    const { to, events } = merchantMachine.transition(row.status, trigger);
    const details = opts.data ? JSON.stringify({ ...safeJson(row.details), ...opts.data }) : row.details;
    const atIso = iso(atMs);
    const updated = updateMerchant.get(to, details, atIso, id) as MerchantRow;
    emitAll(row.partner_id, events, merchantEventData(updated, row.status, atIso), atIso);
    scheduleMerchant(updated, atMs);
    return updated;
  }

  // ---------------------------------------------------------------- payments
  function paymentEventData(row: PaymentRow, atIso: string) {
    const merchant = merchantById.get(row.merchant_id) as MerchantRow | undefined;
    const data: Record<string, unknown> = {
      paymentId: row.id,
      referenceNumber: row.reference_number,
      status: row.status,
      amount: row.amount_minor / 100,
      currency: row.currency,
      merchantClientId: row.merchant_client_id,
      merchantName: merchant?.company_name ?? '',
      bankPaymentStatus: row.bank_payment_status ?? bankPaymentStatus(row.status, row.failure_reason as FailureReason | null),
      timestamp: atIso,
    };
    if (row.status === 'failed') data.failureReason = row.failure_reason;
    return data;
  }

  /**
   * The timer a payment needs in its current state (after cancelling the old ones; a payment
   * just inserted has none). A pending payment has two possible timed endings, its sandbox outcome
   * (settle / reject / abandon after the settle delay) and its expiry; whichever comes first moves
   * it out of `pending`, which makes the other one illegal, so only the earlier is scheduled (on a
   * tie, expiry: the order the two used to fire in). One timer row per payment instead of two.
   */
  function schedulePayment(row: PaymentRow, atMs: number, isNew = false) {
    if (!isNew) scheduler.cancel('payment', row.id);
    const magic = sandbox ? magicOutcome(row.amount_minor / 100) : undefined;
    if (row.status === 'pending') {
      const expiry = magic === 'stay_pending' ? undefined : Date.parse(row.expires_at);
      const outcome: PaymentTrigger | undefined = !sandbox
        ? undefined
        : magic === undefined
          ? 'settle'
          : magic === 'bank_rejected'
            ? 'reject'
            : magic === 'payer_abandoned'
              ? 'abandon'
              : undefined;
      const outcomeAt = Date.parse(row.created_at) + config.settleDelayMs;
      if (outcome && (expiry === undefined || outcomeAt < expiry)) scheduler.schedule(row.partner_id, 'payment', row.id, outcome, outcomeAt);
      else if (expiry !== undefined) scheduler.schedule(row.partner_id, 'payment', row.id, 'expire', expiry);
    } else if (row.status === 'processing') {
      // the payer approved at the bank: the bank settles (or, magic 666.66, rejects) after the delay
      scheduler.schedule(row.partner_id, 'payment', row.id, magic === 'bank_rejected' ? 'reject' : 'settle', atMs + config.settleDelayMs);
    }
  }

  function applyPayment(id: number, trigger: PaymentTrigger, opts: PaymentOpts, atMs: number): PaymentRow {
    const row = paymentById.get(id) as PaymentRow | undefined;
    if (!row || (opts.partnerId !== undefined && row.partner_id !== opts.partnerId)) throw new ApiError('payment_not_found');
    const { to, events } = paymentMachine.transition(row.status, trigger);
    const reason = to === 'failed' ? (FAILURE_REASON_BY_TRIGGER[trigger] ?? null) : null;
    const atIso = iso(atMs);
    const updated = updatePayment.get({
      id,
      status: to,
      bank_payment_status: bankPaymentStatus(to, reason),
      failure_reason: reason,
      bank_id: opts.bankId ?? null,
      updated_at: atIso,
    }) as PaymentRow;
    emitAll(row.partner_id, events, paymentEventData(updated, atIso), atIso);
    schedulePayment(updated, atMs);
    return updated;
  }

  // ---------------------------------------------------------------- consents
  function scheduleConsent(row: ConsentRowLike, partnerId: string) {
    scheduler.cancel('consent', row.request_id);
    if (row.status === 'pending' || row.status === 'authorized') {
      const due = Date.parse(row.expiration_date_time);
      if (Number.isFinite(due)) scheduler.schedule(partnerId, 'consent', row.request_id, 'expire', due);
    }
  }

  function applyConsent(requestId: string, trigger: ConsentTrigger, opts: ConsentOpts, atMs: number): ConsentRowLike {
    const sql = consentSql();
    const found = sql.get(requestId);
    if (!found || (opts.partnerId !== undefined && found.partnerId !== opts.partnerId)) throw new ApiError('consent_not_found');
    const row = found.row;
    const { to } = consentMachine.transition(row.status, trigger);
    const updated = sql.update(row, to, trigger, opts, iso(atMs));
    scheduleConsent(updated, found.partnerId);
    return updated;
  }

  // ---------------------------------------------------------------- timers
  function fire(aggregate: TimerAggregate, aggregateId: string, trigger: string, atMs: number): void {
    switch (aggregate) {
      case 'merchant':
        return void applyMerchant(Number(aggregateId), trigger as MerchantTrigger, {}, atMs);
      case 'payment':
        return void applyPayment(Number(aggregateId), trigger as PaymentTrigger, {}, atMs);
      case 'consent':
        return void applyConsent(aggregateId, trigger as ConsentTrigger, {}, atMs);
    }
  }

  let firedTotal = 0;
  let running = false;
  /** Due timers fired per transaction by fireDue (each in its own savepoint). */
  const RUN_BATCH = 100;
  /** A sliced run (runDueSliced) gives the event loop back after about this much work. */
  const SLICE_MS = 4;

  /**
   * Fire timers due at or before `nowMs`, earliest first, each in its own savepoint (up to
   * RUN_BATCH per transaction). Timers scheduled by a firing that also fall due fire in the same
   * call. `budgetMs`: stop after about that long and report `more` (the caller goes on in a later
   * turn). `only`: one aggregate's timers (catch-up before a trigger on it). A timer whose
   * transition is no longer legal is dropped and not counted.
   */
  function fireDue(nowMs: number, opts: { budgetMs?: number; only?: [TimerAggregate, string | number] } = {}): { fired: number; more: boolean } {
    if (running) return { fired: 0, more: false }; // re-entrant call (a listener advancing the clock): the outer loop picks them up
    running = true;
    let fired = 0;
    let more = false;
    const started = performance.now();
    const take = opts.only ? () => scheduler.takeNextDueOf(opts.only![0], opts.only![1], nowMs) : () => scheduler.takeNextDue(nowMs);
    // One timer = one savepoint (its own all-or-nothing unit); 1,000 payments settling at once are
    // 10 transactions of 100, not 1,000
    const fireOne = db.transaction((): boolean | undefined => {
      const timer = take();
      if (!timer) return undefined;
      try {
        fire(timer.aggregate, timer.aggregate_id, timer.trigger, timer.due_at);
        return true;
      } catch (err) {
        if (err instanceof ApiError) return false; // illegal now, or the row is gone: drop the timer
        throw err;
      }
    });
    try {
      let done = false;
      while (!done) {
        let failure: unknown;
        store.tx(() => {
          for (let i = 0; i < RUN_BATCH; i++) {
            let ok: boolean | undefined;
            try {
              ok = fireOne();
            } catch (err) {
              // this timer's savepoint is rolled back; the ones before it in the batch still commit
              failure = err;
              done = true;
              return;
            }
            if (ok === undefined) {
              done = true;
              return;
            }
            if (ok) fired++;
            if (opts.budgetMs !== undefined && performance.now() - started >= opts.budgetMs) {
              more = true;
              done = true;
              return;
            }
          }
        });
        if (failure !== undefined) throw failure;
      }
    } finally {
      running = false;
      firedTotal += fired;
    }
    return { fired, more };
  }

  /** Fire everything due now, synchronously (start-up, a direct clock.advance). Returns how many fired. */
  function runDue(nowMs: number = clock.nowMs()): number {
    return fireDue(nowMs).fired;
  }

  /**
   * Fire everything due, in slices of about SLICE_MS with the event loop given back between them,
   * so a burst (1,000 payments settling at once) never holds other requests for more than a
   * slice. Each slice fires what is due at its own "now". Resolves with how many fired.
   */
  let slicing = 0;
  async function runDueSliced(): Promise<number> {
    slicing++;
    let total = 0;
    try {
      for (;;) {
        const { fired, more } = fireDue(clock.nowMs(), { budgetMs: SLICE_MS });
        total += fired;
        if (!more || closed) break;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      slicing--;
    }
    return total;
  }

  /**
   * Before applying a trigger to an aggregate, fire its own timers that already fell due (a
   * running clock can pass a due instant a few ms before its timer fires, or a sliced run may not
   * have reached it yet): a payer cannot approve a payment that has expired.
   */
  function catchUp(aggregate: TimerAggregate, id: string | number): void {
    if (!running && !store.inTransaction) fireDue(clock.nowMs(), { only: [aggregate, id] });
  }

  // real-time arming (running clock only)
  let handle: NodeJS.Timeout | undefined;
  /** When (performance.now(), real ms) the armed real-time timer fires. */
  let armedAtReal = Number.POSITIVE_INFINITY;
  let closed = false;
  function arm(): void {
    scheduler.takeInsertedMin(); // arm() looks at the whole table: forget what was inserted before
    if (slicing > 0) return; // a sliced run is firing what is due; it arms when it is done
    if (closed || clock.frozen) {
      if (handle) clearTimeout(handle);
      handle = undefined;
      return;
    }
    const next = scheduler.nextDueAt();
    const delay = next === undefined ? 0 : Math.min(Math.max(0, next - clock.nowMs()), 2_147_483_647);
    // every commit re-arms: keep the armed timer when it fires no later (in real time) than the
    // earliest due timer needs (firing early only finds nothing due and re-arms), instead of a
    // clearTimeout + setTimeout per request
    if (handle && next !== undefined && armedAtReal <= performance.now() + delay) return;
    if (handle) clearTimeout(handle);
    handle = undefined;
    if (next === undefined) return;
    armedAtReal = performance.now() + delay;
    handle = setTimeout(() => {
      handle = undefined;
      if (closed) return;
      void runDueSliced().then(arm, (err: unknown) => {
        log?.error({ err }, 'timed transitions failed; retrying at the next timer');
        arm();
      });
    }, delay);
    handle.unref();
  }

  /** Set while advance() moves the clock: it fires the due timers itself, in slices. */
  let advancing = false;
  const offAdvance = clock.onAdvance((now) => {
    if (advancing) return;
    runDue(now);
    arm();
  });
  const offCommit = store.onCommit(() => {
    if (running || slicing > 0) return;
    // only an inserted timer can make the next due instant earlier (deletions at most make the
    // armed timer fire early, which re-arms): a commit that inserted none, or only timers due
    // after the armed one fires, needs no look at the timers table
    const insertedMin = scheduler.takeInsertedMin();
    if (insertedMin === undefined && (handle || clock.frozen || closed)) return;
    if (insertedMin !== undefined && handle && armedAtReal <= performance.now() + Math.max(0, insertedMin - clock.nowMs())) return;
    arm();
  });

  return {
    /** Apply a merchant trigger (control API, hosted onboarding page). Returns the updated row. */
    merchant(merchantId: number, trigger: MerchantTrigger, opts: MerchantOpts = {}): MerchantRow {
      catchUp('merchant', merchantId);
      return store.tx(() => applyMerchant(merchantId, trigger, opts, clock.nowMs()));
    },
    /** Apply a payment trigger (control API, hosted payment page). Returns the updated row. */
    payment(paymentId: number, trigger: PaymentTrigger, opts: PaymentOpts = {}): PaymentRow {
      catchUp('payment', paymentId);
      return store.tx(() => applyPayment(paymentId, trigger, opts, clock.nowMs()));
    },
    /** Apply a consent trigger (control API, hosted consent page). Returns the updated row. */
    consent(requestId: string, trigger: ConsentTrigger, opts: ConsentOpts = {}): ConsentRowLike {
      catchUp('consent', requestId);
      return store.tx(() => applyConsent(requestId, trigger, opts, clock.nowMs()));
    },
    /** Call INSIDE the transaction that inserted the payment: schedules settlement and expiry. */
    onPaymentCreated(row: PaymentRow): void {
      schedulePayment(row, Date.parse(row.created_at), true);
    },
    /**
     * Call INSIDE the transaction that inserted the merchant: a test merchant (created
     * activated) emits merchant.activated; a merchant created awaiting approval gets its timer.
     */
    onMerchantCreated(row: MerchantRow): void {
      const atIso = row.created_at;
      if (row.status === 'activated') {
        emitAll(row.partner_id, ['merchant.activated'], merchantEventData(row, 'pending_onboarding', atIso), atIso);
      }
      scheduleMerchant(row, Date.parse(row.created_at));
    },
    /** Call INSIDE the transaction that inserted the consent: schedules the expiry timer. */
    onConsentCreated(row: ConsentRowLike & { partner_id?: string }, partnerId?: string): void {
      const owner = partnerId ?? row.partner_id ?? consentSql().get(row.request_id)?.partnerId;
      if (owner) scheduleConsent(row, owner);
    },
    runDue,
    /**
     * Move the clock forward by `ms` and fire every transition that fell due, earliest first, in
     * slices (other requests are served in between); resolves when all have fired, with how many
     * fired meanwhile. The control API's clock advance.
     */
    async advance(ms: number): Promise<number> {
      const before = firedTotal;
      advancing = true;
      try {
        clock.advance(ms);
      } finally {
        advancing = false;
      }
      await runDueSliced();
      arm();
      return firedTotal - before;
    },
    /** Timers fired since start (the clock route reports the difference around an advance). */
    get firedTotal(): number {
      return firedTotal;
    },
    /** Pending timers of one aggregate (tests, control API). */
    timersOf: scheduler.timersOf,
    /** Re-arm the real-time timer (after the clock is frozen or resumed). */
    rearm: arm,
    /** Start: fire whatever fell due while obsim was down, then arm the real-time timer. */
    start(): void {
      runDue(clock.nowMs());
      arm();
    },
    close(): void {
      closed = true;
      if (handle) clearTimeout(handle);
      offAdvance();
      offCommit();
    },
  };
}

function safeJson(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Consent statements. The consents table belongs to the AIS area; the engine needs only the
 * status columns and the owning partner (through the merchant).
 */
function prepareConsent(db: Db) {
  const byRequestId = db.prepare(
    `SELECT c.*, m.partner_id AS __partner_id FROM consents c JOIN merchants m ON m.id = c.merchant_id WHERE c.request_id = ?`,
  );
  const columns = new Set((db.prepare('PRAGMA table_info(consents)').all() as { name: string }[]).map((c) => c.name));
  const updates = new Map<string, ReturnType<Db['prepare']>>();
  return {
    get(requestId: string): { row: ConsentRowLike; partnerId: string } | undefined {
      const r = byRequestId.get(requestId) as (ConsentRowLike & { __partner_id: string }) | undefined;
      if (!r) return undefined;
      const { __partner_id, ...row } = r;
      return { row: row as ConsentRowLike, partnerId: __partner_id };
    },
    update(row: ConsentRowLike, to: ConsentStatus, trigger: ConsentTrigger, opts: ConsentOpts, atIso: string): ConsentRowLike {
      const set: Record<string, unknown> = { status: to, updated_at: atIso };
      if (trigger === 'deny' && columns.has('error_message')) set.error_message = opts.errorMessage ?? 'The user denied the consent at the bank';
      if (trigger === 'authorize' && columns.has('consent_id') && !row.consent_id) set.consent_id = `cns_${randomUUID().replace(/-/g, '')}`;
      if (opts.bankId && columns.has('bank_id')) set.bank_id = opts.bankId;
      const keys = Object.keys(set).filter((k) => columns.has(k));
      const sql = `UPDATE consents SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE request_id = @__id RETURNING *`;
      let stmt = updates.get(sql);
      if (!stmt) updates.set(sql, (stmt = db.prepare(sql)));
      return stmt.get({ ...Object.fromEntries(keys.map((k) => [k, set[k]])), __id: row.request_id }) as ConsentRowLike;
    },
  };
}
