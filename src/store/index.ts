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
 * - what is kept in memory beside the rows follows them: `afterCommit(fn)` runs fn once the COMMIT
 *   that holds the calling savepoint's work has succeeded (never when it, or the group, rolls
 *   back), and `onUndo(fn)` runs fn when it rolls back (a seeded draw taken inside it is given back).
 * A COMMIT that fails rolls the whole group back; every waiting request then answers an error
 * (503 `storage_unavailable` when the database is failing: disk full, read-only, locked). When
 * SQLite itself rolls the whole transaction back (it does on a full disk or an I/O error in the
 * middle of a statement), the group is failed at once: the savepoints before it in the turn are
 * gone with it, so their requests must not be acknowledged by a later COMMIT.
 *
 * `fault` is the storage fault of the last failed write, until a COMMIT succeeds again;
 * `probeWrite()` tries a small write of its own so a health check can tell when it went away.
 */
import { accountStore } from './accounts.js';
import { bankProfileStore } from './bank-profiles.js';
import { faultProfileStore } from './chaos.js';
import { consentStore } from './consents.js';
import { metaStore, pingDatabase, type Db } from './db.js';
import { deliveryStore } from './deliveries.js';
import { storageFault, type StorageFault } from './faults.js';
import { impactStore } from './impact.js';
import { journalStore } from './journal.js';
import { merchantStore } from './merchants.js';
import { metricsReads } from './metrics.js';
import { outboxStore } from './outbox.js';
import { paymentStore } from './payments.js';
import { readinessStore } from './readiness.js';
import { resetStore } from './reset.js';
import { sandboxStore } from './sandboxes.js';
import { snapshotStore } from './snapshots.js';
import { storeStore } from './stores.js';
import { timerStore } from './timers.js';
import { transitionStore } from './transitions.js';
import { webhookStore } from './webhooks.js';

interface Group {
  promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
  /**
   * A write of this group found the database locked by another process (after the busy
   * timeout): the group's later writes fail at once with the same error instead of each waiting
   * the timeout again on the event loop's thread.
   */
  locked?: unknown;
  /** A tx() of this group completed: its COMMIT proves the database takes writes. */
  wrote?: boolean;
  /** What the group's released savepoints asked to run after its COMMIT, and to undo when it rolls back. */
  frame: Frame;
}

/** The in-memory consequences of a savepoint's work: kept with it, dropped or undone with it. */
interface Frame {
  afterCommit: (() => void)[];
  undo: (() => void)[];
}

const newFrame = (): Frame => ({ afterCommit: [], undo: [] });

/** meta key the health check writes to find out whether the database takes writes again. */
const HEALTH_PROBE_KEY = 'health_probe';

export interface StoreOptions {
  /** Keep account-data pages once read (src/store/accounts.ts); default true. */
  accountPageCache?: boolean;
}

