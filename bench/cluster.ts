/**
 * `npm run bench:cluster` — obsim as a cluster behind HAProxy (docs/cluster.md), at default
 * settings (payments settle 5 s after creation and are delivered to a registered receiver).
 *
 *   npm run bench:cluster                          router overhead, sandbox creation, scaling S = 1, 2
 *   npm run bench:cluster -- --shards 1,2,4,8      the scaling table on a bigger machine
 *   options: --passes N --duration S --no-build
 *
 * 1. Router overhead: one shard, the lifecycle load (POST payments at 50 connections, each
 *    settled and delivered 5 s later) through HAProxy against the same shard reached directly,
 *    passes alternating; and GET payment status at one connection, for the added p50.
 * 2. Creating a sandbox through the router: p50 of POST /_sandbox/sandboxes, one at a time.
 * 3. Scaling: S shards, one sandbox on each, the lifecycle load on every sandbox at once (50
 *    connections each) through the router; aggregate created/s against S × the one-shard figure.
 *    Shards are pinned to cores 0…C-2, the router and the load generator to the last core, so
 *    S ≤ C-1 is what the machine can show; beyond it the table says so.
 * Prints a table and writes bench/results/cluster.{json,md}.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type RunningCluster } from '../src/cluster/supervisor.js';
import { call } from './lib/http.js';
import { LoadGenerator, type LoadSummary } from './lib/load.js';
import { HAS_TASKSET, pinSelf, sleep } from './lib/proc.js';
import { median, round } from './lib/stats.js';
import { Receiver } from './lib/webhooks.js';
import { build, log, RESULTS, ROOT, value } from './lib/run-setup.js';

const CORES = cpus().length;
const opts = {
  passes: Number(value('passes') ?? 3),
  durationS: Number(value('duration') ?? 8),
  shards: (value('shards') ?? '1,2').split(',').map(Number),
};

interface Sandbox {
  headers: Record<string, string>;
  merchantClientId: string;
}

async function cluster(shards: number, dir: string): Promise<RunningCluster> {
  const lastCore = Math.max(0, CORES - 1);
  const shardCores = lastCore === 0 ? '0' : `0-${Math.max(0, lastCore - 1)}`;
  const node = [process.execPath, join(ROOT, 'dist/src/bin.js')];
  return startCluster({
    shards,
    port: 24_000 + Math.floor(Math.random() * 20_000),
    host: '127.0.0.1',
    dataDir: dir,
    haproxy: 'haproxy',
    out: log,
    obsim: HAS_TASKSET ? ['taskset', '-c', shardCores, ...node] : node,
    env: { ...process.env, OBSIM_LOG_LEVEL: 'warn' },
  });
}

/** A sandbox on `shard` (created until the router puts one there), with a test merchant and a webhook to `receiver`. */
async function sandboxOn(base: string, shard: string, receiver: string): Promise<Sandbox> {
  for (let i = 0; i < 100; i++) {
    const s = await call(base, 'POST', '/_sandbox/sandboxes', {});
    if (s.body.shard !== shard) continue;
    const headers = { 'x-partner-client-id': s.body.credentials.clientId, 'x-partner-client-secret': s.body.credentials.clientSecret };
    const m = await call(base, 'POST', '/v1/partner/merchants/test', { companyName: 'Bench ApS' }, headers);
    await call(base, 'POST', '/v1/partner/webhooks', { url: receiver, events: ['payment.completed'] }, headers);
    return { headers, merchantClientId: m.body.clientId };
  }
  throw new Error(`no sandbox landed on ${shard}`);
}

const lifecycleJob = (url: string, s: Sandbox, durationS: number) => ({
  url,
  method: 'POST' as const,
  path: '/v1/partner/payments',
  headers: { ...s.headers, 'content-type': 'application/json' },
  body: `{"merchantClientId":"${s.merchantClientId}","amount":12.5,"referenceNumber":"c-{{n}}"}`,
  unique: true,
  connections: 50,
  durationS,
});

