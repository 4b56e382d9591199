/**
 * Start the image's CMD as a real child process on this machine (not a test file). Uses
 * dist/src/bin.js when it is built and newer than every source file (CI: `npm ci` runs the
 * build), otherwise the same entry point from source through tsx, so a stale dist/ in a working
 * tree never hides a change.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { buildIsCurrent, ROOT } from './processes.js';

export { ROOT };

export interface Started {
  child: ChildProcess;
  url: string;
  port: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when stdout contains `text`. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
}

/** argv from the Dockerfile CMD (['node', 'dist/src/bin.js', ...rest]) made runnable here. */
export function runnable(cmd: string[]): { argv: string[]; fromSource: boolean } {
  const [node, script, ...rest] = cmd;
  if (node !== 'node') throw new Error(`CMD must start with node, got ${node}`);
  if (buildIsCurrent()) return { argv: [script, ...rest], fromSource: false };
  const source = script.replace(/^dist\//, '').replace(/\.js$/, '.ts');
  return { argv: ['--import', 'tsx', source, ...rest], fromSource: true };
}

export async function startCmd(cmd: string[], env: Record<string, string>, timeoutMs = 20_000): Promise<Started> {
  const { argv } = runnable(cmd);
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: { test: (s: string) => boolean; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      if (w.test(out)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => ((out += d), check()));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitFor = (text: string | RegExp, ms = timeoutMs) =>
    new Promise<void>((resolve, reject) => {
      const test = (s: string) => (typeof text === 'string' ? s.includes(text) : text.test(s));
      if (test(out)) return resolve();
      const timer = setTimeout(() => reject(new Error(`no "${String(text)}" within ${ms} ms\nstdout:\n${out}\nstderr:\n${err}`)), ms);
      waiters.push({ test, resolve: () => (clearTimeout(timer), resolve()) });
      void exited.then(({ code }) => {
        clearTimeout(timer);
        reject(new Error(`process exited (${code}) before "${String(text)}"\nstdout:\n${out}\nstderr:\n${err}`));
      });
    });
  try {
    await waitFor(/listening on (http:\/\/\S+)/);
    await waitFor(/openapi\.json/, 5_000); // the last line of the startup output
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  const url = /listening on (http:\/\/\S+)/.exec(out)![1];
  return { child, url, port: Number(new URL(url).port), stdout: () => out, stderr: () => err, exited, waitFor };
}
