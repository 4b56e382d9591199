/**
 * Sandboxes table: the created sandboxes (the configured partners' sandbox 'default' has no row).
 * One row per sandbox: its partner credential (the client id is the sandbox id; only a SHA-256
 * digest of the secret is kept), idle time-to-live, clock state and settings overrides. Deleting
 * a sandbox deletes its partner's rows and leaves this row as a tombstone (deleted_at), so its
 * credentials keep answering 401 sandbox_gone instead of "unknown".
 */
import type { ClockState } from '../clock.js';
import type { Db } from './db.js';

export interface SandboxRow {
  id: string;
  name: string;
  secret_digest: string;
  created_at: string;
  last_used_ms: number;
  ttl_ms: number;
  clock_offset_ms: number;
  clock_frozen_at_ms: number | null;
  /** JSON: SandboxSettingsOverrides (src/domain/sandbox.ts). */
  settings: string;
  deleted_at: string | null;
  deleted_reason: 'deleted' | 'expired' | null;
}

export type NewSandbox = Omit<SandboxRow, 'deleted_at' | 'deleted_reason'>;

export function sandboxStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO sandboxes (id, name, secret_digest, created_at, last_used_ms, ttl_ms, clock_offset_ms, clock_frozen_at_ms, settings)
     VALUES (@id, @name, @secret_digest, @created_at, @last_used_ms, @ttl_ms, @clock_offset_ms, @clock_frozen_at_ms, @settings)`,
  );
  const get = db.prepare('SELECT * FROM sandboxes WHERE id = ?');
  const live = db.prepare('SELECT * FROM sandboxes WHERE deleted_at IS NULL ORDER BY created_at, id');
  const touch = db.prepare('UPDATE sandboxes SET last_used_ms = ? WHERE id = ? AND last_used_ms < ?');
  const saveClock = db.prepare('UPDATE sandboxes SET clock_offset_ms = ?, clock_frozen_at_ms = ? WHERE id = ?');
  const tombstone = db.prepare('UPDATE sandboxes SET deleted_at = ?, deleted_reason = ? WHERE id = ? AND deleted_at IS NULL');
  const idle = db.prepare('SELECT id FROM sandboxes WHERE deleted_at IS NULL AND last_used_ms + ttl_ms <= ?').pluck();

  return {
    insert: (row: NewSandbox): void => void insert.run(row),
    get: (id: string): SandboxRow | undefined => get.get(id) as SandboxRow | undefined,
    /** Every sandbox not deleted, oldest first. */
    live: (): SandboxRow[] => live.all() as SandboxRow[],
    /** Record use (wall-clock ms); never moves last use backwards. */
    touch: (id: string, atMs: number): void => void touch.run(atMs, id, atMs),
    saveClock: (id: string, state: ClockState): void => void saveClock.run(state.offsetMs, state.frozenAtMs, id),
    /** Mark deleted (call in the transaction that deletes its rows); false when it already was. */
    tombstone: (id: string, atIso: string, reason: 'deleted' | 'expired'): boolean => tombstone.run(atIso, reason, id).changes > 0,
    /** Live sandboxes idle for their whole ttl at wall-clock `nowMs`. */
    idleAt: (nowMs: number): string[] => idle.all(nowMs) as string[],
  };
}
