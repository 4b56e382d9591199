/**
 * The bank profiles in force per sandbox (docs/banks.md): one row per profiled bank of a sandbox,
 * the profile as JSON (src/domain/bank-profiles.ts BankProfile), set on the sandbox's clock. Gone
 * with its sandbox; kept across a reset and a snapshot restore (how the banks behave, not data),
 * as the fault profile is.
 */
import type { BankProfile } from '../domain/bank-profiles.js';
import type { Db } from './db.js';

export interface BankProfileRow {
  sandboxId: string;
  bankId: string;
  profile: BankProfile;
  setAt: string;
  /** Draws the degraded bank's seeded stream has given since the profile was set. */
  draws: number;
}

export function bankProfileStore(db: Db) {
  const put = db.prepare(
    'INSERT INTO bank_profiles (sandbox_id, bank_id, profile, set_at, draws) VALUES (?, ?, ?, ?, 0) ON CONFLICT(sandbox_id, bank_id) DO UPDATE SET profile = excluded.profile, set_at = excluded.set_at, draws = 0',
  );
  const draw = db.prepare('UPDATE bank_profiles SET draws = draws + 1 WHERE sandbox_id = ? AND bank_id = ? RETURNING draws').pluck();
  const remove = db.prepare('DELETE FROM bank_profiles WHERE sandbox_id = ? AND bank_id = ?');
  const removeAll = db.prepare('DELETE FROM bank_profiles WHERE sandbox_id = ?');
  const all = db.prepare('SELECT sandbox_id, bank_id, profile, set_at, draws FROM bank_profiles');
  return {
    /** Every profile in force (start-up). */
    all: (): BankProfileRow[] =>
      (all.all() as { sandbox_id: string; bank_id: string; profile: string; set_at: string; draws: number }[]).map((r) => ({
        sandboxId: r.sandbox_id,
        bankId: r.bank_id,
        profile: JSON.parse(r.profile) as BankProfile,
        setAt: r.set_at,
        draws: r.draws,
      })),
    /** The number of the bank's next draw, counted (call inside the transaction of the change it decides). */
    nextDraw: (sandboxId: string, bankId: string): number => (draw.get(sandboxId, bankId) as number | undefined) ?? 0,
    /** Put a bank's profile in force (call inside a transaction). */
    set: (sandboxId: string, bankId: string, profile: BankProfile, setAt: string): void =>
      void put.run(sandboxId, bankId, JSON.stringify(profile), setAt),
    /** The bank behaves as having no profile again; whether it had one. */
    clear: (sandboxId: string, bankId: string): boolean => remove.run(sandboxId, bankId).changes > 0,
    /** Every bank of the sandbox unprofiled (its deletion). */
    clearAll: (sandboxId: string): void => void removeAll.run(sandboxId),
  };
}
