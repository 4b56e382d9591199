/** One bench run's results, their shape and their Markdown table (the targets: targets.ts). */
import type { LoadSummary } from './load.js';
import { ratio } from './stats.js';
import type { BackgroundResult } from './background.js';
import type { GrowthResult } from './growth.js';
import type { LifecycleResult } from './lifecycle.js';
import type { WebhookResult } from './webhooks.js';

/** A case's median on one server. */
export const med = (r: Results, caseId: string, server: string) => r.cases.find((c) => c.id === caseId)?.servers[server]?.median;

export interface ServerRuns {
  passes: LoadSummary[];
  median: { rps: number | null; p50: number | null; p99: number | null };
  non2xx?: number;
  /** Median CPU the server used during the passes, in cores. */
  serverCores?: number;
}

export interface CaseResult {
  id: string;
  label: string;
  note?: string;
  /** 50 connections. */
  servers: Record<string, ServerRuns>;
  /** One connection. */
  c1?: Record<string, ServerRuns>;
}

export interface Target {
  id: string;
  label: string;
  value: number | null;
  unit: string;
  limit: string;
  pass: boolean | null;
  detail?: string;
  /** The issue that set the target. */
  issue?: number;
}

export interface Results {
  date: string;
  machine: { nproc: number; cpu: string; node: string; platform: string; taskset: boolean };
  command: string;
  options: Record<string, unknown>;
  fixture?: Record<string, unknown>;
  startup: Record<string, { runsMs: number[]; medianMs: number | null }>;
  rss: Record<string, number | null>;
  /** RSS of each server right after it started, before the first request. */
  rssAtStart?: Record<string, number | null>;
  /** RSS of each server a second after the warm-up (bench/lib/warmup.ts), as the outside harness reads it. */
  rssAfterWarmup?: Record<string, number | null>;
  cases: CaseResult[];
  soak?: {
    seconds: number;
    samples: { t: number; rssMb: number | null }[];
    firstThirdMb: number | null;
    lastThirdMb: number | null;
    growthPct: number | null;
    flat: boolean;
  };
  webhooks?: WebhookResult;
  lifecycle?: LifecycleResult;
  background?: BackgroundResult;
  growth?: GrowthResult;
  /** bench/results/sandboxes.json of the sandboxes bench run at the end. */
  sandboxes?: { results: Record<string, number | null> };
  profile?: {
    file: string;
    top: { name: string; where: string; selfMs: number; selfPct: number }[];
    byModule: { module: string; pct: number }[];
  };
  targets: Target[];
  notes: string[];
  elapsedS?: number;
}

const num = (x: number | null | undefined, digits = 0) =>
  x === null || x === undefined ? '–' : x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (p: boolean | null) => (p === null ? 'not measured' : p ? 'PASS' : 'short');

const SERVER_NAMES: Record<string, string> = {
  obsim: 'obsim, default settings (auth + validation + state; payments settle and are delivered)',
  obsim1h: 'obsim, --settle-delay 1h (diagnostic: nothing settles)',
  bare: 'bare Fastify, fixed JSON',
  sqlite: "the limit proxy: Fastify, obsim's route schemas, one better-sqlite3 read/insert",
  prism: 'Stoplight Prism (static examples)',
  mockoon: 'Mockoon CLI (OpenAPI import)',
};

