/**
 * What GET /metrics reads of the database when Prometheus scrapes (src/plugins/metrics.ts):
 * resources by state over every sandbox (counted by triggers as rows are written), and one
 * sandbox's due timers.
 */
import type { Db } from './db.js';

export function metricsReads(db: Db) {
  // kept by triggers on every write of the three tables (migration 103_state_counts)
  const states = db.prepare('SELECT resource, state, n FROM state_counts WHERE n > 0 ORDER BY resource, state').raw();
  const dueTimers = db
    .prepare('SELECT count(*), coalesce(sum(due_at <= ?), 0), min(due_at) FROM timers WHERE sandbox_id = ? AND due_at <= ?')
    .raw();
  return {
    /** Payments, merchants and consents by state, every sandbox's. */
    stateCounts: (): { resource: string; state: string; count: number }[] =>
      (states.all() as [string, string, number][]).map(([resource, state, count]) => ({ resource, state, count })),
    /** A sandbox's timers due at `nowMs` on its clock: how many, how many due before `overdueBeforeMs`, and the oldest due instant. */
    dueTimers(sandboxId: string, nowMs: number, overdueBeforeMs: number): { due: number; overdue: number; oldestDueAt: number | null } {
      const [due, overdue, oldest] = dueTimers.get(overdueBeforeMs, sandboxId, nowMs) as [number, number, number | null];
      return { due, overdue, oldestDueAt: oldest };
    },
  };
}
