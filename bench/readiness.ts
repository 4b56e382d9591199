/**
 * `npm run bench:readiness` — what the readiness report (docs/readiness.md) costs, on one obsim
 * from dist/ at default settings (file database, journal bounds 10,000 entries), pinned like
 * `npm run bench` (server on core 0, load on core 1):
 *
 *   1. a journal full at its default cap (payments created, payment status reads, refused
 *      payments: 10,000 entries kept), then GET /_sandbox/report: the first report (it reads every
 *      page of the journal) and the p50 / p99 of the next ones, one after another (limit: p50 <=
 *      300 ms);
 *   2. POST payments at 50 connections, passes alternating (ABBA, each started once the server
 *      has no background work left: the last pass's payments settle 5 s later) between a quiet
 *      server and one asked for a report every second (of the same, full journal, which the load
 *      keeps adding to): throughput and server CPU per payment of each, their ratio (the report
 *      must not slow the hot path: within the spread of the quiet passes), the payments' p99
 *      latency of each, and the CPU of one report on its own and of one while the load runs.
 *      Reports are computed on a worker thread (src/readiness/reporter.ts), which here shares the
 *      server's one pinned core with the requests: its CPU is counted as the server's.
 *
 *   options: --quick (short passes), --passes N (default 4), --no-build
 * Writes bench/results/readiness.{json,md}.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from './lib/http.js';
import { LoadGenerator } from './lib/load.js';
import { PARTNER_HEADERS, paymentLoad, setupObsim } from './lib/obsim.js';
import { cpuSeconds, LOAD_CORE, machine, pinSelf, serveDist, type Server } from './lib/proc.js';
import { buildDist, log, passOptions, ROOT } from './lib/passes.js';
import { median, percentile, round } from './lib/stats.js';

const { quick, passes: PASSES, durationS: DURATION_S, build } = passOptions();
const REPORTS = quick ? 10 : 30;
const REPORT_P50_LIMIT_MS = 300;

async function timedReport(url: string): Promise<{ ms: number; entries: number }> {
  const t0 = performance.now();
  const r = await call(url, 'GET', '/_sandbox/report', undefined, PARTNER_HEADERS);
  const ms = performance.now() - t0;
  if (r.status !== 200) throw new Error(`GET /_sandbox/report answered ${r.status}`);
  return { ms, entries: (r.body as { journal: { entries: number } }).journal.entries };
}

/**
 * Wait until the server has no background work left: the payments of the last pass settle 5 s
 * after they were made (default settle delay), and must not be paid for by the next pass.
 */
async function quietServer(server: Server): Promise<void> {
  await new Promise((r) => setTimeout(r, 5500));
  for (let i = 0; i < 60; i++) {
    const before = cpuSeconds(server.pid)!;
    await new Promise((r) => setTimeout(r, 500));
    if (cpuSeconds(server.pid)! - before < 0.03) return;
  }
}