async function main(): Promise<void> {
  pinSelf(Math.max(0, CORES - 1));
  build();
  const tmp = mkdtempSync(join(tmpdir(), 'obsim-bench-cluster-'));
  const receiver = new Receiver();
  const receiverUrl = await receiver.listen();
  const load = new LoadGenerator();
  const results: Record<string, unknown> = { date: new Date().toISOString(), cores: CORES, options: opts };
  try {
    // 1 and 2: one shard, through the router and directly
    const one = await cluster(1, join(tmp, 'one'));
    const direct = `http://127.0.0.1:${one.shards[0].port}`;
    const s = await sandboxOn(one.url, 's1', receiverUrl);
    const runs: { router: LoadSummary[]; direct: LoadSummary[] } = { router: [], direct: [] };
    const c1: { router: LoadSummary[]; direct: LoadSummary[] } = { router: [], direct: [] };
    const p = await call(
      one.url,
      'POST',
      '/v1/partner/payments',
      { merchantClientId: s.merchantClientId, amount: 1, referenceNumber: 'c1' },
      s.headers,
    );
    for (let pass = 0; pass < opts.passes; pass++) {
      for (const [name, url] of pass % 2
        ? ([
            ['direct', direct],
            ['router', one.url],
          ] as const)
        : ([
            ['router', one.url],
            ['direct', direct],
          ] as const)) {
        runs[name].push(await load.run(lifecycleJob(url, s, opts.durationS)));
        // what the pass left due (settlements, deliveries) runs before the next pass
        await sleep(7000);
        c1[name].push(
          await load.run({
            url,
            method: 'GET',
            path: `/v1/partner/payments/${p.body.paymentId}/status`,
            headers: s.headers,
            connections: 1,
            durationS: 2,
          }),
        );
      }
    }
    const med = (xs: LoadSummary[], k: 'rps' | 'p50') => median(xs.map((x) => x[k] ?? 0));
    const overhead = {
      lifecycleRps: { router: round(med(runs.router, 'rps'), 0), direct: round(med(runs.direct, 'rps'), 0) },
      ratio: round(med(runs.router, 'rps')! / med(runs.direct, 'rps')!, 3),
      c1P50Ms: { router: round(med(c1.router, 'p50'), 3), direct: round(med(c1.direct, 'p50'), 3) },
      addedP50Us: round((med(c1.router, 'p50')! - med(c1.direct, 'p50')!) * 1000, 0),
    };
    results.overhead = overhead;
    log(
      `router overhead, one shard: lifecycle ${overhead.lifecycleRps.router} vs ${overhead.lifecycleRps.direct} req/s direct (${overhead.ratio}x, limit >= 0.85x)`,
    );
    log(
      `  GET status at one connection: p50 ${overhead.c1P50Ms.router} vs ${overhead.c1P50Ms.direct} ms direct (+${overhead.addedP50Us} us, limit <= 150 us)`,
    );

    const createMs: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      await call(one.url, 'POST', '/_sandbox/sandboxes', {});
      createMs.push(performance.now() - t0);
    }
    results.createSandboxP50Ms = round(median(createMs), 2);
    log(`creating a sandbox through the router: p50 ${results.createSandboxP50Ms as number} ms (limit <= 5 ms)`);
    await one.stop();

    // 3: scaling
    // each cluster warmed up first; S x one shard is read from this phase's own S = 1
    let oneShard: number | undefined;
    const table: { shards: number; rps: number; perShard: number; ratio: number | null; fits: boolean }[] = [];
    for (const n of opts.shards) {
      const c = await cluster(n, join(tmp, `s${n}`));
      const sandboxes = await Promise.all(c.shards.map((sh) => sandboxOn(c.url, sh.name, receiverUrl)));
      const generators = sandboxes.map(() => new LoadGenerator());
      await Promise.all(sandboxes.map((sb, i) => generators[i].run(lifecycleJob(c.url, sb, 3))));
      await sleep(7000);
      const summaries = await Promise.all(sandboxes.map((sb, i) => generators[i].run(lifecycleJob(c.url, sb, opts.durationS))));
      for (const g of generators) g.close();
      const rps = round(
        summaries.reduce((sum, x) => sum + x.rps, 0),
        0,
      )!;
      if (n === 1) oneShard = rps;
      const ratio = oneShard === undefined ? null : round(rps / (n * oneShard), 2);
      const row = { shards: n, rps, perShard: round(rps / n, 0)!, ratio, fits: n <= CORES - 1 };
      table.push(row);
      log(
        `  ${n} shard(s): ${rps} req/s aggregate, ${row.ratio}x of ${n} x one shard${row.fits ? '' : ` (more shards than the ${CORES - 1} core(s) left beside the router: no scaling can show here)`}`,
      );
      await c.stop();
      await sleep(3000);
    }
    results.scaling = table;
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, 'cluster.json'), `${JSON.stringify(results, null, 2)}\n`);
    const md = [
      `# bench:cluster (${results.date as string}, ${CORES} cores)`,
      '',
      '| figure | value | limit |',
      '|---|---|---|',
      `| lifecycle through the router / direct, one shard | ${overhead.ratio}x (${overhead.lifecycleRps.router} / ${overhead.lifecycleRps.direct} req/s) | >= 0.85x |`,
      `| added p50, GET status at one connection | ${overhead.addedP50Us} us (${overhead.c1P50Ms.router} / ${overhead.c1P50Ms.direct} ms) | <= 150 us |`,
      `| creating a sandbox through the router, p50 | ${results.createSandboxP50Ms as number} ms | <= 5 ms |`,
      ...table.map(
        (r) =>
          `| ${r.shards} shard(s), aggregate lifecycle | ${r.rps} req/s, ${r.ratio}x of ${r.shards} x one shard${r.fits ? '' : ' (over the cores left)'} | >= 0.8x |`,
      ),
      '',
    ].join('\n');
    writeFileSync(join(RESULTS, 'cluster.md'), md);
    log(md);
  } finally {
    load.close();
    await receiver.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
