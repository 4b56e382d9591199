/**
 * The repositories, one per table, created once per database with their statements prepared,
 * plus `tx()`. Every SQL statement of obsim is in this folder.
 *
 * Group commit. `tx(fn)` runs `fn` synchronously (never await inside) in its own SAVEPOINT of a
 * transaction shared by every `tx()` of the same turn of the event loop; the shared transaction
 * commits once, from setImmediate, after the turn. Under load that is one WAL commit for all the
 * requests a turn handled instead of one each (the commit was a quarter of the CPU of a payment
 * creation). What stays true:
 * - all-or-nothing per call: a throwing `fn` rolls back its savepoint only, never a neighbour's work;
 * - nothing is acknowledged before it is durable: every HTTP answer waits for `committed()`
 *   (src/app.ts onSend), so a response is written only after the COMMIT that holds its change
 *   (and a reply that read a neighbour's uncommitted row waits for it too);
 * - after-commit listeners (webhook worker, timer arming) run after the real COMMIT, and the
 *   webhook worker claims nothing while a group is open (`groupOpen`), so no event leaves before
 *   the change that caused it is committed.
 * A COMMIT that fails rolls the whole group back; every waiting request then answers 500.
 */
import { accountStore } from './accounts.js';
import { consentStore } from './consents.js';
import { metaStore, pingDatabase, type Db } from './db.js';
import { deliveryStore } from './deliveries.js';
import { journalStore } from './journal.js';
import { merchantStore } from './merchants.js';
import { outboxStore } from './outbox.js';
import { paymentStore } from './payments.js';
import { resetStore } from './reset.js';
import { sandboxStore } from './sandboxes.js';
import { snapshotStore } from './snapshots.js';
import { storeStore } from './stores.js';
import { timerStore } from './timers.js';
import { webhookStore } from './webhooks.js';

interface Group {
  promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

export function createStore(db: Db) {
  const afterCommit = new Set<() => void>();
  let group: Group | undefined;
  /** tx() calls currently running (nested calls become nested savepoints). */
  let depth = 0;

  function openGroup(): void {
    db.exec('BEGIN');
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined); // observed by committed() callers; never an unhandled rejection
    group = { promise, resolve, reject };
    setImmediate(flush);
  }

  /** COMMIT the open group (if any), settle its waiters, then run the after-commit listeners. */
  function flush(): void {
    const g = group;
    if (!g) return;
    group = undefined;
    try {
      db.exec('COMMIT');
    } catch (err) {
      try {
        if (db.open && db.inTransaction) db.exec('ROLLBACK');
      } catch {
        /* the connection is gone: nothing was committed */
      }
      g.reject(err);
      return;
    }
    g.resolve();
    for (const listener of afterCommit) listener();
  }

  const deliveries = deliveryStore(db);
  return {
    accounts: accountStore(db),
    consents: consentStore(db),
    deliveries,
    journal: journalStore(db),
    merchants: merchantStore(db),
    meta: metaStore(db),
    outbox: outboxStore(db, deliveries),
    payments: paymentStore(db),
    reset: resetStore(db),
    sandboxes: sandboxStore(db),
    snapshots: snapshotStore(db),
    stores: storeStore(db),
    timers: timerStore(db),
    webhooks: webhookStore(db),
    /** Throws when the database does not answer (GET /healthz). */
    ping: pingDatabase(db),
    /**
     * Run `fn` atomically (its own savepoint) in this turn's group transaction. Its result is
     * visible at once on this connection and durable once `committed()` resolves.
     */
    tx<T>(fn: () => T): T {
      // a transaction opened outside tx() (a raw db.transaction caller): nest in it, as before
      if (!group && db.inTransaction) return db.transaction(fn)();
      if (!group) openGroup();
      depth++;
      try {
        return db.transaction(fn)();
      } finally {
        depth--;
      }
    },
    /**
     * `fn` as one all-or-nothing unit nested in whatever transaction is open (a savepoint): the
     * timer runtime fires each timer this way inside its batch.
     */
    savepoint<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T {
      return db.transaction(fn);
    },
    /** The database connection is open (false after a shutdown or a test closed it). */
    get open(): boolean {
      return db.open;
    },
    /** Inside a tx() callback (the engine does not start timed work there). */
    get inTransaction(): boolean {
      return depth > 0 || (group === undefined && db.inTransaction);
    },
    /** A group transaction is open: written work is not durable yet (the webhook worker waits). */
    get groupOpen(): boolean {
      return group !== undefined;
    },
    /** Resolves when everything written so far is committed (at once when nothing is pending). */
    committed(): Promise<void> | undefined {
      return group?.promise;
    },
    /** Commit the open group now (shutdown, tests). */
    flush,
    onCommit(listener: () => void): () => void {
      afterCommit.add(listener);
      return () => afterCommit.delete(listener);
    },
  };
}
export type Store = ReturnType<typeof createStore>;
