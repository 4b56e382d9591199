/**
 * `npm run bench:impact` — what the contract impact report (docs/contract-versions.md, "Impact")
 * costs on a sandbox with 100,000 journal entries, on one obsim from dist/ (file database,
 * `--journal-max-entries 100000 --journal-max-bytes 512mb --contracts examples/contracts`), the
 * server pinned to core 0 and the load to core 1 like `npm run bench`:
 *
 *   1. the journal filled past 100,000 entries (payments created, payment status reads), then
 *      GET /_sandbox/contract/impact?to=2027-03-01: the first report (it reads every page, answers
 *      included) and the p50 of the next ones (each reads what was written since);
 *   2. a restart (the facts are kept in memory: the first report reads everything again), then
 *      that first report while one client reads a payment status one call after another: the
 *      serving thread's own CPU during the report (from /proc/PID/task/PID: the main thread alone)
 *      and the reads' p50 / p99 against the same reads just before (limit: the report is off the
 *      request path; the serving thread's CPU for it is a flush and a message);
 *   3. POST payments at 50 connections, passes alternating (ABBA) between a quiet server and one
 *      asked for an impact report every second: throughput and p99.
 *
 *   options: --quick (short passes), --passes N (default 4), --no-build
 * Writes bench/results/impact.{json,md}.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from './lib/http.js';
import { LoadGenerator } from './lib/load.js';
import { PARTNER_HEADERS, paymentLoad, setupObsim } from './lib/obsim.js';
import { cpuSeconds, LOAD_CORE, machine, pinSelf, serveDist, type Server } from './lib/proc.js';
import { buildDist, log, passOptions, ROOT } from './lib/passes.js';
import { median, percentile, round } from './lib/stats.js';

const { quick, passes: PASSES, durationS: DURATION_S, build } = passOptions();
const ENTRIES = 100_000;
const TO = '2027-03-01';
const EXTRA = ['--journal-max-entries', String(ENTRIES), '--journal-max-bytes', '512mb', '--contracts', join(ROOT, 'examples/contracts')];

/** CPU seconds of one thread of `pid` (the main thread: tid = pid). */
function threadCpuSeconds(pid: number, tid = pid): number {
  const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Wait until the server has no background work left (the last payments settle 5 s after they were
 * made): a report timed then takes what it costs, not the CPU the settlements leave it.
 */
async function quietServer(server: Server): Promise<void> {
  await new Promise((r) => setTimeout(r, 5500));
  for (let i = 0; i < 60; i++) {
    const before = cpuSeconds(server.pid)!;
    await new Promise((r) => setTimeout(r, 500));
    if (cpuSeconds(server.pid)! - before < 0.03) return;
  }
}

/** A report on a quiet server: its wall time and the process's CPU for it (the worker's, mostly). */
async function cpuOfImpact(server: Server): Promise<{ ms: number; cpuMs: number; entries: number }> {
  const cpu0 = cpuSeconds(server.pid)!;
  const { ms, entries } = await timedImpact(server.url);
  return { ms, cpuMs: (cpuSeconds(server.pid)! - cpu0) * 1000, entries };
}

async function timedImpact(url: string): Promise<{ ms: number; entries: number; touched: number }> {
  const t0 = performance.now();
  const r = await call(url, 'GET', `/_sandbox/contract/impact?to=${TO}`, undefined, PARTNER_HEADERS);
  const ms = performance.now() - t0;
  if (r.status !== 200) throw new Error(`GET /_sandbox/contract/impact answered ${r.status}: ${JSON.stringify(r.body)}`);
  const body = r.body as { traffic: { entries: number }; touched: unknown[] };
  return { ms, entries: body.traffic.entries, touched: body.touched.length };
}

/** Sequential reads of one payment's status while `during` runs (or for `ms` when it is a number): their latencies. */
async function reads(url: string, paymentId: number, during: Promise<unknown> | number): Promise<number[]> {
  const out: number[] = [];
  let done = false;
  const until = typeof during === 'number' ? new Promise((r) => setTimeout(r, during)) : during;
  void until.finally(() => (done = true));
  while (!done) {
    const t0 = performance.now();
    await call(url, 'GET', `/v1/partner/payments/${paymentId}/status`, undefined, PARTNER_HEADERS);
    out.push(performance.now() - t0);
  }
  await until;
  return out;
}

async function main(): Promise<void> {
  pinSelf(LOAD_CORE);
  buildDist(build);
  const tmp = mkdtempSync(join(tmpdir(), 'obsim-bench-impact-'));
  const db = join(tmp, 'obsim.sqlite');
  const load = new LoadGenerator();
  let server: Server | undefined;
  try {
    server = await serveDist('obsim-impact', db, EXTRA);
    let url = server.url;
    const fx = await setupObsim(url);
    const pay = (amount: number) => paymentLoad(url, fx.merchantClientId, amount);

    // 1. a journal of 100,000 entries: two payments for each status read
    let made = 0;
    while (made < ENTRIES + 2_000) {
      made += (await load.run({ ...pay(10), durationS: 4 })).total;
      made += (
        await load.run({
          url,
          method: 'GET',
          path: `/v1/partner/payments/${fx.paymentId}/status`,
          headers: PARTNER_HEADERS,
          connections: 50,
          durationS: 1,
        })
      ).total;
      log(`  ${made} requests made`);
    }
    await quietServer(server);
    const coldRun = await cpuOfImpact(server);
    const cold = { ...(await timedImpact(url)), ms: coldRun.ms, cpuMs: round(coldRun.cpuMs, 0), entries: coldRun.entries };
    const warm: number[] = [];
    for (let i = 0; i < (quick ? 5 : 15); i++) warm.push((await timedImpact(url)).ms);
    // about 1,000 entries more each time: as many of the oldest dropped (the journal is at its cap)
    const after1000: number[] = [];
    const after1000Cpu: number[] = [];
    for (let i = 0; i < (quick ? 3 : 6); i++) {
      await load.run({ ...pay(10), url, connections: 10, durationS: 1, overallRate: 1_000 });
      await quietServer(server);
      const r = await cpuOfImpact(server);
      after1000.push(r.ms);
      after1000Cpu.push(r.cpuMs);
    }
    log(
      `impact over ${cold.entries} entries: first ${round(cold.ms, 0)} ms (${cold.touched} touched), then p50 ${round(median(warm), 1)} ms; after ~1,000 new entries p50 ${round(median(after1000), 1)} ms (CPU ${round(median(after1000Cpu), 0)} ms); first: CPU ${cold.cpuMs} ms`,
    );

    // 2. after a restart, the first report (everything read again) beside one client reading a status
    const restarts: {
      reportMs: number;
      mainThreadCpuMs: number;
      processCpuMs: number;
      quietP50: number;
      quietP99: number;
      duringP50: number;
      duringP99: number;
      reads: number;
    }[] = [];
    for (let i = 0; i < (quick ? 1 : 3); i++) {
      await server.stop();
      server = await serveDist('obsim-impact', db, EXTRA);
      url = server.url;
      await quietServer(server);
      await reads(url, fx.paymentId!, 1_000); // warm: the first reads after a start compile
      const q0 = threadCpuSeconds(server.pid);
      const quiet = await reads(url, fx.paymentId!, 2_000);
      // the serving thread's CPU a read takes, to tell the report's share from the reads' own
      const readCpuS = (threadCpuSeconds(server.pid) - q0) / quiet.length;
      const main0 = threadCpuSeconds(server.pid);
      const proc0 = cpuSeconds(server.pid)!;
      const report = timedImpact(url);
      const during = await reads(url, fx.paymentId!, report);
      const { ms, entries } = await report;
      // the journal holds 100,000 entries; a few of them may be none of the provider's operations
      if (entries < ENTRIES * 0.99) throw new Error(`the report read ${entries} entries, not about ${ENTRIES}`);
      restarts.push({
        reportMs: round(ms, 0)!,
        mainThreadCpuMs: round((threadCpuSeconds(server.pid) - main0 - readCpuS * during.length) * 1000, 0)!,
        processCpuMs: round((cpuSeconds(server.pid)! - proc0) * 1000, 0)!,
        quietP50: round(median(quiet), 2)!,
        quietP99: round(percentile(quiet, 99), 2)!,
        duringP50: round(median(during), 2)!,
        duringP99: round(percentile(during, 99), 2)!,
        reads: during.length,
      });
      log(`  after restart ${i + 1}: ${JSON.stringify(restarts.at(-1))}`);
    }

    // 3. the hot path, quiet and with an impact report every second
    const passes = {
      quiet: [] as number[],
      reporting: [] as number[],
      quietP99: [] as number[],
      reportingP99: [] as number[],
      reportMs: [] as number[],
    };
    for (let pass = 0; pass < PASSES; pass++) {
      for (const reporting of pass % 2 === 0 ? [false, true] : [true, false]) {
        await new Promise((r) => setTimeout(r, 5_500)); // the last pass's payments settle
        let stop = false;
        const loop = (async () => {
          while (reporting && !stop) {
            const t0 = performance.now();
            passes.reportMs.push((await timedImpact(url)).ms);
            await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - t0))));
          }
        })();
        const s = await load.run({ ...pay(10), url, durationS: DURATION_S });
        stop = true;
        await loop;
        (reporting ? passes.reporting : passes.quiet).push(s.rps);
        if (s.p99 !== null) (reporting ? passes.reportingP99 : passes.quietP99).push(s.p99);
        log(`  pass ${pass + 1} ${reporting ? 'with reports' : 'quiet       '}: ${round(s.rps, 0)} payments/s, p99 ${s.p99} ms`);
      }
    }
    const hot = {
      quietRps: round(median(passes.quiet), 0),
      reportingRps: round(median(passes.reporting), 0),
      ratio: round(median(passes.reporting)! / median(passes.quiet)!, 3),
      quietSpread: round(Math.min(...passes.quiet) / Math.max(...passes.quiet), 3),
      quietP99Ms: round(median(passes.quietP99), 1),
      reportingP99Ms: round(median(passes.reportingP99), 1),
      reportUnderLoadP50Ms: round(median(passes.reportMs), 0),
      passes,
    };
    const m = machine();
    const r = (k: keyof (typeof restarts)[number]) => restarts.map((x) => x[k]).join(', ');
    const md = [
      '# The contract impact report over 100,000 journal entries',
      '',
      `bench/impact.ts: ${m.nproc} cores, ${m.cpu}, Node ${m.node}; obsim from dist/, file database, ${EXTRA.join(' ')}; ?to=${TO}.`,
      '',
      '| figure | value |',
      '|---|---|',
      `| first report over ${cold.entries} entries (reads every page, answers included): wall / the process's CPU | ${round(cold.ms, 0)} / ${cold.cpuMs} ms |`,
      `| next reports, nothing written since, p50 of ${warm.length} | ${round(median(warm), 1)} ms |`,
      `| next reports, ~1,000 entries written since (as many dropped): wall / CPU, p50 of ${after1000.length} | ${round(median(after1000), 1)} / ${round(median(after1000Cpu), 0)} ms |`,
      `| first report after a restart, each run | ${r('reportMs')} ms |`,
      `| the serving thread's CPU for that report (/proc/PID/task/PID, less the reads' own) | ${r('mainThreadCpuMs')} ms (the whole process, reads included: ${r('processCpuMs')} ms) |`,
      `| a status read one after another: p50 / p99 quiet | ${r('quietP50')} / ${r('quietP99')} ms |`,
      `| the same reads during that report: p50 / p99 | ${r('duringP50')} / ${r('duringP99')} ms (${r('reads')} reads) |`,
      `| POST payments c50: quiet / with an impact report every second | ${hot.quietRps} / ${hot.reportingRps} per s (${hot.ratio}×; quiet passes min/max ${hot.quietSpread}) |`,
      `| POST payments c50, p99: quiet / with reports | ${hot.quietP99Ms} / ${hot.reportingP99Ms} ms |`,
      `| an impact report while the payments run (p50) | ${hot.reportUnderLoadP50Ms} ms |`,
      '',
    ].join('\n');
    const out = join(ROOT, 'bench/results');
    writeFileSync(
      join(out, 'impact.json'),
      `${JSON.stringify({ machine: m, cold, warm, after1000, after1000Cpu, restarts, hot }, null, 2)}\n`,
    );
    writeFileSync(join(out, 'impact.md'), md);
    log(md);
  } finally {
    await server?.stop();
    load.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
