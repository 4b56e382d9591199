/**
 * Timers table: due transitions (settlement, expiry, approval, consent expiry). due_at is
 * virtual-clock milliseconds; the engine's timer runtime takes them in (due_at, id) order.
 */
import type { Db } from './db.js';

export type TimerAggregate = 'merchant' | 'payment' | 'consent';

export interface TimerRow {
  id: number;
  partner_id: string;
  due_at: number;
  aggregate: TimerAggregate;
  aggregate_id: string;
  trigger: string;
}

export function timerStore(db: Db) {
  const insert = db.prepare('INSERT INTO timers (partner_id, due_at, aggregate, aggregate_id, trigger) VALUES (?, ?, ?, ?, ?)');
  const cancel = db.prepare('DELETE FROM timers WHERE aggregate = ? AND aggregate_id = ?');
  const nextDue = db.prepare('SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id LIMIT 1');
  const nextDueOf = db.prepare('SELECT * FROM timers WHERE aggregate = ? AND aggregate_id = ? AND due_at <= ? ORDER BY due_at, id LIMIT 1');
  const remove = db.prepare('DELETE FROM timers WHERE id = ?');
  const nextAt = db.prepare('SELECT min(due_at) FROM timers').pluck();
  const ofAggregate = db.prepare('SELECT * FROM timers WHERE aggregate = ? AND aggregate_id = ? ORDER BY due_at, id');

  /** Earliest due_at inserted since the last takeInsertedMin() (only an insert can move the next due instant earlier). */
  let insertedMin: number | undefined;

  const take = (timer: TimerRow | undefined) => {
    if (timer) remove.run(timer.id);
    return timer;
  };

  return {
    schedule(partnerId: string, aggregate: TimerAggregate, aggregateId: string | number, trigger: string, dueAtMs: number): void {
      const due = Math.round(dueAtMs);
      insert.run(partnerId, due, aggregate, String(aggregateId), trigger);
      if (insertedMin === undefined || due < insertedMin) insertedMin = due;
    },
    /** The earliest due_at scheduled since the previous call (undefined: none), and reset. */
    takeInsertedMin(): number | undefined {
      const min = insertedMin;
      insertedMin = undefined;
      return min;
    },
    cancel(aggregate: TimerAggregate, aggregateId: string | number): void {
      cancel.run(aggregate, String(aggregateId));
    },
    /** Remove and return the earliest timer due at or before `nowMs` (call inside a transaction). */
    takeNextDue: (nowMs: number) => take(nextDue.get(nowMs) as TimerRow | undefined),
    /** Like takeNextDue, for one aggregate's timers only (call inside a transaction). */
    takeNextDueOf: (aggregate: TimerAggregate, aggregateId: string | number, nowMs: number) =>
      take(nextDueOf.get(aggregate, String(aggregateId), nowMs) as TimerRow | undefined),
    nextDueAt: (): number | undefined => (nextAt.get() as number | null) ?? undefined,
    timersOf: (aggregate: TimerAggregate, aggregateId: string | number) => ofAggregate.all(aggregate, String(aggregateId)) as TimerRow[],
  };
}
