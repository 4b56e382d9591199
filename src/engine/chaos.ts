/**
 * The fault profiles in force (docs/chaos.md), one per sandbox that has one: its decider (the
 * seeded streams, src/domain/chaos.ts) and how many faults each rule injected since it was set.
 * Loaded at start (a small table); a sandbox without a profile costs a request one size check
 * while no sandbox has one, one Map lookup otherwise.
 *
 * The book follows the rows: a profile set or cleared changes it once its transaction has
 * committed. How far each rule's stream has drawn is written with every decision that drew, and a
 * decision whose transaction rolls back gives its draws back, so the same seed and the same
 * requests give the same faults across a failed commit and a restart.
 */
import {
  createFaultDecider,
  type ApiFault,
  type FaultDecider,
  type FaultProfile,
  type OperationName,
  type WebhookFaults,
} from '../domain/chaos.js';
import type { Store } from '../store/index.js';

interface InForce {
  decider: FaultDecider;
  setAt: string;
  injected: number[];
}

export function createChaos(store: Store) {
  const inForce = new Map<string, InForce>();
  const put = (sandboxId: string, profile: FaultProfile, setAt: string, drawn: readonly number[] = []) =>
    inForce.set(sandboxId, { decider: createFaultDecider(profile, drawn), setAt, injected: profile.rules.map(() => 0) });
  for (const row of store.faultProfiles.all()) put(row.sandboxId, row.profile, row.setAt, row.draws);

  /** Keep how far the streams drew with the decision's own transaction; rolled back, the decider goes back too. */
  function counted<T>(sandboxId: string, f: InForce, decide: () => T): T {
    const before = f.decider.drawn();
    const decision = decide();
    const after = f.decider.drawn();
    if (after.every((n, i) => n === before[i])) return decision;
    store.tx(() => {
      store.faultProfiles.setDraws(sandboxId, after);
      store.onUndo(() => {
        if (inForce.get(sandboxId) === f) f.decider = createFaultDecider(f.decider.profile, before);
      });
    });
    return decision;
  }

  return {
    /** Some sandbox has a profile in force (when none has, a request is not looked at). */
    get active(): boolean {
      return inForce.size > 0;
    },
    /** The fault of a partner request of `sandboxId`, if its profile injects one. */
    api(sandboxId: string, op: OperationName, nowMs: number): ApiFault | undefined {
      if (inForce.size === 0) return undefined;
      const f = inForce.get(sandboxId);
      if (!f) return undefined;
      const fault = counted(sandboxId, f, () => f.decider.api(op, nowMs));
      if (fault) f.injected[fault.rule]++;
      return fault;
    },
    /** The faults of a delivery of `sandboxId`, if its profile gives it any. */
    webhook(sandboxId: string, event: string, nowMs: number): WebhookFaults | undefined {
      if (inForce.size === 0) return undefined;
      const f = inForce.get(sandboxId);
      if (!f) return undefined;
      const faults = counted(sandboxId, f, () => f.decider.webhook(event, nowMs));
      if (faults) for (const mark of [faults.drop, faults.duplicate, faults.delay, faults.reorder]) if (mark) f.injected[mark.rule]++;
      return faults;
    },
    /** Put `profile` in force (its streams start again from its seed) once committed; `setAt` on the sandbox's clock. */
    set(sandboxId: string, profile: FaultProfile, setAt: string): void {
      store.tx(() => {
        store.faultProfiles.set(sandboxId, profile, setAt);
        store.afterCommit(() => put(sandboxId, profile, setAt));
      });
    },
    /** No faults any more, once committed; whether a profile was in force. */
    clear(sandboxId: string): boolean {
      return store.tx(() => {
        const had = store.faultProfiles.clear(sandboxId);
        store.afterCommit(() => inForce.delete(sandboxId));
        return had;
      });
    },
    /** The profile in force, when it was set, and the faults each rule injected since. */
    get(sandboxId: string): { profile: FaultProfile; setAt: string; injected: readonly number[] } | undefined {
      const f = inForce.get(sandboxId);
      return f && { profile: f.decider.profile, setAt: f.setAt, injected: f.injected };
    },
    /** The sandbox is gone (its row went in the transaction that removed it). */
    forget: (sandboxId: string): void => void inForce.delete(sandboxId),
  };
}
export type Chaos = ReturnType<typeof createChaos>;
