/**
 * Processes for the bench: servers pinned to one core, the load generator to another, RSS
 * readings, free ports, machine facts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HAS_TASKSET = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
export const NPROC = cpus().length;
/** Server core and load-generator core (only when there are at least two). */
export const SERVER_CORE = 0;
export const LOAD_CORE = NPROC > 1 ? 1 : 0;
export const PINNED = HAS_TASKSET && NPROC > 1;

/** argv prefixed with `taskset -c <core>` when pinning is possible (taskset execs: same pid). */
export function pinned(core: number, argv: string[]): string[] {
  return PINNED ? ['taskset', '-c', String(core), ...argv] : argv;
}

/** Pin this very process (all threads) to a core. */
export function pinSelf(core: number): void {
  if (PINNED) spawnSync('taskset', ['-a', '-p', '-c', String(core), String(process.pid)], { stdio: 'ignore' });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Resident set size of a process in MB (Linux /proc), or null. */
export function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far (Linux /proc). */
export function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return null;
  }
}

export function machine() {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    const m = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch {
    /* not Linux */
  }
  return { nproc: NPROC, cpu, node: process.version, platform: `${process.platform}-${process.arch}`, taskset: PINNED };
}

export interface Server {
  name: string;
  url: string;
  proc: ChildProcess;
  pid: number;
  /** Lines the process wrote (stdout + stderr), for diagnostics. */
  output: string[];
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  argv: string[];
  env?: NodeJS.ProcessEnv;
  /** Known port: the server is ready when GET url/healthz answers 200. */
  port: number;
  core?: number;
  timeoutMs?: number;
  cwd?: string;
}

/** Spawn a server (pinned), wait for its first /healthz 200; returns the time that took. */
export async function startServer(o: StartOptions): Promise<{ server: Server; startMs: number }> {
  const argv = pinned(o.core ?? SERVER_CORE, o.argv);
  const t0 = performance.now();
  const proc = spawn(argv[0], argv.slice(1), {
    cwd: o.cwd,
    env: { ...process.env, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    proc.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${o.port}`;
  const deadline = t0 + (o.timeoutMs ?? 20_000);
  for (;;) {
    if (exited !== undefined) throw new Error(`${o.name} exited (${exited}) before answering:\n${output.join('')}`);
    if (performance.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`${o.name} did not answer /healthz in time:\n${output.join('')}`);
    }
    if (await healthy(url)) break;
    await sleep(2);
  }
  const startMs = performance.now() - t0;
  const server: Server = {
    name: o.name,
    url,
    proc,
    pid: proc.pid!,
    output,
    async stop() {
      if (exited !== undefined) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(timer);
    },
  };
  return { server, startMs };
}

/** One GET /healthz on a fresh connection (node:http: no lazy-loaded client in the timing). */
function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpGet(`${url}/healthz`, { agent: false, timeout: 1000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode === 200));
      res.once('error', () => resolve(false));
    });
    req.once('error', () => resolve(false));
    req.once('timeout', () => req.destroy());
  });
}

const DIST_BIN = join(dirname(fileURLToPath(import.meta.url)), '../../dist/src/bin.js');

/** obsim from dist/ at default settings, on the file database `db` (extra serve flags after it), pinned like every server here. */
export async function serveDist(name: string, db: string, extra: readonly string[] = []): Promise<Server> {
  const port = await freePort();
  const argv = [process.execPath, DIST_BIN, 'serve', '--port', String(port), '--db', db, ...extra];
  return (await startServer({ name, argv, env: { OBSIM_LOG_LEVEL: 'warn' }, port, cwd: join(dirname(DIST_BIN), '../..') })).server;
}
