/**
 * A real obsim (`obsim serve`, ./processes.ts) on a database file that a test can SIGKILL and restart, for
 * the crash suites (not a test file).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, ROOT } from './processes.js';

/** Start `obsim serve --db <db> --port 0 …args`; resolves with its URL once it listens. */
export async function startKillable(db: string, args: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...BIN, 'serve', '--db', db, '--port', '0', '--log-level', 'warn', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, OBSIM_SQLITE_SYNCHRONOUS: '' },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited ${code ?? signal}: ${out}`));
    });
  });
  child.stdout.resume();
  child.stderr.resume();
  return { child, url };
}

/** SIGKILL, resolved once the process is gone. */
export function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** A seeded pseudo-random generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
