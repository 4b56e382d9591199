/**
 * Opening the SQLite database: pragmas chosen for durability, then migrations.
 *
 * Durability (docs/reliability.md "Durability"): WAL journal + synchronous=NORMAL. A transaction that
 * returned is in the WAL file before the HTTP answer is sent, so killing the process (SIGKILL,
 * OOM, container stop) never loses an acknowledged write; only an operating-system crash or
 * power cut can lose the last transactions, which is acceptable for a simulator and keeps
 * commits off fsync. Set OBSIM_SQLITE_SYNCHRONOUS=FULL to fsync every commit as well.
 *
 * Statements with ORDER BY write their bound equality values and their LIMIT as
 * `CAST(? AS TEXT)` / `CAST(? AS INTEGER)`: with the SQLite of better-sqlite3 13 (3.54), an
 * ORDER BY statement whose plan can depend on a bare `col = ?` or `LIMIT ?` value is prepared
 * again on every run, 6-8 µs each time whatever the rows (a cast is not a value the planner looks
 * at; the plan and the rows are the same). Measured in docs/performance.md.
 */
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

export function openDatabase(path: string): Db {
  const db = new Database(path);
  if (path !== ':memory:') {
    db.pragma('journal_mode = WAL');
    // checkpoint every ~40 MB of WAL instead of SQLite's default ~4 MB: a write-heavy run
    // (payments: a row, two timers, five index entries per commit) checkpointed every ~100
    // commits, copying the same hot pages and syncing each time; ~15% less CPU per write.
    // Durability is unchanged (WAL + synchronous below); only the WAL file grows larger.
    db.pragma('wal_autocheckpoint = 10000');
  }
  const synchronous = process.env.OBSIM_SQLITE_SYNCHRONOUS === 'FULL' ? 'FULL' : 'NORMAL';
  db.pragma(`synchronous = ${synchronous}`);
  // better-sqlite3 builds SQLite with a 16 MB default page cache, which the first read of the
  // 100,000-transaction sandbox user fills and keeps (RSS). The hot paths read few pages (a
  // merchant row, the newest page of an account's index); the rest comes from the OS page cache.
  db.pragma('cache_size = -4000');
  // Every tx() is a savepoint of the group's transaction, and a savepoint keeps the prior content
  // of each page it changes in place (to roll back to it) in a statement journal, which SQLite
  // spills to a temporary file past 64 KB. The journal's trim (its oldest entries deleted, a batch
  // at a time once it is full) changes dozens of pages in one savepoint: ~16 KB went to temporary
  // files per POST payment (docs/performance.md). In memory it is a copy, freed with the savepoint;
  // a sort too large for the page cache stays in memory as well.
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = ON');
  // at start, wait for another process's migration or claim (two servers on a new file)
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/**
 * Once serving: a write that finds another process holding the lock waits at most this long
 * (better-sqlite3 waits on the event loop's thread) and then answers 503 storage_unavailable.
 * obsim is the only writer of its database; a lock held longer is a fault, not contention.
 */
export const SERVING_BUSY_TIMEOUT_MS = 250;

export function servingBusyTimeout(db: Db): void {
  db.pragma(`busy_timeout = ${SERVING_BUSY_TIMEOUT_MS}`);
}

/** meta key holding the environment that created the database. */
export const DATABASE_ENVIRONMENT_KEY = 'environment';

/**
 * A database belongs to the environment that created it: recorded in meta at first start, so a
 * server of the other environment can refuse it before anything is read or written (otherwise
 * the timers and deliveries of one environment would be fired and sent by the other). Recorded
 * in an IMMEDIATE transaction so two servers starting on a new file at once cannot both claim
 * it. A database from before this check has no record and is claimed by the first server that
 * opens it. Returns the owning environment.
 */
export function claimDatabase(db: Db, environment: string): string {
  const meta = metaStore(db);
  return db.transaction(() => meta.getOrCreate(DATABASE_ENVIRONMENT_KEY, () => environment)).immediate();
}

/** The health probe: throws when the database does not answer. */
export function pingDatabase(db: Db): () => void {
  const ping = db.prepare('SELECT 1').pluck();
  return () => void ping.get();
}

/** Apply every migration not yet recorded, in order, each in its own transaction. */
export function migrate(db: Db): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set((db.prepare('SELECT name FROM schema_migrations').all() as { name: string }[]).map((r) => r.name));
  const record = db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)');
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.name)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.name, new Date().toISOString());
    })();
  }
}

/** Small key/value table for persisted settings (JWT secret, clock state, generated credentials). */
/** `text` for a LIKE pattern with ESCAPE '\\': its %, _ and \\ match themselves. */
export const likeEscape = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function metaStore(db: Db) {
  const get = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
  const set = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  const insertNew = db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)');
  const remove = db.prepare('DELETE FROM meta WHERE key = ?');
  return {
    get: (key: string): string | undefined => get.get(key) as string | undefined,
    set: (key: string, value: string): void => void set.run(key, value),
    delete: (key: string): void => void remove.run(key),
    /**
     * The stored value, or `create()` stored and returned. When two servers create it at once
     * (a new database file), the first insert wins and both read it.
     */
    getOrCreate(key: string, create: () => string): string {
      const existing = get.get(key) as string | undefined;
      if (existing !== undefined) return existing;
      insertNew.run(key, create());
      return get.get(key) as string;
    },
  };
}
export type MetaStore = ReturnType<typeof metaStore>;
