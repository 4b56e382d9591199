/**
 * Readiness reports without the serving thread's time: the journal is flushed, the commit awaited,
 * and the report computed on a worker thread (./worker.ts) with its own read-only connection, so
 * a report asked for every second takes nothing from the partner API but the flush (work the
 * journal does within 20 ms anyway) and a message. A database in memory has no second
 * connection: its reports are computed here. Should the worker fail, reports are computed here
 * from then on, and the log says so once.
 */
import type { Worker } from 'node:worker_threads';
import { ownWorker } from '../worker-thread.js';
import type { SandboxReadiness } from '../domain/readiness.js';
import type { ProviderOperation } from '../domain/readiness-input.js';
import type { Journal } from '../journal/index.js';
import type { Store } from '../store/index.js';
import { closeWorkerConnection } from '../store/worker-connection.js';
import { createReportMaker, type ReportMaker, type ReportSubject } from './collect.js';

export type ReporterRequest = { type: 'report'; id: number; subject: ReportSubject } | { type: 'forget'; partnerId: string };
export type ReporterReply = { id: number; report: SandboxReadiness } | { id: number; error: string } | { warning: string };

export interface ReporterOptions {
  /** The serving connection's database: its file is opened again by the worker. */
  db: { name: string; memory: boolean };
  store: Store;
  journal: Journal;
  /** The provider's operations (asked for once, at the first report: every route is registered by then). */
  operations: () => readonly ProviderOperation[];
  log: { warn(obj: unknown, msg?: string): void };
  /** Starts the worker thread (tests give one that fails). */
  startWorker?: (workerData: unknown) => Worker;
}

/** The worker's entry (./worker.ts). */
export const reportWorker = (workerData: unknown): Worker => ownWorker(import.meta.url, 'worker', workerData);

export function createReporter(options: ReporterOptions) {
  const { db, store, journal, log } = options;
  let known: readonly ProviderOperation[] | undefined;
  const operations = (): readonly ProviderOperation[] => (known ??= options.operations());
  let here: ReportMaker | undefined;
  const inThread = (): ReportMaker =>
    (here ??= createReportMaker(operations(), store, (err) => log.warn({ err }, 'a journal page is unreadable')));
  let worker: Worker | undefined;
  let failed = db.memory;
  let closed = false;
  let nextId = 0;
  let onWorkerCount = 0;
  const waiting = new Map<number, { resolve(r: SandboxReadiness): void; reject(err: Error): void }>();

  function fail(reason: unknown): void {
    if (failed) return;
    failed = true;
    if (!closed) log.warn({ err: reason }, 'the readiness report worker failed: reports are computed on the serving thread');
    void worker?.terminate();
    worker = undefined;
    for (const w of waiting.values()) w.reject(reason instanceof Error ? reason : new Error(String(reason)));
    waiting.clear();
  }

  function ensureWorker(): Worker {
    if (worker) return worker;
    const created = (options.startWorker ?? reportWorker)({ path: db.name, operations: operations() });
    created.unref();
    created.on('message', (reply: ReporterReply) => {
      if ('warning' in reply) return log.warn({ error: reply.warning }, 'a journal page is unreadable');
      const w = waiting.get(reply.id);
      waiting.delete(reply.id);
      if ('report' in reply) {
        onWorkerCount++;
        w?.resolve(reply.report);
      } else w?.reject(new Error(reply.error));
    });
    created.on('error', fail);
    created.on('exit', (code) => fail(new Error(`readiness report worker exited (${code})`)));
    worker = created;
    return created;
  }

  function onWorker(subject: ReportSubject): Promise<SandboxReadiness> {
    return new Promise((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, { resolve, reject });
      ensureWorker().postMessage({ type: 'report', id, subject } satisfies ReporterRequest);
    });
  }

  return {
    /** Reports the worker has computed (tests, bench). */
    get computedOnWorker(): number {
      return onWorkerCount;
    },
    async report(partnerId: string, sandboxId: string): Promise<SandboxReadiness> {
      journal.flush();
      const subject: ReportSubject = { partnerId, sandboxId, ...journal.position(partnerId) };
      await store.committed();
      if (failed) return inThread().report(subject);
      try {
        return await onWorker(subject);
      } catch (err) {
        if (!failed) throw err; // the report itself failed: as it would have here
        return inThread().report(subject);
      }
    },
    forget(partnerId: string): void {
      here?.forget(partnerId);
      worker?.postMessage({ type: 'forget', partnerId } satisfies ReporterRequest);
    },
    async close(): Promise<void> {
      closed = true;
      const w = worker;
      worker = undefined;
      fail(new Error('closed'));
      if (w) await closeWorkerConnection(w);
    },
  };
}
