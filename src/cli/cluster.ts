/**
 * `obsim cluster`: try a cluster on one machine (docs/cluster.md).
 *
 *   obsim cluster --shards 3 --port 4010          # HAProxy on 4010, shards s1..s3 on 4011..4013
 *   obsim cluster drain s2 --data-dir data/cluster # no new sandboxes on s2 (its own keep working)
 *
 * Settings other than these go to every shard through the environment (OBSIM_ADMIN_KEY,
 * OBSIM_SETTLE_DELAY, …), as for `obsim serve`.
 */
import { connect } from 'node:net';
import { join } from 'node:path';
import closeWithGrace from 'close-with-grace';
import { type Command, Option } from 'commander';
import ms from 'ms';
import { DEFAULT_SANDBOX_TTL_MS } from '../domain/sandbox.js';
import { startCluster, ClusterError, RESTART_BACKOFF_MS } from '../cluster/supervisor.js';
import { positiveIntArg, portArg } from './args.js';
import { CliExit } from './exit.js';

const DEFAULT_DATA_DIR = './data/cluster';

interface ClusterOpts {
  shards: number;
  port: number;
  host: string;
  dataDir: string;
  haproxy: string;
}

/** One command to HAProxy's runtime API; its answer. */
function runtimeApi(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const conn = connect(socket);
    let answer = '';
    conn.on('data', (d) => (answer += d.toString('utf8')));
    conn.on('end', () => resolve(answer.trim()));
    conn.on('error', reject);
    conn.end(`${command}\n`);
  });
}

export function registerClusterCommand(program: Command): void {
  const cluster = program
    .command('cluster')
    .description('Run HAProxy and several obsim shards on this machine, supervised (docs/cluster.md)')
    .addOption(new Option('--shards <n>', 'how many shards (s1, s2, …)').argParser(positiveIntArg(64)).default(3))
    .addOption(new Option('--port <port>', "the router's port; shard k listens on port + k").argParser(portArg).default(4010))
    .addOption(new Option('--host <host>', 'the interface the router binds').default('127.0.0.1'))
    .addOption(
      new Option('--data-dir <dir>', "the folder of the shards' databases and logs and the router's configuration")
        .env('OBSIM_DATA_DIR')
        .default(DEFAULT_DATA_DIR),
    )
    .addOption(new Option('--haproxy <path>', 'the HAProxy executable').default('haproxy'))
    .action(async (opts: ClusterOpts) => {
      const out = (line: string) => console.log(line);
      let running;
      try {
        running = await startCluster({ ...opts, out });
      } catch (err) {
        if (err instanceof ClusterError) throw new CliExit(1, err.message);
        throw err;
      }
      const { url, shards } = running;
      out(`obsim sandbox cluster listening on ${url} (HAProxy in front of ${shards.length} shards)`);
      out(`  shards:     ${shards.map((s) => `${s.name} 127.0.0.1:${s.port}`).join(', ')}`);
      out(`  data:       ${opts.dataDir} (one database and one log per shard; haproxy.cfg, haproxy.log)`);
      out(`  restarts:   a shard that dies is started again after ${RESTART_BACKOFF_MS / 1000} s; its sandboxes answer 503 until then`);
      out(`  credentials: X-Partner-Client-Id: sandbox-partner  X-Partner-Client-Secret: sandbox-secret (on shard ${shards[0].name})`);
      out(
        `  sandboxes:  POST /_sandbox/sandboxes creates an isolated one on the least loaded shard: its own credentials, clock and settings; removed after ${ms(DEFAULT_SANDBOX_TTL_MS, { long: true })} idle`,
      );
      out(`  docs:       ${url}/docs   openapi: ${url}/openapi.json`);
      out(
        `  metrics:    ${url}/metrics (the router's, HAProxy); each shard's on its own port (${shards.map((s) => `:${s.port}`).join(', ')}); Prometheus: ${join(opts.dataDir, 'prometheus.yml')}`,
      );
      out(`  console:    ${url}/console`);
      closeWithGrace({ delay: 15_000 }, async () => running.stop());
    });

  cluster
    .command('drain')
    .description('Stop creating sandboxes on a shard of a running `obsim cluster` (its sandboxes keep working); `--undo` takes it back')
    .argument('<shard>', 'the shard, e.g. s2')
    .option('--undo', 'create sandboxes on it again')
    // --data-dir is the cluster command's own option (given after `drain` too)
    .action(async (shard: string, opts: { undo?: boolean }) => {
      const { dataDir } = cluster.opts<ClusterOpts>();
      const socket = join(dataDir, 'haproxy.sock');
      let answer: string;
      try {
        answer = await runtimeApi(socket, `set server any/${shard} state ${opts.undo ? 'ready' : 'drain'}`);
      } catch (err) {
        throw new CliExit(
          1,
          `obsim cluster drain: cannot reach the router at ${socket} (${(err as Error).message}); is obsim cluster running with --data-dir ${dataDir}?`,
        );
      }
      if (answer !== '') throw new CliExit(1, `obsim cluster drain: HAProxy says: ${answer}`);
      console.log(
        opts.undo
          ? `${shard}: creating sandboxes again`
          : `${shard}: drained; no new sandboxes go to it (remove it once its sandboxes have expired)`,
      );
    });
}
