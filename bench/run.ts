/**
 * `npm run bench` — obsim at its default settings against two Fastify baselines, Stoplight
 * Prism and Mockoon CLI, in one run.
 *
 *   npm run bench                      default run (about 15 min)
 *   npm run bench -- --quick           one short pass per case, smaller backlogs (about 4 min)
 *   npm run bench -- --soak            + 60 s mixed load, RSS sampled (flat-memory check)
 *   npm run bench -- --no-anchors      without Prism and Mockoon (they are installed on demand
 *                                        into a temp folder, never a dependency)
 *   npm run bench -- --no-lifecycle --no-background --no-growth --no-sandboxes
 *                                      skip the lifecycle throughput, reads under background
 *                                        work, cost growth, or the sandboxes bench
 *   npm run bench -- --profile         obsim runs with --cpu-prof; prints the top self-time
 *                                        functions and keeps the profiles (the cases' server and
 *                                        the lifecycle's) under bench/results/history/
 *   npm run bench -- --only onboarding,payments   run only these load cases
 *   options: --passes N --duration S (c50 runs, default 6) --c1-duration S (5) --warmup S (3)
 *            --no-build --no-webhooks --no-startup
 *   npm run bench -- --no-quiet --duration 3 --c1-duration 2 --warmup 1 --unique-references --proxy plain
 *                                      the instrument as it was before issue 74 (no wait for the
 *                                        servers' background work before a run, shorter runs, a
 *                                        distinct body per payment, a limit proxy without schemas),
 *                                        to see what each difference moved (docs/performance.md,
 *                                        "One truth")
 *   OBSIM_BENCH_BIN=tmp/before/src/bin.js npm run bench -- --no-build …
 *                                      run another build of obsim (a before/after of the
 *                                        lifecycle, which bench:ab does not run)
 *   OBSIM_BENCH_SERVE_ARGS='--persona tmp/all-banks.yaml' npm run bench -- …
 *                                      every obsim of the run with these serve flags too
 *
 * What it does: builds obsim (npm run build), starts it from dist/ with a file database (WAL)
 * in a temp folder and the settings a user gets (payments settle 5 s after creation), plus a
 * diagnostic obsim with `--settle-delay 1h` (nothing settles during the run: what the
 * settlements cost), the baselines (bench/baselines) and the anchors; pins every server to
 * core 0 and the load generator (autocannon in a child process) to core 1 when `taskset`
 * exists, warms up, runs each case several passes alternating servers at 50 connections and
 * at one connection, and reports medians of req/s and p50/p99 latency, ratios and PASS/short
 * per target. Then the lifecycle throughput (bench/lib/lifecycle.ts), reads under background
 * work (bench/lib/background.ts), cost growth (bench/lib/growth.ts) and the sandboxes bench
 * (bench/sandboxes.ts). Writes bench/results/latest.{json,md} and a copy under
 * bench/results/history/ (git-ignored).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { anchorServers } from './lib/anchors.js';
import { CASES, type Kind } from './lib/cases.js';
import { LoadGenerator, type LoadJob, type LoadSummary } from './lib/load.js';
import { busyShare, coreTicks, waitQuiet } from './lib/quiet.js';
import { setupObsim, type ObsimFixture } from './lib/obsim.js';
import { cpuSeconds, machine, pinSelf, LOAD_CORE, rssMb, sleep, type Server } from './lib/proc.js';
import { selfByModule, topSelfTime } from './lib/profile.js';
import { renderMarkdown, type CaseResult, type Results } from './lib/report.js';
import { evaluateTargets } from './lib/targets.js';
import { median, rotation, round } from './lib/stats.js';
import { Receiver, webhookCase } from './lib/webhooks.js';
import { backgroundCase } from './lib/background.js';
import { growthCase } from './lib/growth.js';
import { lifecycleCase } from './lib/lifecycle.js';
import { ROOT, RESULTS, argv, quick, opts, log, tmp, SETTLE_LATER, startObsim, startBaseline, build } from './lib/run-setup.js';
import { soak } from './lib/soak.js';
import { measureStartup } from './lib/startup.js';
import { warmUp } from './lib/warmup.js';

async function runCases(
  servers: Partial<Record<Kind, Server>>,
  fxOf: Partial<Record<Kind, ObsimFixture>>,
  load: LoadGenerator,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const def of CASES) {
    if (opts.only && !opts.only.includes(def.id)) continue;
    const kinds = def.servers.filter((k) => servers[k]);
    const jobs = new Map<Kind, LoadJob>();
    const skipped: string[] = [];
    const fx = fxOf.obsim!;
    for (const k of kinds) {
      const req = def.request(k, fxOf[k] ?? fx);
      if (req)
        jobs.set(k, {
          ...req,
          unique: req.unique && opts.uniqueReferences,
          url: servers[k]!.url,
          connections: opts.connections,
          durationS: opts.durationS,
        });
      else skipped.push(k);
    }
    const result: CaseResult = { id: def.id, label: def.label, servers: {} };
    if (skipped.includes('obsim')) result.note = `obsim skipped: ${fx.missing.join('; ') || 'fixture missing'}`;
    log(`case ${def.id}: ${def.label}`);
    // warm-up each server on this case
    for (const [, job] of jobs) await load.run({ ...job, durationS: opts.warmupS });
    const order = [...jobs.keys()];
    const everyPid = Object.values(servers).map((s) => s.pid);
    /** One measured run, once no server on the core has background work left. */
    const measured = async (k: Kind, job: LoadJob): Promise<LoadSummary> => {
      const quietWaitS = opts.quiet ? await waitQuiet(everyPid) : undefined;
      const pid = servers[k]!.pid;
      const others = everyPid.filter((p) => p !== pid);
      const othersCpu = () => others.reduce((sum, p) => sum + (cpuSeconds(p) ?? 0), 0);
      const cpu0 = cpuSeconds(pid);
      const others0 = othersCpu();
      const core0 = coreTicks(LOAD_CORE);
      const w0 = performance.now();
      const s = await load.run(job);
      const cpu1 = cpuSeconds(pid);
      const wallS = (performance.now() - w0) / 1000;
      if (cpu0 !== null && cpu1 !== null) {
        s.serverCores = round((cpu1 - cpu0) / wallS, 2) ?? undefined;
        if (s.total > 0) s.cpuUsPerRequest = round(((cpu1 - cpu0) * 1e6) / s.total, 1) ?? undefined;
      }
      // the core the other servers took meanwhile (their background work: what the wait prevents)
      const neighbourCores = round((othersCpu() - others0) / wallS, 3) ?? undefined;
      return { ...s, quietWaitS, neighbourCores, loadCoreBusy: busyShare(core0, coreTicks(LOAD_CORE)) };
    };
    for (let pass = 0; pass < opts.passes; pass++) {
      // alternate which server goes first in each pass
      const rotated = rotation(order, pass);
      for (const k of rotated) {
        const s = await measured(k, jobs.get(k)!);
        (result.servers[k] ??= { passes: [], median: { rps: null, p50: null, p99: null } }).passes.push(s);
        log(
          `  pass ${pass + 1} ${k.padEnd(7)} ${Math.round(s.rps).toString().padStart(6)} req/s  p50 ${fmt(s.p50)} ms  p99 ${fmt(s.p99)} ms${s.non2xx ? `  non-2xx ${s.non2xx} ${JSON.stringify(s.statusCodes)}` : ''}${s.errors ? `  errors ${s.errors}` : ''}`,
        );
      }
    }
    // one connection: what a test suite making one call at a time sees
    result.c1 = {};
    for (let pass = 0; pass < opts.passes; pass++) {
      const rotated = rotation(order, pass);
      for (const k of rotated) {
        const s = await measured(k, { ...jobs.get(k)!, connections: 1, durationS: opts.c1DurationS });
        (result.c1[k] ??= { passes: [], median: { rps: null, p50: null, p99: null } }).passes.push(s);
        log(
          `  pass ${pass + 1} ${k.padEnd(7)} 1 connection  p50 ${fmt(s.p50)} ms  p99 ${fmt(s.p99)} ms${s.non2xx ? `  non-2xx ${s.non2xx}` : ''}`,
        );
      }
    }
    for (const entry of [...Object.values(result.servers), ...Object.values(result.c1)]) {
      entry.median = {
        rps: round(median(entry.passes.map((p) => p.rps)), 0),
        p50: round(median(entry.passes.map((p) => p.p50)), 3),
        p99: round(median(entry.passes.map((p) => p.p99)), 3),
      };
      const cores = entry.passes.map((p) => p.serverCores).filter((c): c is number => typeof c === 'number');
      if (cores.length) entry.serverCores = round(median(cores), 2) ?? undefined;
      entry.non2xx = entry.passes.reduce((s, p) => s + p.non2xx + p.errors, 0);
    }
    results.push(result);
  }
  return results;
}

