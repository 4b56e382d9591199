/**
 * `npm run bench` — obsim against two Fastify baselines (and optionally Prism and Mockoon).
 *
 *   npm run bench                      default run (< 5 min)
 *   npm run bench -- --quick           one short pass per case (< 1 min)
 *   npm run bench -- --soak            + 60 s mixed load, RSS sampled (flat-memory check)
 *   npm run bench -- --with-anchors    + Stoplight Prism and Mockoon CLI, installed on demand
 *                                        into a temp folder (never a dependency)
 *   npm run bench -- --profile         obsim runs with --cpu-prof; prints the top self-time
 *                                        functions and keeps the profile under bench/results/history/
 *   npm run bench -- --only onboarding,payments   run only these load cases
 *   options: --passes N --duration S --no-build --no-webhooks --no-startup
 *
 * What it does: builds obsim (npm run build), starts it from dist/ with a file database (WAL)
 * in a temp folder, starts the baselines (bench/baselines), pins every server to core 0 and
 * the load generator (autocannon in a child process) to core 1 when `taskset` exists, warms
 * up, runs each case several passes alternating servers (50 connections), and reports medians
 * of req/s and p50/p99 latency, ratios and PASS/short per target of issue 7. Writes
 * bench/results/latest.{json,md} and a copy under bench/results/history/ (git-ignored).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchorServers, type AnchorSpec } from './lib/anchors.js';
import { LoadGenerator, type LoadJob } from './lib/load.js';
import { PARTNER_HEADERS, setupObsim, type ObsimFixture } from './lib/obsim.js';
import { freePort, machine, pinSelf, LOAD_CORE, rssMb, sleep, startServer, type Server } from './lib/proc.js';
import { selfByModule, topSelfTime } from './lib/profile.js';
import { evaluateTargets, renderMarkdown, type CaseResult, type Results } from './lib/report.js';
import { median, round } from './lib/stats.js';
import { Receiver, webhookCase } from './lib/webhooks.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = join(ROOT, 'bench', 'results');

// ---------------------------------------------------------------------------------- options
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const value = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const quick = flag('quick');
const opts = {
  quick,
  soak: flag('soak'),
  anchors: flag('with-anchors'),
  profile: flag('profile'),
  build: !flag('no-build'),
  webhooks: !flag('no-webhooks'),
  startup: !flag('no-startup'),
  passes: Number(value('passes') ?? (quick ? 1 : 3)),
  durationS: Number(value('duration') ?? (quick ? 1 : 3)),
  warmupS: quick ? 0.5 : 1,
  connections: 50,
  startupRuns: quick ? 2 : 5,
  only: value('only')?.split(',') ?? null,
  webhookEvents: quick ? 200 : 1000,
  soakSeconds: Number(value('soak-seconds') ?? 60),
};

const log = (line: string) => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------- servers
type Kind = 'obsim' | 'bare' | 'sqlite' | 'prism' | 'mockoon';
const BASELINE_MERCHANT = 100001;
const tmp = mkdtempSync(join(tmpdir(), 'obsim-bench-'));
const OBSIM_MAIN = ['dist/src/bin.js', 'serve', '--settle-delay', '1h', '--payment-expiry', '2h'];

function obsimArgv(port: number, db: string, extra: string[] = [], nodeFlags: string[] = []): string[] {
  return [process.execPath, ...nodeFlags, join(ROOT, OBSIM_MAIN[0]), ...OBSIM_MAIN.slice(1), '--port', String(port), '--db', db, ...extra];
}

async function startObsim(name: string, db: string, extra: string[] = [], nodeFlags: string[] = []) {
  const port = await freePort();
  return startServer({ name, argv: obsimArgv(port, db, extra, nodeFlags), port, cwd: ROOT });
}

async function startBaseline(kind: 'bare' | 'sqlite', db?: string) {
  const port = await freePort();
  return startServer({
    name: kind,
    argv: [process.execPath, join(ROOT, 'bench', 'baselines', `${kind}.mjs`)],
    env: { PORT: String(port), BASELINE_DB: db ?? join(tmp, `${kind}-${port}.sqlite`), BASELINE_TRANSACTIONS: '100000' },
    port,
    cwd: ROOT,
  });
}

// ---------------------------------------------------------------------------------- cases
interface CaseDef {
  id: string;
  label: string;
  servers: Kind[];
  request(kind: Kind, fx: ObsimFixture): Omit<LoadJob, 'url' | 'connections' | 'durationS'> | null;
}

const json = { 'content-type': 'application/json' };

function txRequest(kind: Kind, fx: ObsimFixture, which: 'large' | 'small', pageLimit: number) {
  const acc = fx[which];
  if (kind === 'obsim') {
    if (!acc) return null;
    return {
      method: 'POST' as const,
      path: '/v1/ais/accounts/transactions',
      headers: { ...json, authorization: `Bearer ${acc.token}` },
      body: JSON.stringify({ userId: acc.userId, merchantId: acc.merchantId, accountId: acc.accountId, pageLimit }),
    };
  }
  return {
    method: 'POST' as const,
    path: '/v1/ais/accounts/transactions',
    headers: { ...json, authorization: 'Bearer x' },
    body: JSON.stringify({ userId: 'user-100k', merchantId: BASELINE_MERCHANT, accountId: 'acc_bench', pageLimit }),
  };
}

const CASES: CaseDef[] = [
  {
    id: 'onboarding',
    label: 'GET onboarding-status',
    servers: ['obsim', 'bare', 'sqlite', 'prism', 'mockoon'],
    request: (kind, fx) => ({
      method: 'GET',
      path: `/v1/partner/merchants/${kind === 'obsim' ? fx.merchantId : BASELINE_MERCHANT}/onboarding-status`,
      headers: PARTNER_HEADERS,
    }),
  },
  {
    id: 'payments',
    label: 'POST payments',
    servers: ['obsim', 'bare', 'sqlite', 'prism', 'mockoon'],
    request: (kind, fx) => ({
      method: 'POST',
      path: '/v1/partner/payments',
      headers: { ...PARTNER_HEADERS, ...json },
      body: `{"merchantClientId":"${kind === 'obsim' ? fx.merchantClientId : 'c0ffee00-0000-4000-8000-000000000001'}","amount":125.5,"referenceNumber":"bench-{{n}}"}`,
      unique: true,
    }),
  },
  {
    id: 'tx20',
    label: 'POST transactions, 20 items (100k account)',
    servers: ['obsim', 'bare', 'sqlite', 'prism', 'mockoon'],
    request: (kind, fx) => txRequest(kind, fx, 'large', 20),
  },
  {
    id: 'tx200',
    label: 'POST transactions, 200 items (100k account)',
    servers: ['obsim', 'sqlite'],
    request: (kind, fx) => txRequest(kind, fx, 'large', 200),
  },
  {
    id: 'tx20small',
    label: 'POST transactions, 20 items (small account)',
    servers: ['obsim'],
    request: (kind, fx) => txRequest(kind, fx, 'small', 20),
  },
  {
    id: 'tx200small',
    label: 'POST transactions, 200 items (small account)',
    servers: ['obsim'],
    request: (kind, fx) => txRequest(kind, fx, 'small', 200),
  },
  {
    id: 'token',
    label: 'POST generate-token',
    servers: ['obsim'],
    request: (_kind, fx) =>
      fx.tokenRequest
        ? {
            method: 'POST',
            path: '/v1/auth/generate-token',
            headers: { ...PARTNER_HEADERS, ...json },
            body: JSON.stringify(fx.tokenRequest),
          }
        : null,
  },
  {
    id: 'aisread',
    label: 'POST accounts/balance (JWT + consent)',
    servers: ['obsim'],
    request: (_kind, fx) =>
      fx.large
        ? {
            method: 'POST',
            path: '/v1/ais/accounts/balance',
            headers: { ...json, authorization: `Bearer ${fx.large.token}` },
            body: JSON.stringify({ userId: fx.large.userId, merchantId: fx.large.merchantId, accountId: fx.large.accountId }),
          }
        : null,
  },
];

// ---------------------------------------------------------------------------------- phases
function build(): void {
  if (!opts.build) return;
  log('building obsim (npm run build) ...');
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    log(`  build reported errors (continuing with what was emitted):\n${(r.stdout + r.stderr).split('\n').slice(0, 10).join('\n')}`);
  }
  if (!existsSync(join(ROOT, 'dist', 'src', 'bin.js'))) throw new Error('dist/src/bin.js missing after build');
}

async function measureStartup(anchors: AnchorSpec[]): Promise<Results['startup']> {
  const runs: Record<string, number[]> = { obsim: [], bare: [] };
  for (const a of anchors) runs[a.kind] = [];
  for (let i = 0; i < opts.startupRuns; i++) {
    // alternate: a cold obsim (fresh database: migrations + seed + schema compilation), then bare
    const o = await startObsim('obsim-cold', join(tmp, `cold-${i}.sqlite`));
    runs.obsim.push(o.startMs);
    await o.server.stop();
    const b = await startBaseline('bare');
    runs.bare.push(b.startMs);
    await b.server.stop();
    for (const a of anchors) {
      if (i >= 3) continue;
      const s = await a.start();
      runs[a.kind].push(s.startMs);
      await s.server.stop();
    }
  }
  const out: Results['startup'] = {};
  for (const [k, v] of Object.entries(runs)) out[k] = { runsMs: v.map((x) => round(x, 1)!), medianMs: round(median(v), 1) };
  return out;
}

async function runCases(servers: Partial<Record<Kind, Server>>, fx: ObsimFixture, load: LoadGenerator): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const def of CASES) {
    if (opts.only && !opts.only.includes(def.id)) continue;
    const kinds = def.servers.filter((k) => servers[k]);
    const jobs = new Map<Kind, LoadJob>();
    const skipped: string[] = [];
    for (const k of kinds) {
      const req = def.request(k, fx);
      if (req) jobs.set(k, { ...req, url: servers[k]!.url, connections: opts.connections, durationS: opts.durationS });
      else skipped.push(k);
    }
    const result: CaseResult = { id: def.id, label: def.label, servers: {} };
    if (skipped.includes('obsim')) result.note = `obsim skipped: ${fx.missing.join('; ') || 'fixture missing'}`;
    log(`case ${def.id}: ${def.label}`);
    // warm-up each server on this case
    for (const [, job] of jobs) await load.run({ ...job, durationS: opts.warmupS });
    const order = [...jobs.keys()];
    for (let pass = 0; pass < opts.passes; pass++) {
      // alternate which server goes first in each pass
      const rotated = order.map((_, i) => order[(i + pass) % order.length]);
      for (const k of rotated) {
        const s = await load.run(jobs.get(k)!);
        (result.servers[k] ??= { passes: [], median: { rps: null, p50: null, p99: null } }).passes.push(s);
        log(
          `  pass ${pass + 1} ${k.padEnd(7)} ${Math.round(s.rps).toString().padStart(6)} req/s  p50 ${fmt(s.p50)} ms  p99 ${fmt(s.p99)} ms${s.non2xx ? `  non-2xx ${s.non2xx} ${JSON.stringify(s.statusCodes)}` : ''}${s.errors ? `  errors ${s.errors}` : ''}`,
        );
      }
    }
    for (const entry of Object.values(result.servers)) {
      entry.median = {
        rps: round(median(entry.passes.map((p) => p.rps)), 0),
        p50: round(median(entry.passes.map((p) => p.p50)), 3),
        p99: round(median(entry.passes.map((p) => p.p99)), 3),
      };
      entry.non2xx = entry.passes.reduce((s, p) => s + p.non2xx + p.errors, 0);
    }
    results.push(result);
  }
  return results;
}

const fmt = (x: number | null) => (x === null ? '-' : x.toFixed(2));

async function soak(server: Server, fx: ObsimFixture, load: LoadGenerator): Promise<Results['soak']> {
  log(`soak: ${opts.soakSeconds} s of mixed load on obsim, RSS sampled every 5 s`);
  const mix = ['onboarding', 'payments', 'tx20', 'token']
    .map((id) => CASES.find((c) => c.id === id)!.request('obsim', fx))
    .filter((r) => r !== null);
  const samples: { t: number; rssMb: number | null }[] = [{ t: 0, rssMb: rssMb(server.pid) }];
  const t0 = performance.now();
  let i = 0;
  while (performance.now() - t0 < opts.soakSeconds * 1000) {
    await load.run({ ...mix[i++ % mix.length], url: server.url, connections: opts.connections, durationS: 5 });
    samples.push({ t: round((performance.now() - t0) / 1000, 1)!, rssMb: round(rssMb(server.pid), 1) });
  }
  const v = samples.map((s) => s.rssMb ?? 0);
  const third = Math.max(1, Math.floor(v.length / 3));
  const first = median(v.slice(1, 1 + third)) ?? v[0];
  const last = median(v.slice(-third)) ?? v[v.length - 1];
  const growthPct = round(((last - first) / first) * 100, 1);
  return {
    seconds: opts.soakSeconds,
    samples,
    firstThirdMb: round(first, 1),
    lastThirdMb: round(last, 1),
    growthPct,
    flat: growthPct !== null && growthPct <= 10,
  };
}

// ---------------------------------------------------------------------------------- main
async function main(): Promise<void> {
  const started = Date.now();
  pinSelf(LOAD_CORE);
  build();
  const anchors = opts.anchors ? await anchorServers(ROOT, tmp, log) : [];
  const load = new LoadGenerator();
  const results: Results = {
    date: new Date().toISOString(),
    machine: machine(),
    command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
    options: opts,
    startup: {},
    rss: {},
    cases: [],
    targets: [],
    notes: [],
  };
  const running: Server[] = [];
  try {
    if (opts.startup) {
      log(`start-up: ${opts.startupRuns} cold starts each, to the first /healthz 200`);
      results.startup = await measureStartup(anchors);
      for (const [k, v] of Object.entries(results.startup)) log(`  ${k.padEnd(7)} median ${v.medianMs} ms  (${v.runsMs.join(', ')})`);
    }

    const profileDir = join(tmp, 'profile');
    const obsim = await startObsim(
      'obsim',
      join(tmp, 'obsim.sqlite'),
      [],
      opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    running.push(obsim.server);
    const bare = await startBaseline('bare');
    running.push(bare.server);
    const sqlite = await startBaseline('sqlite');
    running.push(sqlite.server);
    const servers: Partial<Record<Kind, Server>> = { obsim: obsim.server, bare: bare.server, sqlite: sqlite.server };
    for (const a of anchors) {
      const s = await a.start();
      running.push(s.server);
      servers[a.kind] = s.server;
    }
    log(
      `servers: ${Object.entries(servers)
        .map(([k, s]) => `${k} ${s.url}`)
        .join(', ')}`,
    );

    const fx = await setupObsim(obsim.server.url);
    results.fixture = {
      merchantId: fx.merchantId,
      largeAccount: fx.large ? { userId: fx.large.userId, accountId: fx.large.accountId, transactions: fx.large.total } : null,
      smallAccount: fx.small ? { userId: fx.small.userId, accountId: fx.small.accountId, transactions: fx.small.total } : null,
      missing: fx.missing,
    };
    if (fx.missing.length) log(`fixture: missing ${fx.missing.join('; ')}`);
    log(`fixture: merchant ${fx.merchantId}; large account ${fx.large?.total ?? '-'} tx; small account ${fx.small?.total ?? '-'} tx`);

    results.cases = await runCases(servers, fx, load);
    await sleep(500);
    for (const [k, s] of Object.entries(servers)) results.rss[k] = round(rssMb(s.pid), 1);
    log(
      `RSS after the load cases: ${Object.entries(results.rss)
        .map(([k, v]) => `${k} ${v} MB`)
        .join(', ')}`,
    );

    if (opts.soak) results.soak = await soak(obsim.server, fx, load);

    for (const s of running.splice(0)) await s.stop();
    if (opts.profile) {
      const files = existsSync(profileDir) ? readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')) : [];
      if (files[0]) {
        const src = join(profileDir, files[0]);
        mkdirSync(join(RESULTS, 'history'), { recursive: true });
        const kept = join(RESULTS, 'history', `profile-${results.date.replace(/[:.]/g, '-')}.cpuprofile`);
        copyFileSync(src, kept);
        const { top } = topSelfTime(src, 30, ROOT);
        results.profile = {
          file: kept,
          top: top.map((f) => ({ ...f, selfMs: round(f.selfMs, 1)!, selfPct: round(f.selfPct, 1)! })),
          byModule: selfByModule(src, ROOT)
            .slice(0, 15)
            .map((g) => ({ module: g.module, pct: round(g.pct, 1)! })),
        };
        log('profile: top self time (obsim, whole run)');
        for (const f of results.profile.top.slice(0, 25)) log(`  ${String(f.selfPct).padStart(5)}%  ${f.name}  ${f.where}`);
        log('profile: by module');
        for (const g of results.profile.byModule) log(`  ${String(g.pct).padStart(5)}%  ${g.module}`);
      }
    }

    if (opts.webhooks) {
      log(`webhooks: ${opts.webhookEvents} payments settling at once, then ${opts.webhookEvents} completed at 200/s`);
      const receiver = new Receiver();
      const receiverUrl = await receiver.listen();
      const settleDelayMs = 5000;
      const wh = await startObsim('obsim-webhooks', join(tmp, 'webhooks.sqlite'), [
        '--clock-frozen',
        '--settle-delay',
        `${settleDelayMs}ms`,
        '--payment-expiry',
        '1h',
      ]);
      running.push(wh.server);
      try {
        results.webhooks = await webhookCase({
          base: wh.server.url,
          receiver,
          receiverUrl,
          load,
          events: opts.webhookEvents,
          pacedRate: 200,
          apiRate: 500,
          apiSeconds: quick ? 2 : 4,
          settleDelayMs,
        });
        const w = results.webhooks;
        log(
          `  burst: ${w.burst.delivered}/${w.events} delivered, ${w.burst.signedOk} signed ok, median ${w.burst.medianMs} ms, p99 ${w.burst.p99Ms} ms, last ${w.burst.lastMs} ms (advance call ${w.burst.advanceCallMs} ms)`,
        );
        log(`  paced: ${w.paced.delivered}/${w.events} delivered, median ${w.paced.medianMs} ms, p99 ${w.paced.p99Ms} ms`);
        log(
          `  API p99 at ${w.api.rate} req/s: quiet ${fmt(w.api.quiet.p99)} ms, burst ${fmt(w.api.burst.p99)} ms, paced ${fmt(w.api.paced.p99)} ms`,
        );
      } catch (err) {
        results.notes.push(`webhook case failed: ${(err as Error).message}`);
        log(`  webhook case failed: ${(err as Error).message}`);
      } finally {
        await receiver.close();
      }
    }
  } finally {
    for (const s of running) await s.stop().catch(() => undefined);
    load.close();
  }

  results.targets = evaluateTargets(results);
  results.elapsedS = round((Date.now() - started) / 1000, 1)!;
  const md = renderMarkdown(results);
  mkdirSync(join(RESULTS, 'history'), { recursive: true });
  writeFileSync(join(RESULTS, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(RESULTS, 'latest.md'), md);
  writeFileSync(join(RESULTS, 'history', `${results.date.replace(/[:.]/g, '-')}.json`), `${JSON.stringify(results, null, 2)}\n`);
  log('');
  log(md);
  log(`written: bench/results/latest.json, bench/results/latest.md (${results.elapsedS} s)`);
  rmSync(tmp, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  rmSync(tmp, { recursive: true, force: true });
  process.exit(1);
});
