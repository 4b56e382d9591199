/**
 * Timers table: due transitions (settlement, expiry, approval, consent expiry). due_at is
 * milliseconds on the clock of the timer's sandbox; the engine's timer runtime of that sandbox
 * takes them in (due_at, id) order. A timer carries the trace context of the change that
 * scheduled it (traceparent, tracestate): the transition it makes continues that trace.
 */
import type { TraceHeaders } from '../domain/trace-context.js';
import type { Db } from './db.js';

export type TimerAggregate = 'merchant' | 'payment' | 'consent';

export interface TimerRow {
  id: number;
  sandbox_id: string;
  partner_id: string;
  due_at: number;
  aggregate: TimerAggregate;
  aggregate_id: string;
  trigger: string;
  traceparent: string | null;
  tracestate: string | null;
}

export function timerStore(db: Db) {
  const insert = db.prepare(
    'INSERT INTO timers (sandbox_id, partner_id, due_at, aggregate, aggregate_id, trigger, traceparent, tracestate) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const cancel = db.prepare('DELETE FROM timers WHERE aggregate = ? AND aggregate_id = ?');
  const nextDue = db.prepare('SELECT * FROM timers WHERE sandbox_id = CAST(? AS TEXT) AND due_at <= ? ORDER BY due_at, id LIMIT 1');
  const nextDueOf = db.prepare(
    'SELECT * FROM timers WHERE aggregate = CAST(? AS TEXT) AND aggregate_id = CAST(? AS TEXT) AND due_at <= ? ORDER BY due_at, id LIMIT 1',
  );
  const remove = db.prepare('DELETE FROM timers WHERE id = ?');
  const nextAt = db.prepare('SELECT min(due_at) FROM timers WHERE sandbox_id = ?').pluck();
  const ofAggregate = db.prepare(
    'SELECT * FROM timers WHERE aggregate = CAST(? AS TEXT) AND aggregate_id = CAST(? AS TEXT) ORDER BY due_at, id',
  );
  const sandboxesWithTimers = db.prepare('SELECT DISTINCT sandbox_id FROM timers').pluck();

  /** Per sandbox, the earliest due_at inserted since the last takeInserted() (only an insert can move its next due instant earlier). */
  let inserted = new Map<string, number>();

  const take = (timer: TimerRow | undefined) => {
    if (timer) remove.run(timer.id);
    return timer;
  };

  return {
    schedule(
      sandboxId: string,
      partnerId: string,
      aggregate: TimerAggregate,
      aggregateId: string | number,
      trigger: string,
      dueAtMs: number,
      trace: TraceHeaders | null = null,
    ): void {
      const due = Math.round(dueAtMs);
      insert.run(sandboxId, partnerId, due, aggregate, String(aggregateId), trigger, trace?.traceparent ?? null, trace?.tracestate ?? null);
      const min = inserted.get(sandboxId);
      if (min === undefined || due < min) inserted.set(sandboxId, due);
    },
    /** Per sandbox, the earliest due_at scheduled since the previous call, and reset. */
    takeInserted(): Map<string, number> {
      const taken = inserted;
      inserted = new Map();
      return taken;
    },
    cancel(aggregate: TimerAggregate, aggregateId: string | number): void {
      cancel.run(aggregate, String(aggregateId));
    },
    /** Remove and return the sandbox's earliest timer due at or before `nowMs` (call inside a transaction). */
    takeNextDue: (sandboxId: string, nowMs: number) => take(nextDue.get(sandboxId, nowMs) as TimerRow | undefined),
    /** Like takeNextDue, for one aggregate's timers only (call inside a transaction). */
    takeNextDueOf: (aggregate: TimerAggregate, aggregateId: string | number, nowMs: number) =>
      take(nextDueOf.get(aggregate, String(aggregateId), nowMs) as TimerRow | undefined),
    nextDueAt: (sandboxId: string): number | undefined => (nextAt.get(sandboxId) as number | null) ?? undefined,
    timersOf: (aggregate: TimerAggregate, aggregateId: string | number) => ofAggregate.all(aggregate, String(aggregateId)) as TimerRow[],
    /** Sandboxes with at least one pending timer (start-up). */
    sandboxesWithTimers: (): string[] => sandboxesWithTimers.all() as string[],
  };
}
