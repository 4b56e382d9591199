/**
 * A read-only connection of its own to a file database, for work done off the event loop's
 * thread (the readiness and impact reports' worker, src/readiness/worker.ts): it sees what the serving
 * connection has committed, never what a turn still holds, and never takes the write lock.
 */
import Database from 'better-sqlite3';
import { impactStore } from './impact.js';
import { journalStore } from './journal.js';
import { readinessStore } from './readiness.js';

export function openReader(path: string) {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  // a WAL reader waits only for a checkpoint's brief lock; never long, never for the writer
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -4000');
  return { journal: journalStore(db), readiness: readinessStore(db), impact: impactStore(db), close: (): void => void db.close() };
}
