/**
 * A real cluster for tests (not a test file): HAProxy and three shards as child processes, each
 * its own `obsim serve --shard …` on its own database in a temporary folder, started by the same
 * code as `obsim cluster` (src/cluster/supervisor.ts). Skipped outside CI when HAProxy is not
 * installed; in CI a missing HAProxy fails (.ci/run installs it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable, startCluster, type RunningCluster } from '../../src/cluster/supervisor.js';
import { runnable } from './process.js';

export function haproxyMissing(): string | false {
  return findExecutable('haproxy') ? false : 'haproxy is not installed (apt-get install haproxy); cluster tests skipped';
}

/**
 * `n` consecutive free ports on loopback (the router's and its shards'), below Linux's ephemeral
 * range (32768 and up), which the system hands to outgoing connections and to port-0 listeners
 * of the other test files running meanwhile.
 */
export async function freePorts(n: number): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * (32_000 - 20_000 - n));
    const all = await Promise.all(Array.from({ length: n }, (_, i) => free(base + i)));
    if (all.every(Boolean)) return base;
  }
  throw new Error(`no ${n} consecutive free ports`);
}

export interface TestCluster extends RunningCluster {
  dataDir: string;
  lines: string[];
}

export async function startTestCluster(
  t: { teardown(fn: () => unknown): void },
  env: Record<string, string> = {},
  shards = 3,
): Promise<TestCluster> {
  const dataDir = mkdtempSync(join(tmpdir(), 'obsim-cluster-'));
  const port = await freePorts(shards + 1);
  const lines: string[] = [];
  const { argv } = runnable(['node', 'dist/src/bin.js']);
  const cluster = await startCluster({
    shards,
    port,
    host: '127.0.0.1',
    dataDir,
    haproxy: 'haproxy',
    out: (line) => lines.push(line),
    obsim: [process.execPath, ...argv],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', OBSIM_LOG_LEVEL: 'warn', ...env },
  });
  t.teardown(async () => {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { ...cluster, dataDir, lines };
}

export interface RouterAnswer {
  status: number;
  /** X-Obsim-Shard: the shard that answered (null when the router answered itself). */
  shard: string | null;
  headers: Headers;
  text: string;
  json: any;
  /** What was sent (path and body), to tell an echo of the caller's input from another's data. */
  sent: string;
}

/** A JSON call through the router (redirects are answers, not followed). */
export function routerCall(base: string) {
  return async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<RouterAnswer> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const sent = `${path} ${body === undefined ? '' : JSON.stringify(body)}`;
    return { status: res.status, shard: res.headers.get('x-obsim-shard'), headers: res.headers, text, json, sent };
  };
}