async function main(): Promise<void> {
  pinSelf(LOAD_CORE);
  buildDist(build);
  const tmp = mkdtempSync(join(tmpdir(), 'obsim-bench-readiness-'));
  const load = new LoadGenerator();
  let server: Server | undefined;
  try {
    server = await serveDist('obsim-readiness', join(tmp, 'obsim.sqlite'));
    const url = server.url;
    const fx = await setupObsim(url);
    const pay = (amount: number) => paymentLoad(url, fx.merchantClientId, amount);

    // 1. a full journal: payments, status reads, refusals
    await load.run({ ...pay(10), durationS: quick ? 2 : 4 });
    await load.run({
      url,
      method: 'GET',
      path: `/v1/partner/payments/${fx.paymentId}/status`,
      headers: PARTNER_HEADERS,
      connections: 50,
      durationS: 2,
    });
    await load.run({ ...pay(-1), durationS: 1 });
    const first = await timedReport(url);
    const times: number[] = [];
    for (let i = 0; i < REPORTS; i++) times.push((await timedReport(url)).ms);
    const report = {
      entries: first.entries,
      firstMs: round(first.ms, 1),
      p50Ms: round(median(times), 1)!,
      p99Ms: round(percentile(times, 99), 1),
      limitP50Ms: REPORT_P50_LIMIT_MS,
    };
    log(`report over ${report.entries} entries: first ${report.firstMs} ms, then p50 ${report.p50Ms} ms, p99 ${report.p99Ms} ms`);

    // 2. the hot path, quiet and with a report every second
    const passes = {
      quiet: [] as number[],
      reporting: [] as number[],
      reportMs: [] as number[],
      quietCpuUs: [] as number[],
      reportingCpuUs: [] as number[],
      quietP99Ms: [] as number[],
      reportingP99Ms: [] as number[],
      reportsPerPass: [] as number[],
    };
    for (let pass = 0; pass < PASSES; pass++) {
      // ABBA: neither kind of pass always runs first
      for (const reporting of pass % 2 === 0 ? [false, true] : [true, false]) {
        await quietServer(server);
        let stop = false;
        let reports = 0;
        const cpu0 = cpuSeconds(server.pid)!;
        const loop = (async () => {
          while (reporting && !stop) {
            const t0 = performance.now();
            passes.reportMs.push((await timedReport(url)).ms);
            reports++;
            await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - t0))));
          }
        })();
        const s = await load.run({ ...pay(10), durationS: DURATION_S });
        stop = true;
        await loop;
        const cpuS = cpuSeconds(server.pid)! - cpu0;
        (reporting ? passes.reporting : passes.quiet).push(s.rps);
        // the server's CPU per payment answered, and the reports' share of a pass
        (reporting ? passes.reportingCpuUs : passes.quietCpuUs).push((cpuS / s.total) * 1e6);
        if (s.p99 !== null) (reporting ? passes.reportingP99Ms : passes.quietP99Ms).push(s.p99);
        if (reporting) passes.reportsPerPass.push(reports);
        log(`  pass ${pass + 1} ${reporting ? 'with reports' : 'quiet       '}: ${round(s.rps, 0)} payments/s`);
      }
    }
    // the CPU of a report itself: back to back on the quiet server (each reads the entries added since the last)
    const cpuBefore = cpuSeconds(server.pid)!;
    for (let i = 0; i < REPORTS; i++) await timedReport(url);
    const reportCpuMs = ((cpuSeconds(server.pid)! - cpuBefore) / REPORTS) * 1000;
    const quietMedian = median(passes.quiet)!;
    const hot = {
      quietRps: round(quietMedian, 0),
      reportingRps: round(median(passes.reporting), 0),
      ratio: round(median(passes.reporting)! / quietMedian, 3),
      quietSpread: round(Math.min(...passes.quiet) / Math.max(...passes.quiet), 3),
      reportUnderLoadP50Ms: round(median(passes.reportMs), 1),
      paymentCpuUs: round(median(passes.quietCpuUs), 1),
      paymentCpuWithReportsUs: round(median(passes.reportingCpuUs), 1),
      reportCpuMs: round(reportCpuMs, 1),
      // what the reports cost while the load runs: each reads the entries added since the last
      reportUnderLoadCpuMs: round(
        ((median(passes.reportingCpuUs)! - median(passes.quietCpuUs)!) * median(passes.reporting)! * DURATION_S) /
          1000 /
          median(passes.reportsPerPass)!,
        1,
      ),
      paymentP99Ms: round(median(passes.quietP99Ms), 1),
      paymentP99WithReportsMs: round(median(passes.reportingP99Ms), 1),
      passes,
    };
    log(
      `payments c50: quiet ${hot.quietRps}/s, with a report every second ${hot.reportingRps}/s (${hot.ratio}×; quiet passes min/max ${hot.quietSpread}); a report under that load p50 ${hot.reportUnderLoadP50Ms} ms; server CPU a payment ${hot.paymentCpuUs} µs quiet, ${hot.paymentCpuWithReportsUs} µs with reports; a report alone ${hot.reportCpuMs} ms`,
    );

    const m = machine();
    const md = [
      '# The readiness report',
      '',
      `Readiness report cost (bench/readiness.ts): ${m.nproc} cores, ${m.cpu}, Node ${m.node}; obsim from dist/, file database, default settings.`,
      '',
      '| figure | value | limit |',
      '|---|---|---|',
      `| report over a full journal (${report.entries} entries): first | ${report.firstMs} ms | |`,
      `| report over a full journal: p50 / p99 of ${REPORTS} | ${report.p50Ms} / ${report.p99Ms} ms | p50 <= ${REPORT_P50_LIMIT_MS} ms |`,
      `| POST payments c50: quiet / with a report every second | ${hot.quietRps} / ${hot.reportingRps} per s (${hot.ratio}×) | within the quiet passes' spread (${hot.quietSpread}) |`,
      `| server CPU a payment: quiet / with a report every second | ${hot.paymentCpuUs} / ${hot.paymentCpuWithReportsUs} µs | |`,
      `| POST payments c50, p99 latency: quiet / with a report every second | ${hot.paymentP99Ms} / ${hot.paymentP99WithReportsMs} ms | |`,
      `| a report while the payments run, answered in (p50) | ${hot.reportUnderLoadP50Ms} ms | |`,
      `| server CPU of a report while the payments run (the extra CPU of those passes, a report) | ${hot.reportUnderLoadCpuMs} ms | |`,
      `| server CPU of one report over the full journal, on a quiet server | ${hot.reportCpuMs} ms (${round(hot.reportCpuMs! / 10, 1)}% of a core at one a second) | |`,
      '',
    ].join('\n');
    const out = join(ROOT, 'bench/results');
    writeFileSync(join(out, 'readiness.json'), `${JSON.stringify({ machine: m, report, hot }, null, 2)}\n`);
    writeFileSync(join(out, 'readiness.md'), md);
    log(md);
    const failed = [
      ...(report.p50Ms > REPORT_P50_LIMIT_MS ? [`report p50 ${report.p50Ms} ms > ${REPORT_P50_LIMIT_MS} ms`] : []),
      ...(hot.ratio! < hot.quietSpread! ? [`payments with reports ${hot.ratio}× < the quiet passes' spread ${hot.quietSpread}`] : []),
    ];
    if (failed.length) {
      log(`LIMITS NOT MET: ${failed.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    await server?.stop();
    load.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
