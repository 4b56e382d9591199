/**
 * The fault profiles in force (docs/chaos.md), one per sandbox that has one: its decider (the
 * seeded streams, src/domain/chaos.ts) and how many faults each rule injected since it was set.
 * Loaded at start (a small table); a sandbox without a profile costs a request one size check
 * while no sandbox has one, one Map lookup otherwise. A restart starts every profile's streams
 * again from its seed, as setting it again does.
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
  const put = (sandboxId: string, profile: FaultProfile, setAt: string) =>
    inForce.set(sandboxId, { decider: createFaultDecider(profile), setAt, injected: profile.rules.map(() => 0) });
  for (const row of store.faultProfiles.all()) put(row.sandboxId, row.profile, row.setAt);

  return {
    /** Some sandbox has a profile in force (when none has, a request is not looked at). */
    get active(): boolean {
      return inForce.size > 0;
    },
    /** The fault of a partner request of `sandboxId`, if its profile injects one. */
    api(sandboxId: string, op: OperationName, nowMs: number): ApiFault | undefined {
      if (inForce.size === 0) return undefined;
      const f = inForce.get(sandboxId);
      const fault = f?.decider.api(op, nowMs);
      if (fault) f!.injected[fault.rule]++;
      return fault;
    },
    /** The faults of a delivery of `sandboxId`, if its profile gives it any. */
    webhook(sandboxId: string, event: string, nowMs: number): WebhookFaults | undefined {
      if (inForce.size === 0) return undefined;
      const f = inForce.get(sandboxId);
      const faults = f?.decider.webhook(event, nowMs);
      if (faults) for (const mark of [faults.drop, faults.duplicate, faults.delay, faults.reorder]) if (mark) f!.injected[mark.rule]++;
      return faults;
    },
    /** Put `profile` in force (its streams start again from its seed); `setAt` on the sandbox's clock. */
    set(sandboxId: string, profile: FaultProfile, setAt: string): void {
      store.tx(() => store.faultProfiles.set(sandboxId, profile, setAt));
      put(sandboxId, profile, setAt);
    },
    /** No faults any more; whether a profile was in force. */
    clear(sandboxId: string): boolean {
      store.tx(() => store.faultProfiles.clear(sandboxId));
      return inForce.delete(sandboxId);
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
