/**
 * The server's way to a HAR import (POST /_sandbox/scenarios/import): one worker thread
 * (./worker.ts), started on the first import and kept for the next, takes the bytes and answers
 * the scenario. Imports queue on it one at a time, so two 50 MB HARs never hold two copies each in
 * the serving process at once; the worker does not keep the process alive.
 */
import type { Worker } from 'node:worker_threads';
import { ownWorker } from '../worker-thread.js';
import { HarImportError } from './har.js';
import type { Doc } from '../contracts/ids.js';
import type { ImportOptions, ImportResult } from './import.js';

export interface ImportRequest {
  id: number;
  bytes: ArrayBuffer;
  offset: number;
  length: number;
  options: Omit<ImportOptions, 'versions'>;
}

/** What the worker is started with: the contract versions the server serves, each with its document (sent once, not per import). */
export interface ImporterData {
  versions: Record<string, Doc>;
}

export type ImportReply =
  | { id: number; result: ImportResult }
  | { id: number; error: { kind: HarImportError['kind'] | 'internal'; pointer: HarImportError['pointer']; message: string } };

export interface HarImporter {
  import(bytes: Buffer, options: Omit<ImportOptions, 'versions'>): Promise<ImportResult>;
  close(): Promise<void>;
}

/** `versions`: the contract versions the server serves (the registry's), by name, with their documents. */
export function harImporter(versions: Record<string, Doc> = {}): HarImporter {
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (r: ImportResult) => void; reject: (e: Error) => void }>();

  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
    worker = undefined;
  };
  const start = (): Worker => {
    const w = ownWorker(import.meta.url, 'worker', { versions } satisfies ImporterData);
    w.unref();
    w.on('message', (m: ImportReply) => {
      const waiter = waiting.get(m.id);
      if (!waiter) return;
      waiting.delete(m.id);
      if ('result' in m) waiter.resolve(m.result);
      else if (m.error.kind === 'internal') waiter.reject(new Error(`HAR import failed: ${m.error.message}`));
      else waiter.reject(new HarImportError(m.error.pointer, m.error.message, m.error.kind));
    });
    w.on('error', (err) => failAll(err));
    w.on('exit', (code) => failAll(new Error(`the HAR import thread stopped (exit code ${code})`)));
    return w;
  };

  return {
    import(bytes, options) {
      worker ??= start();
      const id = nextId++;
      // a body Fastify collected owns its memory: hand it over; a slice of a shared pool is copied
      const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
      const buffer = whole ? bytes.buffer : new Uint8Array(bytes).buffer;
      const request: ImportRequest = { id, bytes: buffer, offset: 0, length: bytes.byteLength, options };
      return new Promise<ImportResult>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker!.postMessage(request, [buffer]);
      });
    },
    async close() {
      const w = worker;
      worker = undefined;
      if (w) await w.terminate();
    },
  };
}
