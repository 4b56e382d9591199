/**
 * The HAR importer's worker thread (started by ./off-thread.ts): a HAR of tens of megabytes is
 * parsed, validated and translated here, so the thread that answers requests only collects its
 * bytes and hands them over (transferred, not copied). Below the serving thread's priority where
 * Linux lets a thread have its own.
 */
import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { HarImportError } from './har.js';
import { importHar } from './import.js';
import type { ImportReply, ImportRequest, ImporterData } from './off-thread.js';

try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), constants.priority.PRIORITY_BELOW_NORMAL);
} catch {
  // not Linux
}

const { versions } = workerData as ImporterData;
const port = parentPort!;
port.on('message', (m: ImportRequest) => {
  try {
    const result = importHar(new Uint8Array(m.bytes, m.offset, m.length), { ...m.options, versions });
    port.postMessage({ id: m.id, result } satisfies ImportReply);
  } catch (err) {
    const error =
      err instanceof HarImportError
        ? { kind: err.kind, pointer: err.pointer, message: err.message }
        : { kind: 'internal' as const, pointer: '' as const, message: err instanceof Error ? err.message : String(err) };
    port.postMessage({ id: m.id, error } satisfies ImportReply);
  }
});
