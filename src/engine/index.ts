/**
 * The lifecycle engine: one world per sandbox (engine/world.ts: its clock, settings, lifecycle
 * and timers), created when the sandbox is first used and dropped when it is deleted.
 *
 * - world(id): a sandbox's world; the default sandbox's is always there (the configured partners,
 *   the clock given at start). The engine's own merchant/payment/…/advance are the default
 *   sandbox's (the seeded world tests and single-sandbox users drive).
 * - After every commit, the worlds whose timers it inserted are told (one listener for all
 *   sandboxes, not one per sandbox), so each re-arms its real-time timer only when needed.
 * - start: each sandbox with pending timers fires what fell due while obsim was down and arms.
 */
import { VirtualClock } from '../clock.js';
import { ApiError } from '../domain/errors.js';
import { DEFAULT_SANDBOX, sandboxSettings, type SandboxSettingsOverrides } from '../domain/sandbox.js';
import type { LifecycleSettings } from '../domain/settings.js';
import type { MetaStore } from '../store/db.js';
import type { Store } from '../store/index.js';
import type { SandboxRow } from '../store/sandboxes.js';
import { createBankBook } from './banks.js';
import { persistClock } from './clock-state.js';
import type { TransitionObserver } from './lifecycle.js';
import type { Traffic } from './traffic.js';
import { createWorld, type World, type WorldDeps } from './world.js';

export type { World } from './world.js';

export interface EngineDeps {
  store: Store;
  meta: MetaStore;
  /** The default sandbox's clock. */
  clock: VirtualClock;
  /** The server's settings; a created sandbox may override its delays. */
  settings: LifecycleSettings;
  /** HTTP requests being served (timer slices give way to them). */
  traffic?: Traffic;
  log?: { error(obj: unknown, msg?: string): void };
  /** The contract version the default sandbox is pinned to (--contract-version); undefined: the base. */
  contractVersion?: string;
}

export type Engine = ReturnType<typeof createEngine>;

export function createEngine({ store, meta, clock, settings, traffic, log, contractVersion }: EngineDeps) {
  const worlds = new Map<string, World>();
  const banks = createBankBook(store);
  let started = false;
  const firedListeners = new Set<(sandboxId: string) => void>();
  const transitionListeners = new Set<TransitionObserver>();
  const onTransition: TransitionObserver = (transition) => {
    for (const listener of transitionListeners) listener(transition);
  };

  function open(
    id: string,
    worldClock: VirtualClock,
    worldSettings: LifecycleSettings,
    saveClock: WorldDeps['saveClock'],
    contractVersion?: string,
  ): World {
    const onFired = () => {
      for (const listener of firedListeners) listener(id);
    };
    const world = createWorld({
      id,
      store,
      clock: worldClock,
      settings: worldSettings,
      saveClock,
      traffic,
      log,
      onFired,
      onTransition,
      banks,
      contractVersion,
    });
    worlds.set(id, world);
    if (started) world.start();
    return world;
  }

  const defaultWorld = open(DEFAULT_SANDBOX, clock, settings, (state) => persistClock(state, meta), contractVersion);

  /** The world of a created sandbox, from its row. */
  function fromRow(row: SandboxRow): World {
    const overrides = JSON.parse(row.settings) as SandboxSettingsOverrides;
    const worldClock = new VirtualClock({ offsetMs: row.clock_offset_ms, frozenAtMs: row.clock_frozen_at_ms });
    return open(
      row.id,
      worldClock,
      sandboxSettings(settings, overrides),
      (state) => store.sandboxes.saveClock(row.id, state),
      overrides.contractVersion,
    );
  }

  const offCommit = store.onCommit(() => {
    for (const [id, earliest] of store.timers.takeInserted()) worlds.get(id)?.timersInserted(earliest);
  });

  function world(id: string): World {
    const found = worlds.get(id);
    if (found) return found;
    const row = store.sandboxes.get(id);
    if (!row || row.deleted_at !== null) throw new ApiError('sandbox_gone');
    return fromRow(row);
  }

  return {
    world,
    /** The bank profiles in force, in every sandbox (docs/banks.md). */
    banks,
    /**
     * The world a row belongs to, from its partner_id: a created sandbox's partner id is the
     * sandbox id; every other partner is a configured one, in the default sandbox.
     */
    worldOf(partnerId: string): World {
      const found = worlds.get(partnerId);
      if (found) return found;
      const row = store.sandboxes.get(partnerId);
      return row && row.deleted_at === null ? fromRow(row) : defaultWorld;
    },
    /** Every transition recorded, inside the transaction that records it (spans, metrics). */
    onTransition(listener: TransitionObserver): () => void {
      transitionListeners.add(listener);
      return () => transitionListeners.delete(listener);
    },
    /** Listen to timed transitions firing (settlements, expiries, approvals), by sandbox id; returns the unsubscribe. */
    onTimersFired(listener: (sandboxId: string) => void): () => void {
      firedListeners.add(listener);
      return () => firedListeners.delete(listener);
    },
    /**
     * Over every sandbox with timers: how many are due on its clock and not fired, how many of
     * those are more than a second late, and for running clocks how far the oldest due one lies
     * behind (metrics).
     */
    timerStats(): { due: number; overdue: number; lagMs: number } {
      let due = 0;
      let overdue = 0;
      let lagMs = 0;
      for (const id of store.timers.sandboxesWithTimers()) {
        const w = worlds.get(id);
        if (!w) continue; // a deleted sandbox's leftovers, never fired
        const now = w.clock.nowMs();
        const t = store.metrics.dueTimers(id, now, now - 1000);
        due += t.due;
        overdue += t.overdue;
        if (!w.clock.frozen && t.oldestDueAt !== null) lagMs = Math.max(lagMs, now - t.oldestDueAt);
      }
      return { due, overdue, lagMs };
    },
    /** Forget a deleted sandbox's world (its timers are gone with its rows). */
    drop(id: string): void {
      if (id === DEFAULT_SANDBOX) return;
      worlds.get(id)?.close();
      worlds.delete(id);
    },
    /** Worlds in memory (tests, the sandbox list). */
    get worldCount(): number {
      return worlds.size;
    },
    // the default sandbox
    merchant: defaultWorld.merchant,
    payment: defaultWorld.payment,
    paymentPageOpened: defaultWorld.paymentPageOpened,
    consent: defaultWorld.consent,
    consentAsOf: defaultWorld.consentAsOf,
    onPaymentCreated: defaultWorld.onPaymentCreated,
    onMerchantCreated: defaultWorld.onMerchantCreated,
    onConsentCreated: defaultWorld.onConsentCreated,
    runDue: defaultWorld.runDue,
    advance: defaultWorld.advance,
    freeze: defaultWorld.freeze,
    resume: defaultWorld.resume,
    /** Timers the default sandbox fired since start. */
    get firedTotal(): number {
      return defaultWorld.firedTotal;
    },
    /** Pending timers of one aggregate (tests, control API). */
    timersOf: store.timers.timersOf,
    /** Start: every sandbox with pending timers fires what fell due while obsim was down, then arms. */
    start(): void {
      for (const id of store.timers.sandboxesWithTimers()) {
        try {
          world(id);
        } catch {
          /* a deleted sandbox's leftover timers: never fired */
        }
      }
      started = true;
      for (const w of worlds.values()) w.start();
    },
    close(): void {
      offCommit();
      for (const w of worlds.values()) w.close();
    },
  };
}