const fmt = (x: number | null) => (x === null ? '-' : x.toFixed(2));

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
    rssAtStart: {},
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
    const obsim1h = await startObsim('obsim1h', join(tmp, 'obsim1h.sqlite'), SETTLE_LATER);
    running.push(obsim1h.server);
    const bare = await startBaseline('bare');
    running.push(bare.server);
    const sqlite = await startBaseline('sqlite');
    running.push(sqlite.server);
    const servers: Partial<Record<Kind, Server>> = {
      obsim: obsim.server,
      obsim1h: obsim1h.server,
      bare: bare.server,
      sqlite: sqlite.server,
    };
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

    // before the first request: what obsim holds having only started (the floor of its RSS)
    for (const [k, s] of Object.entries(servers)) (results.rssAtStart ??= {})[k] = round(rssMb(s.pid), 1);
    const fx = await setupObsim(obsim.server.url);
    results.fixture = {
      merchantId: fx.merchantId,
      largeAccount: fx.large ? { userId: fx.large.userId, accountId: fx.large.accountId, transactions: fx.large.total } : null,
      smallAccount: fx.small ? { userId: fx.small.userId, accountId: fx.small.accountId, transactions: fx.small.total } : null,
      missing: fx.missing,
    };
    if (fx.missing.length) log(`fixture: missing ${fx.missing.join('; ')}`);
    log(`fixture: merchant ${fx.merchantId}; large account ${fx.large?.total ?? '-'} tx; small account ${fx.small?.total ?? '-'} tx`);

    const fx1h = await setupObsim(obsim1h.server.url);
    log(`warm-up: ${opts.warmupS} s at ${opts.connections} connections on each core route, server by server; RSS a second after`);
    results.rssAfterWarmup = await warmUp(servers, { obsim: fx, obsim1h: fx1h }, load);
    log(
      `  ${Object.entries(results.rssAfterWarmup)
        .map(([k, v]) => `${k} ${v} MB`)
        .join(', ')}`,
    );
    results.cases = await runCases(servers, { obsim: fx, obsim1h: fx1h }, load);
    const bareCores = results.cases.find((c) => c.id === 'onboarding')?.servers.bare?.serverCores;
    if (bareCores !== undefined && bareCores < 0.85) {
      results.notes.push(
        `bare Fastify used ${bareCores} of a core on GET onboarding-status at 50 connections: the load generator, not the server, may have been the limit in this run`,
      );
    }
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

    if (opts.lifecycle) {
      log(`lifecycle: payments created at 50 connections for ${opts.lifecycleS} s, settled 5 s later, delivered (defaults)`);
      const receiver = new Receiver();
      const receiverUrl = await receiver.listen();
      const dbPath = join(tmp, 'lifecycle.sqlite');
      const lifeProfile = join(tmp, 'profile-lifecycle');
      const life = await startObsim('obsim-lifecycle', dbPath, [], opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${lifeProfile}`] : []);
      running.push(life.server);
      try {
        results.lifecycle = await lifecycleCase({ server: life.server, dbPath, load, receiver, receiverUrl, durationS: opts.lifecycleS });
        const l = results.lifecycle;
        log(
          `  created ${l.createdPerS}/s, settled ${l.settledPerS}/s (${l.settledRatio}×), delivered ${l.deliveredPerS}/s (${l.deliveredRatio}×); backlog max ${l.maxBacklog}, at the end ${l.backlogAtEnd}; drained ${l.drainS ?? 'not'} s after`,
        );
      } finally {
        await life.server.stop();
        await receiver.close();
      }
      const lifeFiles = existsSync(lifeProfile) ? readdirSync(lifeProfile).filter((f) => f.endsWith('.cpuprofile')) : [];
      if (lifeFiles[0]) {
        mkdirSync(join(RESULTS, 'history'), { recursive: true });
        const kept = join(RESULTS, 'history', `profile-lifecycle-${results.date.replace(/[:.]/g, '-')}.cpuprofile`);
        copyFileSync(join(lifeProfile, lifeFiles[0]), kept);
        log(`profile: top self time (lifecycle server; kept in ${relative(ROOT, kept)})`);
        for (const f of topSelfTime(join(lifeProfile, lifeFiles[0]), 40, ROOT).top)
          log(`  ${f.selfPct.toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);
        for (const g of selfByModule(join(lifeProfile, lifeFiles[0]), ROOT).slice(0, 15))
          log(`  ${g.pct.toFixed(1).padStart(5)}%  ${g.module}`);
      }
    }

    if (opts.background) {
      log(`reads under background work: one connection while ${opts.backlog} due settlements fire`);
      const dbPath = join(tmp, 'background.sqlite');
      const bg = await startObsim('obsim-background', dbPath, ['--clock-frozen']);
      running.push(bg.server);
      try {
        const bgFx = await setupObsim(bg.server.url);
        results.background = await backgroundCase({ server: bg.server, dbPath, fx: bgFx, load, backlog: opts.backlog, durationS: 3, log });
        for (const r of results.background.reads) {
          log(
            `  ${r.label}: p50 quiet ${fmt(r.quiet.p50)} ms, during ${fmt(r.during.p50)} ms (${r.p50Ratio}×); p99 ${fmt(r.quiet.p99)} -> ${fmt(r.during.p99)} ms`,
          );
        }
      } finally {
        await bg.server.stop();
      }
    }

    if (opts.growth) {
      log(`cost growth: ${opts.growthLarge.toLocaleString('en-US')} vs 10,000 payments, one connection`);
      results.growth = await growthCase({
        start: async (db) => {
          const s = await startObsim('obsim-growth', db);
          running.push(s.server);
          return s.server;
        },
        dbPath: (name) => join(tmp, name),
        load,
        small: 10_000,
        large: opts.growthLarge,
        durationS: quick ? 1 : 2,
        log,
      });
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

  if (opts.sandboxes) {
    log('sandboxes: npm run bench:sandboxes (its own servers, after these are stopped)');
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'bench', 'sandboxes.ts'), '--no-build', ...(quick ? ['--quick'] : [])],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
    const file = join(RESULTS, 'sandboxes.json');
    if (r.status === 0 && existsSync(file)) results.sandboxes = JSON.parse(readFileSync(file, 'utf8'));
    else results.notes.push(`the sandboxes bench failed (exit ${r.status})`);
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
