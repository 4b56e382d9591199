/**
 * WAL checkpoints off the event loop.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that crosses the threshold, on the
 * connection that commits: with obsim's single connection that is the event loop, which then
 * stops for the whole copy of the WAL into the database file and its fsync (measured: 40-45 ms
 * every few seconds of a settlement burst, the p99 of every request answered meanwhile). Here the
 * connection's automatic checkpoint is off and a worker thread with its own connection runs
 * PASSIVE checkpoints whenever the WAL file has grown past `thresholdBytes` (checked by a stat
 * every `intervalMs`). PASSIVE never waits for and never blocks the writer or a reader; once a
 * checkpoint has copied every frame, the next write starts the WAL from its beginning again, so
 * the file stays near the threshold. Durability is unchanged: a commit is in the WAL before it is
 * acknowledged, whoever copies it later.
 *
 * The worker starts at the first checkpoint it is needed for (a test's small database never
 * starts one). Should it fail, the connection goes back to automatic checkpoints and says so in
 * the log once.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './db.js';
import { closeWorkerConnection } from './worker-connection.js';

/** The automatic threshold (pages) the connection falls back to without the worker. */
export const AUTOCHECKPOINT_PAGES = 10_000;

export interface CheckpointerOptions {
  /** Checkpoint once the WAL file is larger than this. Default 8 MB. */
  thresholdBytes?: number;
  /** How often the WAL's size is looked at. Default 250 ms. */
  intervalMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
  /** The SQLite driver the worker loads (tests pass a broken one). Default: better-sqlite3. */
  driver?: string;
}

export interface Checkpointer {
  /** Checkpoints the worker has completed (tests, bench). */
  readonly completed: number;
  /** Ask for a checkpoint now (whatever the WAL's size); resolves when it has run. */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
}

// CommonJS, evaluated in the worker (no module resolution of obsim's own files needed, under tsx or dist)
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
parentPort.on('message', (message) => {
  if (message && message.type === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true });
  } catch (err) {
    parentPort.postMessage({ ok: false, error: String(err && err.message || err) });
  }
});
`;

/** Checkpoint `db` from a worker thread; undefined for a database that has no WAL (in memory). */
export function startCheckpointer(db: Db, options: CheckpointerOptions = {}): Checkpointer | undefined {
  if (db.memory || String(db.pragma('journal_mode', { simple: true })) !== 'wal') return undefined;
  const thresholdBytes = options.thresholdBytes ?? 8 * 1024 * 1024;
  const walPath = `${db.name}-wal`;
  let worker: Worker | undefined;
  let failed = false;
  let closed = false;
  let completed = 0;
  /** Callers waiting for the checkpoint in progress (undefined: none running). */
  let running: (() => void)[] | undefined;

  db.pragma('wal_autocheckpoint = 0');

  function fallBack(reason: unknown): void {
    if (failed) return;
    failed = true;
    options.log?.warn({ err: reason }, 'the checkpoint worker failed: the database checkpoints on commit again');
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    void worker?.terminate();
    worker = undefined;
    settle();
  }

  function settle(): void {
    const waiting = running ?? [];
    running = undefined;
    for (const resolve of waiting) resolve();
  }

  function ensureWorker(): Worker {
    if (worker) return worker;
    const driver = options.driver ?? createRequire(import.meta.url).resolve('better-sqlite3');
    const created = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path: db.name } });
    created.unref();
    created.on('message', (result: { ok: boolean; error?: string }) => {
      if (result.ok) completed++;
      else options.log?.warn({ error: result.error }, 'a WAL checkpoint failed; retrying at the next look');
      settle();
    });
    created.on('error', fallBack);
    created.on('exit', (code) => {
      if (!closed) fallBack(new Error(`checkpoint worker exited (${code})`));
    });
    worker = created;
    return created;
  }

  function start(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (closed || failed) return resolve();
      if (running) {
        running.push(resolve);
        return;
      }
      running = [resolve];
      try {
        ensureWorker().postMessage('checkpoint');
      } catch (err) {
        fallBack(err);
      }
    });
  }

  const interval = setInterval(() => {
    if (running || failed || closed) return;
    let size: number;
    try {
      size = statSync(walPath).size;
    } catch {
      return; // no WAL file (yet)
    }
    if (size > thresholdBytes) void start();
  }, options.intervalMs ?? 250);
  interval.unref();

  return {
    get completed() {
      return completed;
    },
    checkpoint: start,
    async close(): Promise<void> {
      closed = true;
      clearInterval(interval);
      settle();
      const w = worker;
      worker = undefined;
      if (w) await closeWorkerConnection(w);
    },
  };
}
