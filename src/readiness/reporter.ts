/**
 * Readiness reports (and what the impact report reads of a sandbox's traffic, src/impact/collect.ts)
 * without the serving thread's time: the journal is flushed, the commit awaited, and the report
 * computed on a worker thread (./worker.ts) with its own read-only connection, so
 * a report asked for every second takes nothing from the partner API but the flush (work the
 * journal does within 20 ms anyway) and a message. A database in memory has no second
 * connection: its reports are computed here. Should the worker fail, reports are computed here
 * from then on, and the log says so once.
 */
import type { Worker } from 'node:worker_threads';
import { ownWorker } from '../worker-thread.js';
import type { TrafficFacts } from '../domain/contract-traffic.js';
import type { SandboxReadiness } from '../domain/readiness.js';
import { createTrafficReader, type RouteTemplate, type TrafficReader, type TrafficSubject } from '../impact/collect.js';
import type { ProviderOperation } from '../domain/readiness-input.js';
import type { Journal } from '../journal/index.js';
import type { Store } from '../store/index.js';
import { closeWorkerConnection } from '../store/worker-connection.js';
import { createReportMaker, type ReportMaker, type ReportSubject } from './collect.js';

export type ReporterRequest =
  | { type: 'report'; id: number; subject: ReportSubject }
  | { type: 'traffic'; id: number; subject: TrafficSubject; templates: readonly RouteTemplate[] }
  | { type: 'forget'; partnerId: string };
export type ReporterReply =
  { id: number; report: SandboxReadiness } | { id: number; facts: TrafficFacts } | { id: number; error: string } | { warning: string };

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
  const unreadable = (err: unknown) => log.warn({ err }, 'a journal page is unreadable');
  const inThread = (): ReportMaker => (here ??= createReportMaker(operations(), store, unreadable));
  let trafficHere: TrafficReader | undefined;
  const trafficInThread = (): TrafficReader => (trafficHere ??= createTrafficReader(store, unreadable));
  let worker: Worker | undefined;
  let failed = db.memory;
  let closed = false;
  let nextId = 0;
  let onWorkerCount = 0;
  const waiting = new Map<number, { resolve(r: unknown): void; reject(err: Error): void }>();

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
      if ('report' in reply || 'facts' in reply) {
        onWorkerCount++;
        w?.resolve('report' in reply ? reply.report : reply.facts);
      } else w?.reject(new Error(reply.error));
    });
    created.on('error', fail);
    created.on('exit', (code) => fail(new Error(`readiness report worker exited (${code})`)));
    worker = created;
    return created;
  }

  function onWorker<T>(
    request: { type: 'report'; subject: ReportSubject } | Omit<Extract<ReporterRequest, { type: 'traffic' }>, 'id'>,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, { resolve: resolve, reject });
      ensureWorker().postMessage({ ...request, id } satisfies ReporterRequest);
    });
  }

  /** `compute` on the worker (or here, when there is none or it failed). */
  async function computed<T>(onThread: () => Promise<T>, here: () => T): Promise<T> {
    if (failed) return here();
    try {
      return await onThread();
    } catch (err) {
      if (!failed) throw err; // the report itself failed: as it would have here
      return here();
    }
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
      return computed(
        () => onWorker<SandboxReadiness>({ type: 'report', subject }),
        () => inThread().report(subject),
      );
    },
    /**
     * What the partner's traffic touched (src/impact/collect.ts), for the operations of
     * `templates`, and whether the journal dropped older entries.
     */
    async traffic(partnerId: string, templates: readonly RouteTemplate[]): Promise<{ facts: TrafficFacts; truncated: boolean }> {
      journal.flush();
      const { upTo, oldestKept, truncated } = journal.position(partnerId);
      const subject: TrafficSubject = { partnerId, upTo, oldestKept };
      await store.committed();
      const facts = await computed(
        () => onWorker<TrafficFacts>({ type: 'traffic', subject, templates }),
        () => trafficInThread().facts(subject, templates),
      );
      return { facts, truncated };
    },
    forget(partnerId: string): void {
      here?.forget(partnerId);
      trafficHere?.forget(partnerId);
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
