/**
 * `obsim cluster`: HAProxy and N shards on one machine, supervised (docs/cluster.md). Each shard
 * is its own `obsim serve --shard NAME …` process with its own database under the data folder; one
 * that dies is restarted after RESTART_BACKOFF_MS, so its sandboxes answer 503 shard_unavailable
 * for about that long and come back with their data, clocks and timers. The router is HAProxy,
 * configured by src/cluster/haproxy.ts and supervised the same way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { haproxyConfig } from './haproxy.js';
import { alertRules, prometheusConfig } from './monitoring.js';

/** How long a shard (or the router) that died waits before it is started again. */
export const RESTART_BACKOFF_MS = 2000;
/** How long a stopping cluster waits for its processes to exit before it kills them. */
const STOP_GRACE_MS = 10_000;

export interface ClusterOptions {
  shards: number;
  /** The router's port; shard k listens on port + k. */
  port: number;
  host: string;
  dataDir: string;
  /** The HAProxy executable (looked up on PATH when it is a bare name). */
  haproxy: string;
  /** Where progress lines go (the banner, restarts). */
  out: (line: string) => void;
  /** The command that starts obsim (default: this process's own node, flags and entry point). */
  obsim?: readonly string[];
  /** The shards' environment (default: this process's): every other setting goes to them this way. */
  env?: NodeJS.ProcessEnv;
}

export interface ShardProcess {
  name: string;
  port: number;
  db: string;
  log: string;
  child: ChildProcess | undefined;
  restarts: number;
}

export interface RunningCluster {
  url: string;
  shards: readonly ShardProcess[];
  configFile: string;
  /** Stop the router and every shard (SIGTERM, then SIGKILL after a grace period). */
  stop(): Promise<void>;
}

/** An executable on PATH (or the path given), or undefined. */
export function findExecutable(name: string): string | undefined {
  const candidates = name.includes('/') ? [name] : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, name));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

export class ClusterError extends Error {}

export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const haproxy = findExecutable(options.haproxy);
  if (!haproxy) {
    throw new ClusterError(
      `obsim cluster needs HAProxy on PATH ("${options.haproxy}" not found): install it (Debian/Ubuntu: apt-get install haproxy; macOS: brew install haproxy) or give --haproxy /path/to/haproxy`,
    );
  }
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const url = `http://${options.host}:${options.port}`;
  const shards: ShardProcess[] = Array.from({ length: options.shards }, (_, i) => {
    const name = `s${i + 1}`;
    return {
      name,
      port: options.port + i + 1,
      db: join(dataDir, `${name}.sqlite`),
      log: join(dataDir, `${name}.log`),
      child: undefined,
      restarts: 0,
    };
  });
  const peers = shards.map((s) => `${s.name}=http://127.0.0.1:${s.port}`).join(',');
  const configFile = join(dataDir, 'haproxy.cfg');
  writeFileSync(
    configFile,
    haproxyConfig({
      bind: `${options.host}:${options.port}`,
      shards: shards.map((s) => ({ name: s.name, address: `127.0.0.1:${s.port}` })),
      designated: shards[0].name,
      retryAfterS: Math.ceil(RESTART_BACKOFF_MS / 1000),
      stats: join(dataDir, 'haproxy.sock'),
    }),
  );
  // what a Prometheus scrapes to watch this cluster (the router's exporter and each shard), with the alert rules
  writeFileSync(
    join(dataDir, 'prometheus.yml'),
    prometheusConfig(
      { router: `${options.host}:${options.port}`, shards: shards.map((s) => ({ name: s.name, address: `127.0.0.1:${s.port}` })) },
      'alerts.yml',
    ),
  );
  writeFileSync(join(dataDir, 'alerts.yml'), alertRules());
  const obsim = options.obsim ?? [process.execPath, ...process.execArgv, process.argv[1]];
  let stopping = false;
  const logs: WriteStream[] = [];

  /** Start `argv` now and again RESTART_BACKOFF_MS after every exit, until the cluster stops. */
  function supervise(what: string, argv: readonly string[], logFile: string, onStart: (child: ChildProcess) => void): void {
    const log = createWriteStream(logFile, { flags: 'a' });
    logs.push(log);
    const start = () => {
      const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
      child.stdout?.pipe(log, { end: false });
      child.stderr?.pipe(log, { end: false });
      onStart(child);
      child.on('exit', (code, signal) => {
        if (stopping) return;
        options.out(
          `obsim cluster: ${what} exited (${signal ?? `code ${code}`}); restarting in ${RESTART_BACKOFF_MS / 1000} s (log: ${logFile})`,
        );
        setTimeout(() => {
          if (!stopping) start();
        }, RESTART_BACKOFF_MS).unref();
      });
    };
    start();
  }

  for (const shard of shards) {
    const argv = [
      ...obsim,
      'serve',
      '--shard',
      shard.name,
      '--port',
      String(shard.port),
      '--host',
      '127.0.0.1',
      '--db',
      shard.db,
      '--public-url',
      url,
      '--shard-peers',
      peers,
    ];
    supervise(`shard ${shard.name}`, argv, shard.log, (child) => {
      if (shard.child) shard.restarts++;
      shard.child = child;
    });
  }
  let router: ChildProcess | undefined;
  supervise('HAProxy', [haproxy, '-f', configFile], join(dataDir, 'haproxy.log'), (child) => (router = child));

  await waitHealthy(url, shards, () => stopping);

  const stop = async () => {
    stopping = true;
    const children = [router, ...shards.map((s) => s.child)].filter((c): c is ChildProcess => !!c && c.exitCode === null && !c.signalCode);
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((done) => {
            const kill = setTimeout(() => c.kill('SIGKILL'), STOP_GRACE_MS);
            c.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            c.kill('SIGTERM');
          }),
      ),
    );
    for (const log of logs) log.end();
  };
  return { url, shards, configFile, stop };
}

/**
 * Every shard answers /healthz through the router: asked with a client id that names the shard,
 * so the answer also says the router's health check has seen that shard up.
 */
async function waitHealthy(url: string, shards: readonly ShardProcess[], stopped: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  const ok = async (shard: string) => {
    try {
      const res = await fetch(`${url}/healthz`, { headers: { 'x-partner-client-id': `sbx_${shard}_` } });
      return res.ok && res.headers.get('x-obsim-shard') === shard;
    } catch {
      return false;
    }
  };
  for (;;) {
    if (stopped()) return;
    const all = await Promise.all(shards.map((s) => ok(s.name)));
    if (all.every(Boolean)) return;
    if (Date.now() > deadline) {
      const down = shards.filter((_, i) => !all[i]).map((s) => `${s.name} (log: ${s.log})`);
      throw new ClusterError(`obsim cluster: not healthy after 60 s: ${down.join(', ')} (router log: haproxy.log beside them)`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
