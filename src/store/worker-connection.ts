/**
 * Worker threads that hold a connection of their own to the database file (the WAL checkpointer,
 * the readiness report's reader) are ended by asking them to close it, not by terminating them:
 * a terminated thread never closes its connection, and the WAL file outlives the process (SQLite
 * removes it when the last connection closes). The serving connection closes after them, last.
 */
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';

/** The message a worker answers by closing its connection and ending. */
export const CLOSE_CONNECTION = { type: 'close' } as const;

/** Ask `worker` to close its connection and end; terminated if it has not ended within `graceMs`. */
export async function closeWorkerConnection(worker: Worker, graceMs = 2_000): Promise<void> {
  const exited = once(worker, 'exit');
  const timer = setTimeout(() => void worker.terminate(), graceMs);
  try {
    worker.postMessage(CLOSE_CONNECTION);
  } catch {
    void worker.terminate();
  }
  await exited;
  clearTimeout(timer);
}
