/**
 * Created sandboxes: creation (row, clock, default merchant, in one transaction), authentication
 * of their partner credential, idle-time bookkeeping, deletion (every row of the sandbox and its
 * tombstone in one transaction) and the sweep of idle ones.
 *
 * Last use is kept in memory and written at most once per sweep (a request must not cost a
 * write); the sweep runs on the wall clock every SWEEP_INTERVAL_MS.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { VirtualClock } from '../clock.js';
import { ApiError } from '../domain/errors.js';
import { newSandboxId, newSandboxSecret } from '../domain/ids.js';
import { DEFAULT_SANDBOX_TTL_MS, sandboxExpiresAt, type SandboxSettingsOverrides } from '../domain/sandbox.js';
import type { Partner } from '../partners.js';
import type { Store } from '../store/index.js';
import type { ResetCounts } from '../store/reset.js';
import type { SandboxRow } from '../store/sandboxes.js';
import { snapshotClock, type SnapshotData, type SnapshotRow } from '../store/snapshots.js';
import { seedDefaultMerchant } from '../store/seed.js';
import type { Engine } from './index.js';

export const SWEEP_INTERVAL_MS = 30_000;

export interface SandboxCreation {
  name?: string;
  ttlMs?: number;
  clock?: { start?: string; frozen?: boolean };
  settings?: SandboxSettingsOverrides;
  /** Start from this snapshot: its rows (new ids) and its clock, unless `clock` is given. */
  snapshot?: string;
}

/** A snapshot as the API shows it. */
export interface SnapshotInfo {
  name: string;
  createdAt: string;
  clock: { now: string; frozen: boolean };
  counts: Record<string, number>;
}