export function renderMarkdown(r: Results): string {
  const out: string[] = [];
  out.push(`# obsim benchmark — ${r.date}`);
  out.push('');
  out.push(
    `Machine: ${r.machine.nproc} cores, ${r.machine.cpu}, Node ${r.machine.node} (${r.machine.platform}); ${r.machine.taskset ? 'server pinned to core 0, load generator to core 1 (taskset)' : 'no CPU pinning'}. Command: \`${r.command}\`. autocannon, 50 connections, ${r.options.passes} pass(es) of ${r.options.durationS} s per case and server (one connection: ${r.options.c1DurationS} s), each started once no server had background work left, medians.`,
  );
  out.push('');
  const main = ['onboarding', 'payments', 'tx20'];
  const servers = ['obsim', 'obsim1h', 'bare', 'sqlite', 'prism', 'mockoon'].filter(
    (s) => r.cases.some((c) => c.servers[s]) || r.startup[s],
  );
  out.push(
    '| server | GET onboarding-status | POST payments | POST transactions (20 items) | start to first 200 | RSS after the warm-up | RSS after load |',
  );
  out.push('|---|---|---|---|---|---|---|');
  for (const s of servers) {
    const cells = main.map((c) => {
      const m = med(r, c, s);
      return m ? `${num(m.rps)} req/s` : '–';
    });
    const start = r.startup[s]?.medianMs;
    out.push(
      `| ${SERVER_NAMES[s] ?? s} | ${cells.join(' | ')} | ${start ? `${num(start / 1000, 2)} s` : '–'} | ${r.rssAfterWarmup?.[s] ? `${num(r.rssAfterWarmup[s], 0)} MB` : '–'} | ${r.rss[s] ? `${num(r.rss[s], 0)} MB` : '–'} |`,
    );
  }
  out.push('');
  out.push('## Every case (medians of the passes)');
  out.push('');
  out.push(
    '| case | server | 50 conn. req/s | p50 ms | p99 ms | vs sqlite baseline | server CPU (cores) | 1 conn. p50 µs | 1 conn. p99 µs |',
  );
  out.push('|---|---|---|---|---|---|---|---|---|');
  for (const c of r.cases) {
    const base = c.servers.sqlite?.median.rps ?? (c.id === 'token' || c.id === 'aisread' ? med(r, 'onboarding', 'sqlite')?.rps : null);
    for (const [s, v] of Object.entries(c.servers)) {
      const rel = s === 'sqlite' ? '' : base ? `${num(ratio(v.median.rps, base), 2)}×` : '';
      const one = c.c1?.[s]?.median;
      const us = (ms: number | null | undefined) => (ms === null || ms === undefined ? '–' : num(ms * 1000));
      out.push(
        `| ${c.label} | ${s} | ${num(v.median.rps)} | ${num(v.median.p50, 2)} | ${num(v.median.p99, 2)} | ${rel}${v.non2xx ? ` (${v.non2xx} non-2xx!)` : ''} | ${num(v.serverCores, 2)} | ${us(one?.p50)} | ${us(one?.p99)} |`,
      );
    }
    if (c.note) out.push(`| ${c.label} | – | – | – | – | ${c.note} | | | |`);
  }
  const targetTable = (issue: number, title: string) => {
    out.push('');
    out.push(`## ${title}`);
    out.push('');
    out.push('| target | measured | limit | result |');
    out.push('|---|---|---|---|');
    for (const t of r.targets.filter((x) => x.issue === issue)) {
      out.push(
        `| ${t.label}${t.detail ? ` (${t.detail})` : ''} | ${t.value === null ? '–' : `${t.value}${t.unit}`} | ${t.limit} | ${verdict(t.pass)} |`,
      );
    }
  };
  targetTable(74, 'The core job side by side (issue 74; the lifecycle: ../shared/bench/lifecycle)');
  targetTable(17, 'Targets at default settings (issue 17)');
  const l = r.lifecycle;
  if (l) {
    out.push('');
    out.push('## Lifecycle throughput (defaults: settle 5 s after creation, one receiver for payment.completed)');
    out.push('');
    out.push(
      `POST payments at 50 connections for ${l.durationS} s: ${num(l.rps)} req/s (p50 ${num(l.p50, 2)} ms, p99 ${num(l.p99, 2)} ms), ${num(l.created)} payments. Over like-for-like windows (settlements shifted by the ${l.settleDelayS} s delay): created ${num(l.createdPerS)}/s, settled ${num(l.settledPerS)}/s (${l.settledRatio}×), delivered ${num(l.deliveredPerS)}/s (${l.deliveredRatio}×, ${num(l.signedOk)} signed ok). Backlog (due timers + pending deliveries): max ${num(l.maxBacklog)}, ${num(l.backlogAtEnd)} at the end of the load; everything settled and delivered ${l.drainS === null ? 'not within the wait' : `${l.drainS} s`} after the load stopped.`,
    );
    out.push('');
    out.push('| s | created | settled | delivered | due timers | pending deliveries |');
    out.push('|---|---|---|---|---|---|');
    for (const x of l.samples.filter((_, i) => i % 5 === 0 || i === l.samples.length - 1))
      out.push(
        `| ${x.t} | ${num(x.created)} | ${num(x.settled)} | ${num(x.delivered)} | ${num(x.dueTimers)} | ${num(x.pendingDeliveries)} |`,
      );
  }
  const b = r.background;
  if (b) {
    out.push('');
    out.push(`## Reads under background work (${num(b.backlog)} due settlements)`);
    out.push('');
    out.push('| read, one connection | quiet p50 µs | quiet p99 µs | during p50 µs | during p99 µs | p50 ratio |');
    out.push('|---|---|---|---|---|---|');
    for (const x of b.reads)
      out.push(
        `| ${x.label} | ${num((x.quiet.p50 ?? 0) * 1000)} | ${num((x.quiet.p99 ?? 0) * 1000)} | ${num((x.during.p50 ?? 0) * 1000)} | ${num((x.during.p99 ?? 0) * 1000)} | ${x.p50Ratio}× |`,
      );
    out.push('');
    out.push(
      `The advance fired ${num(b.fired)} settlements in ${b.advanceS} s; ${num(b.firedWhileMeasured)} had fired when the measured reads ended (${b.advanceStillRunning ? 'the advance was still running' : 'the advance had already finished: the "during" runs are partly quiet'}).`,
    );
  }
  const g = r.growth;
  if (g) {
    out.push('');
    out.push(`## Cost growth: ${num(g.small)} vs ${num(g.large)} payments (as many events and deliveries; ${num(g.merchants)} merchants)`);
    out.push('');
    out.push(`| query, one connection | p50 ms, ${num(g.small)} | p50 ms, ${num(g.large)} | ratio |`);
    out.push('|---|---|---|---|');
    for (const q of g.queries) out.push(`| ${q.label} | ${num(q.small, 3)} | ${num(q.large, 3)} | ${q.ratio}× |`);
  }
  targetTable(7, 'Targets of issue 7 (kept for comparison)');
  if (r.webhooks) {
    const w = r.webhooks;
    out.push('');
    out.push('## Webhooks');
    out.push('');
    out.push(
      `- ${w.events} payments settling at once (one clock advance): ${w.burst.delivered} deliveries received, ${w.burst.signedOk} with a valid X-Webhook-Signature, ${w.burst.distinctIds} distinct X-Webhook-Id; trigger-to-receipt median ${w.burst.medianMs} ms, p99 ${w.burst.p99Ms} ms, last ${w.burst.lastMs} ms (the advance call itself answered in ${w.burst.advanceCallMs} ms).`,
    );
    out.push(
      `- ${w.events} payments completed one by one at ${w.paced.ratePerS}/s: ${w.paced.delivered} received (${w.paced.signedOk} signed ok); trigger-to-receipt median ${w.paced.medianMs} ms, p99 ${w.paced.p99Ms} ms, max ${w.paced.maxMs} ms.`,
    );
    out.push(
      `- API (GET onboarding-status, open-loop probe at ${w.api.rate} req/s): p99 quiet ${num(w.api.quiet.p99, 2)} ms, during the at-once burst ${num(w.api.burst.p99, 2)} ms, during the paced events ${num(w.api.paced.p99, 2)} ms.`,
    );
  }
  if (r.soak) {
    out.push('');
    out.push(`## Soak: RSS over ${r.soak.seconds} s of mixed load`);
    out.push('');
    out.push(r.soak.samples.map((s) => `${s.t}s: ${s.rssMb} MB`).join(' · '));
  }
  if (r.notes.length) {
    out.push('');
    out.push('## Notes');
    out.push('');
    for (const n of r.notes) out.push(`- ${n}`);
  }
  out.push('');
  return out.join('\n');
}
