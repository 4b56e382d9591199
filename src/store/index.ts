/**
 * The repositories, created once per database with their statements prepared, plus `tx()`:
 * run a function in one SQLite transaction (synchronous: never await inside), then tell the
 * after-commit listeners (the webhook worker) that there may be work.
 */
import type { VirtualClock } from '../clock.js';
import { accountStore } from './accounts.js';
import { consentStore } from './consents.js';
import type { Db } from './db.js';
import { merchantStore } from './merchants.js';
import { outboxStore } from './outbox.js';
import { paymentStore } from './payments.js';
import { storeStore } from './stores.js';
import { webhookStore } from './webhooks.js';

export function createStore(db: Db, clock: VirtualClock) {
  const afterCommit = new Set<() => void>();
  return {
    clock,
    accounts: accountStore(db),
    consents: consentStore(db),
    merchants: merchantStore(db),
    outbox: outboxStore(db),
    payments: paymentStore(db),
    stores: storeStore(db),
    webhooks: webhookStore(db),
    tx<T>(fn: () => T): T {
      const result = db.transaction(fn)();
      for (const listener of afterCommit) listener();
      return result;
    },
    onCommit(listener: () => void): () => void {
      afterCommit.add(listener);
      return () => afterCommit.delete(listener);
    },
  };
}
export type Store = ReturnType<typeof createStore>;
