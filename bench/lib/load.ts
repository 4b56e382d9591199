/** Client side of bench/lib/loadgen.mjs: one long-lived child, jobs over IPC. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LOAD_CORE, pinned } from './proc.js';

export interface LoadJob {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationS: number;
  /** Fixed total request rate (open-ish model); omit for a closed loop at full speed. */
  overallRate?: number;
  /** Replace `{{n}}` in the body with a counter. */
  unique?: boolean;
  /** Open-loop probe instead of autocannon: this many GETs per second, evenly spaced. */
  probeRate?: number;
}

export interface LoadSummary {
  rps: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, { count: number }>;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number | null;
  mean: number | null;
  /** CPU the server used during the run, in cores (filled in by bench/run.ts). */
  serverCores?: number;
  /** Seconds waited before the run for the servers' background work to end (bench/lib/quiet.ts). */
  quietWaitS?: number;
  /** Share of the load generator's core busy during the run (near 1: the load generator may have been the limit). */
  loadCoreBusy?: number;
  /** The server's CPU (user + system, every thread) per answered request, in µs. */
  cpuUsPerRequest?: number | null;
  /** Cores the other servers on the server core used during the run (their background work). */
  neighbourCores?: number;
}

export class LoadGenerator {
  private child: ChildProcess;
  private ready: Promise<void>;
  private nextId = 1;
  private pending = new Map<number, { resolve: (s: LoadSummary) => void; reject: (e: Error) => void }>();

  constructor() {
    const script = fileURLToPath(new URL('./loadgen.mjs', import.meta.url));
    const argv = pinned(LOAD_CORE, [process.execPath, script]);
    this.child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.ready = new Promise((resolve, reject) => {
      this.child.once('error', reject);
      this.child.on('message', (msg: { ready?: boolean; id?: number; summary?: LoadSummary; error?: string }) => {
        if (msg.ready) return resolve();
        const waiter = this.pending.get(msg.id!);
        if (!waiter) return;
        this.pending.delete(msg.id!);
        if (msg.error) waiter.reject(new Error(msg.error));
        else waiter.resolve(msg.summary!);
      });
    });
  }

  async run(job: LoadJob): Promise<LoadSummary> {
    await this.ready;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, ...job });
    });
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
  }
}