export interface CreatedSandbox {
  row: SandboxRow;
  clientSecret: string;
  defaultMerchant: { merchantId: number; clientId: string };
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

export type Sandboxes = ReturnType<typeof createSandboxes>;

export function createSandboxes(deps: { store: Store; engine: Engine; wallClock?: () => number; seedMerchant: boolean }) {
  const { store, engine } = deps;
  const wall = deps.wallClock ?? Date.now;
  /** Last use not yet written (sandbox id -> wall ms). */
  const used = new Map<string, number>();
  /**
   * Sandbox rows by id, read once: authenticating a sandbox's request must cost no more than a
   * configured partner's (a map lookup and a digest), not a query. Deletion updates the entry.
   */
  const rows = new Map<string, SandboxRow>();
  /**
   * A sandbox's secret once it has matched the stored digest: later requests compare bytes
   * (constant time) instead of hashing the secret again (a SHA-256 per request was the larger
   * part of what a created sandbox's request cost more than the default partner's).
   */
  const verified = new Map<string, Buffer>();

  const rowOf = (id: string): SandboxRow | undefined => {
    let row = rows.get(id);
    if (row === undefined) {
      row = store.sandboxes.get(id); // an unknown id is not remembered: guessing ids must not grow memory
      if (row) rows.set(id, row);
    }
    return row;
  };

  function lastUsed(row: SandboxRow): number {
    return Math.max(row.last_used_ms, used.get(row.id) ?? 0);
  }

  const removedListeners = new Set<(id: string, reason: 'deleted' | 'expired') => void>();
  const createdListeners = new Set<(id: string) => void>();

  function remove(id: string, reason: 'deleted' | 'expired'): ResetCounts | undefined {
    const counts = store.tx(() => {
      if (!store.sandboxes.tombstone(id, new Date(wall()).toISOString(), reason)) return undefined;
      const deleted = store.reset.deletePartner(id);
      // the journal outlives a reset (it records the reset), not its sandbox
      store.journal.clear(id);
      store.readiness.clearReceiverChecks(id);
      store.faultProfiles.clear(id);
      store.bankProfiles.clearAll(id);
      store.meta.delete(`default_merchant:${id}`);
      return deleted;
    });
    used.delete(id);
    verified.delete(id);
    rows.delete(id); // read again: now a tombstone
    engine.drop(id);
    if (counts) for (const listener of removedListeners) listener(id, reason);
    return counts;
  }

  return {
    create(input: SandboxCreation): CreatedSandbox {
      const id = newSandboxId();
      const clientSecret = newSandboxSecret();
      const now = wall();
      const snapshot = input.snapshot === undefined ? undefined : store.snapshots.get(input.snapshot);
      if (input.snapshot !== undefined && !snapshot) throw new ApiError('snapshot_not_found', { field: '/snapshot' });
      const clock =
        snapshot && input.clock === undefined
          ? new VirtualClock(snapshotClock(snapshot, now), wall)
          : VirtualClock.create({ start: input.clock?.start, frozen: input.clock?.frozen }, wall);
      const state = clock.state();
      const merchant = store.tx(() => {
        store.sandboxes.insert({
          id,
          name: input.name ?? id,
          secret_digest: digest(clientSecret),
          created_at: new Date(now).toISOString(),
          last_used_ms: now,
          ttl_ms: input.ttlMs ?? DEFAULT_SANDBOX_TTL_MS,
          clock_offset_ms: state.offsetMs,
          clock_frozen_at_ms: state.frozenAtMs,
          settings: JSON.stringify(input.settings ?? {}),
        });
        if (snapshot) {
          const seeded = store.snapshots.cloneInto(JSON.parse(snapshot.data) as SnapshotData, id);
          if (seeded !== null) return store.merchants.get(seeded, id);
        }
        return deps.seedMerchant ? seedDefaultMerchant(store, id, clock.iso(), { kind: 'seed', name: 'sandbox created' }) : undefined;
      });
      const row = store.sandboxes.get(id)!;
      engine.world(id);
      for (const listener of createdListeners) listener(id);
      return {
        row,
        clientSecret,
        defaultMerchant: merchant ? { merchantId: merchant.id, clientId: merchant.client_id } : { merchantId: 0, clientId: '' },
      };
    },

    /**
     * The partner of a created sandbox's credential; undefined when `clientId` is not a sandbox's
     * (the caller answers partner_credentials_invalid). A deleted or expired sandbox's correct
     * credential is 401 sandbox_gone.
     */
    authenticate(clientId: string, clientSecret: string): Partner | undefined {
      const row = rowOf(clientId);
      if (!row) return undefined;
      const known = verified.get(row.id);
      const secret = Buffer.from(clientSecret, 'utf8');
      if (!(known && known.length === secret.length && timingSafeEqual(known, secret))) {
        const given = Buffer.from(digest(clientSecret), 'hex');
        if (!timingSafeEqual(Buffer.from(row.secret_digest, 'hex'), given)) return undefined;
        verified.set(row.id, secret);
      }
      if (row.deleted_at !== null) throw new ApiError('sandbox_gone');
      if (lastUsed(row) + row.ttl_ms <= wall()) {
        remove(row.id, 'expired');
        throw new ApiError('sandbox_gone');
      }
      used.set(row.id, wall());
      return { clientId: row.id, name: row.name, sandboxId: row.id };
    },

    /** Told the id of every sandbox removed (deleted or expired), after its rows are gone. */
    onRemoved(listener: (id: string, reason: 'deleted' | 'expired') => void): void {
      removedListeners.add(listener);
    },
    /** Told the id of every sandbox created. */
    onCreated(listener: (id: string) => void): void {
      createdListeners.add(listener);
    },

    get(id: string): SandboxRow | undefined {
      const row = store.sandboxes.get(id);
      return row && row.deleted_at === null ? row : undefined;
    },

    list(): SandboxRow[] {
      return store.sandboxes.live();
    },

    /** When an idle sandbox is removed (wall clock, ISO). */
    expiresAt(row: SandboxRow): string {
      return sandboxExpiresAt(lastUsed(row), row.ttl_ms);
    },

    /** Capture a partner's rows and its sandbox's clock under a name unique in the process. */
    snapshot(partnerId: string, sandboxId: string, name: string): SnapshotInfo {
      const world = engine.world(sandboxId);
      return store.tx(() => {
        if (store.snapshots.get(name)) throw new ApiError('snapshot_exists', { field: '/name' });
        const data = store.snapshots.capture(partnerId);
        const row: SnapshotRow = {
          name,
          partner_id: partnerId,
          created_at: new Date(wall()).toISOString(),
          clock_now_ms: world.clock.nowMs(),
          clock_frozen: world.clock.frozen ? 1 : 0,
          data: JSON.stringify(data),
        };
        store.snapshots.save(row);
        return snapshotInfo(row, data);
      });
    },

    /** The partner's own snapshots. */
    snapshots(partnerId: string): SnapshotInfo[] {
      return store.snapshots.listOf(partnerId).map((row) => snapshotInfo(row));
    },

    /** Rewind a partner's rows and its sandbox's clock to one of its own snapshots, in one transaction. */
    restore(partnerId: string, sandboxId: string, name: string): SnapshotInfo {
      const row = store.snapshots.get(name);
      if (!row || row.partner_id !== partnerId) throw new ApiError('snapshot_not_found');
      const data = JSON.parse(row.data) as SnapshotData;
      const world = engine.world(sandboxId);
      store.tx(() => {
        store.reset.deletePartner(partnerId);
        store.snapshots.restoreInPlace(data, partnerId);
        world.restoreClock(snapshotClock(row, wall()));
      });
      return snapshotInfo(row, data);
    },

    /** Delete one of the partner's snapshots. */
    deleteSnapshot(partnerId: string, name: string): void {
      const row = store.snapshots.get(name);
      if (!row || row.partner_id !== partnerId) throw new ApiError('snapshot_not_found');
      store.tx(() => store.snapshots.delete(name));
    },

    /** Delete a sandbox and all its rows in one transaction; undefined when there is no such live sandbox. */
    delete: (id: string): ResetCounts | undefined => remove(id, 'deleted'),

    /** Write pending last-use times and remove every sandbox idle for its whole ttl; how many were removed. */
    sweep(): number {
      if (used.size > 0) {
        const pending = [...used];
        store.tx(() => {
          for (const [id, at] of pending) store.sandboxes.touch(id, at);
        });
        for (const [id, at] of pending) {
          const cached = rows.get(id);
          if (cached) cached.last_used_ms = Math.max(cached.last_used_ms, at);
          if (used.get(id) === at) used.delete(id);
        }
      }
      let removed = 0;
      for (const id of store.sandboxes.idleAt(wall())) if (remove(id, 'expired')) removed++;
      return removed;
    },
  };
}

function snapshotInfo(row: SnapshotRow, data: SnapshotData = JSON.parse(row.data) as SnapshotData): SnapshotInfo {
  const counts: Record<string, number> = {};
  for (const [k, v] of Object.entries(data)) if (Array.isArray(v)) counts[k] = v.length;
  return {
    name: row.name,
    createdAt: row.created_at,
    clock: { now: new Date(row.clock_now_ms).toISOString(), frozen: row.clock_frozen === 1 },
    counts,
  };
}
