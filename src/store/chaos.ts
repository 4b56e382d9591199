/**
 * The fault profile in force per sandbox (docs/chaos.md): one row per sandbox that has one, the
 * profile as JSON (src/domain/chaos.ts FaultProfile), set on the sandbox's clock. Gone with its
 * sandbox; kept across a reset and a snapshot restore (it is how the sandbox behaves, not data).
 */
import type { FaultProfile } from '../domain/chaos.js';
import type { Db } from './db.js';

export interface FaultProfileRow {
  profile: FaultProfile;
  setAt: string;
  /** Matches each rule's seeded stream has drawn for since the profile was set. */
  draws: number[];
}

export function faultProfileStore(db: Db) {
  const get = db.prepare('SELECT profile, set_at, draws FROM fault_profiles WHERE sandbox_id = ?');
  const put = db.prepare(
    "INSERT INTO fault_profiles (sandbox_id, profile, set_at, draws) VALUES (?, ?, ?, '[]') ON CONFLICT(sandbox_id) DO UPDATE SET profile = excluded.profile, set_at = excluded.set_at, draws = '[]'",
  );
  const putDraws = db.prepare('UPDATE fault_profiles SET draws = ? WHERE sandbox_id = ?');
  const remove = db.prepare('DELETE FROM fault_profiles WHERE sandbox_id = ?');
  const all = db.prepare('SELECT sandbox_id, profile, set_at, draws FROM fault_profiles');
  type Raw = { profile: string; set_at: string; draws: string };
  const rowOf = (r: Raw): FaultProfileRow => ({
    profile: JSON.parse(r.profile) as FaultProfile,
    setAt: r.set_at,
    draws: JSON.parse(r.draws) as number[],
  });
  return {
    /** Every profile in force (start-up). */
    all: (): (FaultProfileRow & { sandboxId: string })[] =>
      (all.all() as (Raw & { sandbox_id: string })[]).map((r) => ({ sandboxId: r.sandbox_id, ...rowOf(r) })),
    get(sandboxId: string): FaultProfileRow | undefined {
      const row = get.get(sandboxId) as Raw | undefined;
      return row && rowOf(row);
    },
    /** Put a profile in force, its streams at their start (call inside a transaction). */
    set: (sandboxId: string, profile: FaultProfile, setAt: string): void => void put.run(sandboxId, JSON.stringify(profile), setAt),
    /** How far each rule's stream has drawn (call inside a transaction). */
    setDraws: (sandboxId: string, draws: readonly number[]): void => void putDraws.run(JSON.stringify(draws), sandboxId),
    /** No profile any more; whether there was one. */
    clear: (sandboxId: string): boolean => remove.run(sandboxId).changes > 0,
  };
}
