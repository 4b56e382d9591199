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
}

export function faultProfileStore(db: Db) {
  const get = db.prepare('SELECT profile, set_at FROM fault_profiles WHERE sandbox_id = ?');
  const put = db.prepare(
    'INSERT INTO fault_profiles (sandbox_id, profile, set_at) VALUES (?, ?, ?) ON CONFLICT(sandbox_id) DO UPDATE SET profile = excluded.profile, set_at = excluded.set_at',
  );
  const remove = db.prepare('DELETE FROM fault_profiles WHERE sandbox_id = ?');
  const all = db.prepare('SELECT sandbox_id, profile, set_at FROM fault_profiles');
  return {
    /** Every profile in force (start-up). */
    all: (): (FaultProfileRow & { sandboxId: string })[] =>
      (all.all() as { sandbox_id: string; profile: string; set_at: string }[]).map((r) => ({
        sandboxId: r.sandbox_id,
        profile: JSON.parse(r.profile) as FaultProfile,
        setAt: r.set_at,
      })),
    get(sandboxId: string): FaultProfileRow | undefined {
      const row = get.get(sandboxId) as { profile: string; set_at: string } | undefined;
      return row && { profile: JSON.parse(row.profile) as FaultProfile, setAt: row.set_at };
    },
    /** Put a profile in force (call inside a transaction). */
    set: (sandboxId: string, profile: FaultProfile, setAt: string): void => void put.run(sandboxId, JSON.stringify(profile), setAt),
    /** No profile any more; whether there was one. */
    clear: (sandboxId: string): boolean => remove.run(sandboxId).changes > 0,
  };
}