export function createStore(db: Db, options: StoreOptions = {}) {
  const afterCommit = new Set<() => void>();
  let group: Group | undefined;
  /** tx() calls currently running (nested calls become nested savepoints). */
  let depth = 0;
  /** The storage fault of the last failed write, cleared by the next successful COMMIT. */
  let fault: StorageFault | undefined;
  const meta = metaStore(db);

  function noteFailure(err: unknown): void {
    fault = storageFault(err) ?? fault;
  }

  /** Savepoints open now, innermost last: each one's in-memory consequences. */
  const frames: Frame[] = [];

  /** A group rolled back whole: what its savepoints did in memory is undone, newest first. */
  function undoGroup(g: Group): void {
    for (const fn of g.frame.undo.reverse()) fn();
    g.frame = newFrame();
  }

  /** SQLite rolled the group's transaction back under us: fail every request waiting on it. */
  function failGroup(err: unknown): void {
    const g = group;
    if (!g || db.inTransaction) return;
    group = undefined;
    undoGroup(g);
    g.reject(err);
  }

  // BEGIN and COMMIT prepared once: db.exec() compiles its SQL on every call, and a group opens
  // and commits once per request when requests come one at a time
  const begin = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');

  function openGroup(): void {
    begin.run();
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined); // observed by committed() callers; never an unhandled rejection
    group = { promise, resolve, reject, frame: newFrame() };
    setImmediate(flush);
  }

  /** COMMIT the open group (if any), settle its waiters, then run the after-commit listeners. */
  function flush(): void {
    const g = group;
    if (!g) return;
    group = undefined;
    try {
      commit.run();
    } catch (err) {
      noteFailure(err);
      try {
        if (db.open && db.inTransaction) db.exec('ROLLBACK');
      } catch {
        /* the connection is gone: nothing was committed */
      }
      undoGroup(g);
      g.reject(err);
      return;
    }
    if (g.wrote) fault = undefined;
    // the in-memory books follow the rows before anyone waiting on this COMMIT reads them
    for (const fn of g.frame.afterCommit) fn();
    g.resolve();
    for (const listener of afterCommit) listener();
  }

  /**
   * A small write of its own (health check while `fault` is set): clears `fault` when it commits,
   * returns what still fails. With a group open it does nothing (that group's COMMIT tells soon).
   */
  function probeWrite(): StorageFault | undefined {
    if (group || db.inTransaction) return fault;
    try {
      db.transaction(() => meta.set(HEALTH_PROBE_KEY, new Date().toISOString())).immediate();
      fault = undefined;
    } catch (err) {
      fault = storageFault(err) ?? { kind: 'io_error', message: String((err as Error).message) };
    }
    return fault;
  }

  // Savepoints through statements prepared once: better-sqlite3's `db.transaction(fn)` builds four
  // wrapper functions per call (~6 µs against ~1.4 µs here), and tx() runs once per write request.
  const savepointBegin = db.prepare('SAVEPOINT obsim_tx');
  const savepointRelease = db.prepare('RELEASE obsim_tx');
  const savepointUndo = db.prepare('ROLLBACK TO obsim_tx');
  /**
   * `fn` in a savepoint (of the open transaction, or its own transaction when none is open): released
   * when it returns, rolled back when it throws.
   */
  function inSavepoint<T>(fn: () => T): T {
    savepointBegin.run();
    const frame = newFrame();
    frames.push(frame);
    try {
      const result = fn();
      savepointRelease.run();
      frames.pop();
      // released: its consequences now belong to the savepoint around it, or to the group
      const outer = frames.at(-1) ?? group?.frame;
      if (outer) {
        outer.afterCommit.push(...frame.afterCommit);
        outer.undo.push(...frame.undo);
      } else for (const after of frame.afterCommit) after(); // committed already: its own transaction
      return result;
    } catch (err) {
      frames.pop();
      for (const fn of frame.undo.reverse()) fn();
      // SQLite may have rolled the whole transaction back already (a full disk, a lost lock)
      if (db.inTransaction) {
        savepointUndo.run();
        savepointRelease.run();
      }
      throw err;
    }
  }

  const ping = pingDatabase(db);
  const deliveries = deliveryStore(db);
  return {
    accounts: accountStore(db, { pageCache: options.accountPageCache ?? true }),
    bankProfiles: bankProfileStore(db),
    consents: consentStore(db),
    deliveries,
    faultProfiles: faultProfileStore(db),
    impact: impactStore(db),
    journal: journalStore(db),
    merchants: merchantStore(db),
    metrics: metricsReads(db),
    meta,
    outbox: outboxStore(db, deliveries),
    payments: paymentStore(db),
    readiness: readinessStore(db),
    reset: resetStore(db),
    sandboxes: sandboxStore(db),
    snapshots: snapshotStore(db),
    stores: storeStore(db),
    timers: timerStore(db),
    transitions: transitionStore(db),
    webhooks: webhookStore(db),
    /**
     * GET /healthz: undefined when the database answers and takes writes; otherwise what fails.
     * After a failed write it tries one of its own, so it turns healthy by itself once the cause
     * (full disk, read-only directory, another process's lock) has gone.
     */
    health(): StorageFault | undefined {
      try {
        ping();
      } catch (err) {
        return storageFault(err) ?? { kind: 'io_error', message: `the database does not answer (${(err as Error).message})` };
      }
      return fault && probeWrite();
    },
    /**
     * Run `fn` atomically (its own savepoint) in this turn's group transaction. Its result is
     * visible at once on this connection and durable once `committed()` resolves.
     */
    tx<T>(fn: () => T): T {
      // a transaction opened outside tx() (a raw db.transaction caller): nest in it, as before
      if (!group && db.inTransaction) return db.transaction(fn)();
      if (!group) openGroup();
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the lock error as SQLite raised it
      if (group!.locked !== undefined) throw group!.locked;
      depth++;
      try {
        const result = inSavepoint(fn);
        if (group) group.wrote = true;
        return result;
      } catch (err) {
        noteFailure(err);
        if (group && storageFault(err)?.kind === 'locked') group.locked = err;
        failGroup(err);
        throw err;
      } finally {
        depth--;
      }
    },
    /**
     * `fn` as one all-or-nothing unit nested in whatever transaction is open (a savepoint): the
     * timer runtime fires each timer this way inside its batch.
     */
    savepoint<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T {
      return (...args: A) => inSavepoint(() => fn(...args));
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
    /** The database is failing writes (disk full, read-only, locked, …): what the last failure said. */
    get fault(): StorageFault | undefined {
      return fault;
    },

    /**
     * Run `fn` once the work of the savepoint this is called in is committed (at once outside any):
     * an in-memory book changes only with the rows it mirrors.
     */
    afterCommit(fn: () => void): void {
      const frame = frames.at(-1);
      if (frame) frame.afterCommit.push(fn);
      else fn();
    },
    /** Run `fn` if the work of the savepoint this is called in is rolled back (a draw given back). */
    onUndo(fn: () => void): void {
      frames.at(-1)?.undo.push(fn);
    },

    onCommit(listener: () => void): () => void {
      afterCommit.add(listener);
      return () => afterCommit.delete(listener);
    },
  };
}
export type Store = ReturnType<typeof createStore>;
