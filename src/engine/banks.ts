/**
 * The bank profiles in force (docs/banks.md), per sandbox and bank: the profile, when it was set,
 * and where the degraded bank's seeded stream stands. Loaded at start (a small table); a payment
 * at a bank without a profile costs one size check while no sandbox has one, two Map lookups
 * otherwise.
 *
 * The book follows the rows: a profile set or cleared changes it once its transaction has
 * committed. A draw is counted in the row, in the transaction of the change it decides: a change
 * rolled back gives its draw back, and a restart goes on from the count, so the same seed and the
 * same approvals give the same failures whatever failed or restarted in between.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { bankById } from '../../fixtures/banks.js';
import { loadHolidayLibrary } from '../domain/bank-calendar.js';
import type { BankProfile } from '../domain/bank-profiles.js';
import type { BankInForce } from '../domain/bank-rules.js';
import type { Store } from '../store/index.js';

interface InForce extends BankInForce {
  setAt: string;
  /** The stream after `drawn` draws (rebuilt from the seed when the count moved back). */
  rng: RandomGenerator;
  drawn: number;
}

export function createBankBook(store: Store) {
  const bySandbox = new Map<string, Map<string, InForce>>();
  function put(sandboxId: string, bankId: string, profile: BankProfile, setAt: string): void {
    const bank = bankById(bankId);
    if (!bank) return; // a bank no longer shipped: its profile has nothing to act on
    let banks = bySandbox.get(sandboxId);
    if (!banks) bySandbox.set(sandboxId, (banks = new Map()));
    banks.set(bankId, { bank, profile, setAt, rng: xoroshiro128plus(profile.seed | 0), drawn: 0 });
    if (profile.settlement.mode === 'business_days') loadHolidayLibrary();
  }
  function remove(sandboxId: string, bankId: string): void {
    const banks = bySandbox.get(sandboxId);
    banks?.delete(bankId);
    if (banks?.size === 0) bySandbox.delete(sandboxId);
  }
  for (const row of store.bankProfiles.all()) put(row.sandboxId, row.bankId, row.profile, row.setAt);

  return {
    /** The profile of `bankId` in `sandboxId`, if one is in force. */
    of(sandboxId: string, bankId: string | null | undefined): (BankInForce & { setAt: string }) | undefined {
      if (bySandbox.size === 0 || !bankId) return undefined;
      return bySandbox.get(sandboxId)?.get(bankId);
    },
    /**
     * The next draw of a degraded bank's stream: whether this approval fails. Call inside the
     * transaction of the change it decides (the draw is counted there).
     */
    drawFailure(sandboxId: string, bankId: string): boolean {
      const b = bySandbox.get(sandboxId)?.get(bankId);
      if (b === undefined) return false;
      const n = store.bankProfiles.nextDraw(sandboxId, bankId);
      if (b.drawn !== n - 1) {
        // a change that drew was rolled back, or the process restarted: the stream from its seed
        b.rng = xoroshiro128plus(b.profile.seed | 0);
        for (let i = 1; i < n; i++) uniformFloat64(b.rng);
      }
      b.drawn = n;
      return uniformFloat64(b.rng) < b.profile.failureRate;
    },
    /** Every profiled bank of a sandbox. */
    list(sandboxId: string): ReadonlyMap<string, BankInForce & { setAt: string }> {
      return bySandbox.get(sandboxId) ?? new Map();
    },
    /** Put profiles in force, all or none (a sandbox's creation, a persona, PUT): in the book once committed. */
    set(sandboxId: string, profiles: Record<string, BankProfile>, setAt: string): void {
      store.tx(() => {
        for (const [bankId, profile] of Object.entries(profiles)) store.bankProfiles.set(sandboxId, bankId, profile, setAt);
        store.afterCommit(() => {
          for (const [bankId, profile] of Object.entries(profiles)) put(sandboxId, bankId, profile, setAt);
        });
      });
    },
    /** The bank behaves as having no profile again (once committed); whether it had one. */
    clear(sandboxId: string, bankId: string): boolean {
      return store.tx(() => {
        const had = store.bankProfiles.clear(sandboxId, bankId);
        store.afterCommit(() => remove(sandboxId, bankId));
        return had;
      });
    },
    /** The sandbox is gone (its rows went in the transaction that removed it). */
    forget: (sandboxId: string): void => void bySandbox.delete(sandboxId),
  };
}
export type BankBook = ReturnType<typeof createBankBook>;
