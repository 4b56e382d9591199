/**
 * The readiness report's worker thread (started by ./reporter.ts), which also reads what a
 * sandbox's traffic touched for the impact report (src/impact/collect.ts): what is computed here,
 * on a read-only connection of its own, costs the serving thread nothing but a message.
 */
import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { ProviderOperation } from '../domain/readiness-input.js';
import { openReader } from '../store/reader.js';
import type { CLOSE_CONNECTION } from '../store/worker-connection.js';
import { createTrafficReader } from '../impact/collect.js';
import { createReportMaker } from './collect.js';
import type { ReporterReply, ReporterRequest } from './reporter.js';

/**
 * Below the serving thread: where the two share a core (a container given one CPU), the
 * requests go first and a report takes longer. Linux keeps a nice value per thread, and
 * /proc/thread-self names this thread's id; elsewhere the worker keeps the process's priority.
 */
function yieldToRequests(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // not Linux
  }
}
yieldToRequests();

const { path, operations } = workerData as { path: string; operations: ProviderOperation[] };
const port = parentPort!;
const reader = openReader(path);
const unreadable = (err: unknown) => port.postMessage({ warning: String(err) } satisfies ReporterReply);
const maker = createReportMaker(operations, reader, unreadable);
const traffic = createTrafficReader(reader, unreadable);

port.on('message', (message: ReporterRequest | typeof CLOSE_CONNECTION) => {
  if (message.type === 'close') {
    reader.close();
    port.close();
    return;
  }
  if (message.type === 'forget') {
    maker.forget(message.partnerId);
    return traffic.forget(message.partnerId);
  }
  try {
    if (message.type === 'traffic')
      port.postMessage({ id: message.id, facts: traffic.facts(message.subject, message.templates) } satisfies ReporterReply);
    else port.postMessage({ id: message.id, report: maker.report(message.subject) } satisfies ReporterReply);
  } catch (err) {
    port.postMessage({ id: message.id, error: err instanceof Error ? err.message : String(err) } satisfies ReporterReply);
  }
});
