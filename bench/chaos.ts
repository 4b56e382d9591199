/**
 * `npm run bench:chaos` — what seeded chaos (docs/chaos.md) costs a request:
 *
 *   1. the decision alone, in this process: a request of a sandbox with a profile of 10 API rules
 *      that all match it (each draws its three numbers) and none fires, against no profile at all
 *      (limit: <= 5 µs a request);
 *   2. over HTTP, obsim from dist/ at default settings pinned like `npm run bench`: GET payment
 *      status at 50 connections in alternating passes (ABBA) with no profile and with that
 *      10-rule profile: throughput and server CPU per request of each.
 *
 * "No profile pays nothing" is measured against the build before chaos, side by side, with
 * `npm run bench:ab -- tmp/before/src/bin.js dist/src/bin.js --cases paymentstatus,payments
 * --connections 1,50` (docs/chaos.md gives the figures).
 *
 *   options: --quick (short passes), --passes N (default 4), --no-build
 * Writes bench/results/chaos.{json,md}.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import type { ApiRule } from '../src/domain/chaos.js';
import { call } from './lib/http.js';
import { LoadGenerator } from './lib/load.js';
import { PARTNER_HEADERS, setupObsim } from './lib/obsim.js';
import { cpuSeconds, LOAD_CORE, machine, pinSelf, serveDist, type Server } from './lib/proc.js';
import { buildDist, log, passOptions, ROOT } from './lib/passes.js';
import { median, round } from './lib/stats.js';

const { quick, passes: PASSES, durationS: DURATION_S, build } = passOptions();
const DECISIONS = quick ? 50_000 : 200_000;
const RULE_COST_LIMIT_US = 5;
const json = { 'content-type': 'application/json' };

/** Ten rules that all match every request and never fire: every one draws, nothing is injected. */
const TEN_RULES: ApiRule[] = [
  ...Array.from({ length: 4 }, () => ({ kind: 'error' as const, rate: 0, status: 503 as const })),
  ...Array.from({ length: 3 }, () => ({ kind: 'drop' as const, rate: 0 })),
  ...Array.from({ length: 3 }, () => ({
    kind: 'latency' as const,
    rate: 0,
    latency: { distribution: 'normal' as const, meanMs: 100, stddevMs: 20 },
  })),
];

/** µs per decision for the default sandbox, median of five rounds. */
async function decisionCost(): Promise<{ none: number; tenRules: number }> {
  const app = await buildApp({ logger: false, config: { db: ':memory:', logLevel: 'silent', journal: false } });
  await app.ready();
  const op = { operationId: 'getPaymentStatus', route: 'GET /v1/partner/payments/{paymentId}/status' };
  const world = app.engine.worldOf('sandbox-partner');
  const round5 = () => {
    const us: number[] = [];
    for (let r = 0; r < 5; r++) {
      const t0 = performance.now();
      for (let i = 0; i < DECISIONS; i++) app.chaos.api(world.id, op, world.clock.nowMs());
      us.push(((performance.now() - t0) * 1000) / DECISIONS);
    }
    return median(us)!;
  };
  const none = round5();
  await app.inject({
    method: 'PUT',
    url: '/_sandbox/faults',
    headers: { ...PARTNER_HEADERS, ...json },
    payload: { seed: 1, rules: TEN_RULES },
  });
  const tenRules = round5();
  await app.close();
  return { none: round(none, 3)!, tenRules: round(tenRules, 3)! };
}

async function main(): Promise<void> {
  pinSelf(LOAD_CORE);
  buildDist(build);
  const decision = await decisionCost();
  log(`decision: no profile ${decision.none} µs, 10 rules ${decision.tenRules} µs a request`);

  const tmp = mkdtempSync(join(tmpdir(), 'obsim-bench-chaos-'));
  const load = new LoadGenerator();
  let server: Server | undefined;
  try {
    server = await serveDist('obsim-chaos', join(tmp, 'obsim.sqlite'));
    const url = server.url;
    const fx = await setupObsim(url);
    const status = {
      url,
      method: 'GET' as const,
      path: `/v1/partner/payments/${fx.paymentId}/status`,
      headers: PARTNER_HEADERS,
      connections: 50,
    };
    await load.run({ ...status, durationS: 2 }); // warm
    const passes = { none: [] as number[], tenRules: [] as number[], noneCpuUs: [] as number[], tenRulesCpuUs: [] as number[] };
    for (let pass = 0; pass < PASSES; pass++) {
      for (const withRules of pass % 2 === 0 ? [false, true] : [true, false]) {
        const set = withRules
          ? await call(url, 'PUT', '/_sandbox/faults', { seed: 1, rules: TEN_RULES }, { ...PARTNER_HEADERS, ...json })
          : await call(url, 'DELETE', '/_sandbox/faults', undefined, PARTNER_HEADERS);
        if (set.status !== 200) throw new Error(`/_sandbox/faults answered ${set.status}`);
        const cpu0 = cpuSeconds(server.pid)!;
        const s = await load.run({ ...status, durationS: DURATION_S });
        const cpuUs = ((cpuSeconds(server.pid)! - cpu0) / s.total) * 1e6;
        (withRules ? passes.tenRules : passes.none).push(s.rps);
        (withRules ? passes.tenRulesCpuUs : passes.noneCpuUs).push(cpuUs);
        log(`  pass ${pass + 1} ${withRules ? '10 rules  ' : 'no profile'}: ${round(s.rps, 0)} req/s, ${round(cpuUs, 1)} µs CPU a request`);
      }
    }
    const hot = {
      noneRps: round(median(passes.none), 0),
      tenRulesRps: round(median(passes.tenRules), 0),
      ratio: round(median(passes.tenRules)! / median(passes.none)!, 3),
      spread: round(Math.min(...passes.none) / Math.max(...passes.none), 3),
      noneCpuUs: round(median(passes.noneCpuUs), 1),
      tenRulesCpuUs: round(median(passes.tenRulesCpuUs), 1),
      passes,
    };
    const m = machine();
    const md = [
      '# Seeded chaos',
      '',
      `Seeded chaos cost (bench/chaos.ts): ${m.nproc} cores, ${m.cpu}, Node ${m.node}; obsim from dist/, file database, default settings.`,
      '',
      '| figure | value | limit |',
      '|---|---|---|',
      `| the decision for a request: no profile / 10 rules that all match (in process) | ${decision.none} / ${decision.tenRules} µs | 10 rules <= ${RULE_COST_LIMIT_US} µs |`,
      `| GET payment status c50: no profile / 10 rules | ${hot.noneRps} / ${hot.tenRulesRps} req/s (${hot.ratio}×) | (no-profile passes spread ${hot.spread}) |`,
      `| server CPU a request: no profile / 10 rules | ${hot.noneCpuUs} / ${hot.tenRulesCpuUs} µs | |`,
      '',
    ].join('\n');
    const out = join(ROOT, 'bench/results');
    writeFileSync(join(out, 'chaos.json'), `${JSON.stringify({ machine: m, decision, hot }, null, 2)}\n`);
    writeFileSync(join(out, 'chaos.md'), md);
    log(md);
    if (decision.tenRules > RULE_COST_LIMIT_US) {
      log(`LIMIT NOT MET: 10 rules cost ${decision.tenRules} µs a request > ${RULE_COST_LIMIT_US} µs`);
      process.exitCode = 1;
    }
  } finally {
    load.close();
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
