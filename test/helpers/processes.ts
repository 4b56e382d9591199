/**
 * Real `obsim` processes for the environment and command-line tests (not a test file), from any
 * working directory (the entry point is given as an absolute path, so a test can start a server
 * in a temporary directory and see where its default database goes).
 *
 * `BIN` is the built `dist/src/bin.js` when the build is newer than every source file (a fresh
 * clone: `npm ci` builds it), and `src/bin.ts` through tsx otherwise, so an edited source is never
 * hidden by a stale build. The build starts in a third of the time: it needs no TypeScript loader
 * and it uses Node's compile cache, and the suite starts a few hundred of these.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent } from '../../src/build-state.js';
import { scaled } from './speed.js';

export { buildIsCurrent };

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The Node arguments tap gives every test file (package.json's `tap.node-arg`: how the test
 * processes load TypeScript). Relative to ROOT: a process started with them runs from there.
 */
export const TEST_NODE_ARGS: readonly string[] = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { tap: { 'node-arg': string[] } }
).tap['node-arg'];
/** Node's arguments that run a TypeScript file (through tsx): `[...TSX, 'file.ts']`. */
export const TSX = ['--import', import.meta.resolve('tsx')];

/** Node's arguments that run `obsim`: `[...BIN, 'serve', …]`. */
export const BIN = buildIsCurrent() ? [join(ROOT, 'dist/src/bin.js')] : [...TSX, join(ROOT, 'src/bin.ts')];
const ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', OBSIM_LOG_LEVEL: 'warn' };

export interface Obsim {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** SIGTERM and wait for the exit; resolves to the exit code. */
  stop(): Promise<number | null>;
}

/** `obsim serve <args>`; resolves once the startup output is complete (its last line names openapi.json). */
export async function serve(args: string[], opts: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<Obsim> {
  const child = spawn(process.execPath, [...BIN, 'serve', '--port', '0', ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...ENV, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const deadline = Date.now() + scaled(opts.timeoutMs ?? 60_000);
  while (!/openapi\.json/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`obsim serve ${args.join(' ')} did not start (exit ${child.exitCode})\nstdout:\n${out}\nstderr:\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const url = /listening on (http:\/\/\S+)/.exec(out)![1];
  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const [code] = await exited;
      return code;
    },
  };
}

/** `obsim serve <args>` expected to refuse to start: its exit status and output. */
export function serveFails(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const res = spawnSync(process.execPath, [...BIN, 'serve', '--port', '0', ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...ENV, ...opts.env },
    encoding: 'utf8',
    timeout: scaled(60_000),
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** This process's environment without colours and without obsim settings that would change the defaults under test. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const k of Object.keys(env)) if (k.startsWith('OBSIM_')) delete env[k];
  return env;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A one-shot `obsim <args>` (trigger, check-receiver, scenario…) with no colours and none of this
 * process's OBSIM_* settings (only those in `opts.env`); resolves with its exit code and output.
 */
export function runObsim(args: string[], opts: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {}): Promise<Run> {
  const env = cleanEnv();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(
      () => {
        child.kill('SIGKILL');
        reject(new Error(`obsim ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
      },
      scaled(opts.timeoutMs ?? 60_000),
    );
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ShadowProcess {
  /** What it printed so far, standard output and error. */
  printed(): string;
  /** The report address it printed. */
  reportUrl: string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

/** `obsim shadow <args>`; resolves once it has printed its report address (stopped at the test's end). */
export async function shadowProcess(t: { teardown(fn: () => unknown): void }, args: string[]): Promise<ShadowProcess> {
  const child = spawn(process.execPath, [...BIN, 'shadow', ...args], { cwd: ROOT, env: cleanEnv() });
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  t.teardown(stop);
  let printed = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (printed += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (printed += d));
  const deadline = Date.now() + scaled(20_000);
  while (!/the drift report: \S+/.test(printed)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`obsim shadow did not start:\n${printed}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return { printed: () => printed, reportUrl: /the drift report: (\S+)/.exec(printed)![1], stop };
}
