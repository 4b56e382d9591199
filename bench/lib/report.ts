/** Targets of issue 7 evaluated on one run's results, and the Markdown table. */
import type { LoadSummary } from './load.js';
import { ratio, round } from './stats.js';
import type { WebhookResult } from './webhooks.js';

export interface CaseResult {
  id: string;
  label: string;
  note?: string;
  servers: Record<
    string,
    { passes: LoadSummary[]; median: { rps: number | null; p50: number | null; p99: number | null }; non2xx?: number }
  >;
}

export interface Target {
  id: string;
  label: string;
  value: number | null;
  unit: string;
  limit: string;
  pass: boolean | null;
  detail?: string;
}

export interface Results {
  date: string;
  machine: { nproc: number; cpu: string; node: string; platform: string; taskset: boolean };
  command: string;
  options: Record<string, unknown>;
  fixture?: Record<string, unknown>;
  startup: Record<string, { runsMs: number[]; medianMs: number | null }>;
  rss: Record<string, number | null>;
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
  profile?: {
    file: string;
    top: { name: string; where: string; selfMs: number; selfPct: number }[];
    byModule: { module: string; pct: number }[];
  };
  targets: Target[];
  notes: string[];
  elapsedS?: number;
}

const med = (r: Results, caseId: string, server: string) => r.cases.find((c) => c.id === caseId)?.servers[server]?.median;

function atLeast(id: string, label: string, value: number | null, min: number, unit: string, detail?: string): Target {
  return { id, label, value: round(value, 2), unit, limit: `>= ${min}${unit}`, pass: value === null ? null : value >= min, detail };
}
function atMost(id: string, label: string, value: number | null, max: number, unit: string, detail?: string): Target {
  return { id, label, value: round(value, 2), unit, limit: `<= ${max}${unit}`, pass: value === null ? null : value <= max, detail };
}

export function evaluateTargets(r: Results): Target[] {
  const t: Target[] = [];
  const rps = (c: string, s: string) => med(r, c, s)?.rps ?? null;
  const p50 = (c: string, s: string) => med(r, c, s)?.p50 ?? null;
  const p99 = (c: string, s: string) => med(r, c, s)?.p99 ?? null;
  const readBase = rps('onboarding', 'sqlite');

  t.push(
    atLeast(
      'onboarding-vs-read',
      'GET onboarding-status vs Fastify + one SQLite read',
      ratio(rps('onboarding', 'obsim'), readBase),
      0.5,
      '×',
    ),
  );
  t.push(
    atLeast(
      'payments-vs-insert',
      'POST payments vs Fastify + one SQLite insert',
      ratio(rps('payments', 'obsim'), rps('payments', 'sqlite')),
      0.55,
      '×',
    ),
  );
  t.push(
    atLeast(
      'tx20-vs-read',
      'POST transactions (20 items, 100k account) vs Fastify + one SQLite read',
      ratio(rps('tx20', 'obsim'), rps('tx20', 'sqlite')),
      0.6,
      '×',
    ),
  );
  const small = (r.fixture?.smallAccount as { transactions?: number } | null | undefined)?.transactions;
  for (const n of [20, 200]) {
    t.push(
      atMost(
        `tx${n}-account-size`,
        `POST transactions (${n} items): p50 latency on the 100k account / on the small account`,
        ratio(p50(`tx${n}`, 'obsim'), p50(`tx${n}small`, 'obsim')),
        1.3,
        '×',
        small ? `small account: ${small} transactions` : undefined,
      ),
    );
  }
  t.push(atLeast('token-vs-read', 'POST generate-token vs the read baseline', ratio(rps('token', 'obsim'), readBase), 0.4, '×'));
  t.push(
    atLeast(
      'aisread-vs-read',
      'Authorized AIS read (balance: JWT + consent) vs the read baseline',
      ratio(rps('aisread', 'obsim'), readBase),
      0.4,
      '×',
    ),
  );
  // absolute latency limits depend on the machine: show what the baselines reached in the same run
  const floor = (c: string) => {
    const parts = [
      ['bare Fastify', p99(c, 'bare')],
      ['Fastify + SQLite', p99(c, 'sqlite')],
    ].filter(([, v]) => v !== null);
    return parts.length ? `same run: ${parts.map(([n, v]) => `${n} ${round(v as number)} ms`).join(', ')}` : undefined;
  };
  t.push(atMost('p99-get', 'p99 GET onboarding-status at 50 connections', p99('onboarding', 'obsim'), 10, ' ms', floor('onboarding')));
  t.push(atMost('p99-payments', 'p99 POST payments at 50 connections', p99('payments', 'obsim'), 20, ' ms', floor('payments')));
  t.push(atMost('p99-tx20', 'p99 POST transactions (20 items) at 50 connections', p99('tx20', 'obsim'), 20, ' ms', floor('tx20')));
  t.push(atMost('p99-tx200', 'p99 POST transactions (200 items) at 50 connections', p99('tx200', 'obsim'), 20, ' ms', floor('tx200')));
  t.push(
    atMost('startup', 'Start to first /healthz 200 vs bare Fastify', ratio(r.startup.obsim?.medianMs, r.startup.bare?.medianMs), 1.5, '×'),
  );
  if (r.startup.prism)
    t.push(
      atMost(
        'startup-vs-prism',
        'Start to first /healthz 200 vs Prism',
        ratio(r.startup.obsim?.medianMs, r.startup.prism.medianMs),
        0.5,
        '×',
      ),
    );
  t.push(atMost('rss', 'RSS after warm-up vs bare Fastify', ratio(r.rss.obsim, r.rss.bare), 1.3, '×'));
  t.push(
    r.soak
      ? atMost('soak', `RSS growth over a ${r.soak.seconds} s soak (median of last third vs first third)`, r.soak.growthPct, 10, ' %')
      : { id: 'soak', label: 'RSS flat under a 60 s soak', value: null, unit: '', limit: 'run with --soak', pass: null },
  );
  if (r.cases.some((c) => c.servers.prism))
    t.push(atLeast('vs-prism', 'GET onboarding-status vs Prism', ratio(rps('onboarding', 'obsim'), rps('onboarding', 'prism')), 3, '×'));
  if (r.cases.some((c) => c.servers.mockoon))
    t.push(
      atLeast('vs-mockoon', 'GET onboarding-status vs Mockoon', ratio(rps('onboarding', 'obsim'), rps('onboarding', 'mockoon')), 20, '×'),
    );
  const w = r.webhooks;
  t.push(
    w
      ? {
          id: 'webhooks-delivered',
          label: `${w.events} payments settling at once -> signed deliveries`,
          value: w.burst.signedOk,
          unit: '',
          limit: `= ${w.events}`,
          pass: w.burst.signedOk === w.events && w.burst.distinctIds === w.events,
        }
      : {
          id: 'webhooks-delivered',
          label: 'payments settling at once -> signed deliveries',
          value: null,
          unit: '',
          limit: '= 1000',
          pass: null,
        },
  );
  t.push(
    atMost('webhooks-median', `Trigger-to-receipt median at ${w?.paced.ratePerS ?? 200} events/s`, w?.paced.medianMs ?? null, 20, ' ms'),
  );
  t.push(atMost('webhooks-p99', `Trigger-to-receipt p99 at ${w?.paced.ratePerS ?? 200} events/s`, w?.paced.p99Ms ?? null, 100, ' ms'));
  t.push(
    atMost(
      'webhooks-api-p99',
      `API p99 during the burst vs quiet (GET onboarding-status at ${w?.api.rate ?? '-'} req/s)`,
      w ? ratio(Math.max(w.api.burst.p99 ?? 0, w.api.paced.p99 ?? 0), w.api.quiet.p99) : null,
      1.5,
      '×',
      w ? `quiet ${round(w.api.quiet.p99)} ms, at-once burst ${round(w.api.burst.p99)} ms, paced ${round(w.api.paced.p99)} ms` : undefined,
    ),
  );
  return t;
}

const num = (x: number | null | undefined, digits = 0) =>
  x === null || x === undefined ? '–' : x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (p: boolean | null) => (p === null ? 'not measured' : p ? 'PASS' : 'short');

const SERVER_NAMES: Record<string, string> = {
  obsim: 'obsim (auth + validation + state)',
  bare: 'bare Fastify, fixed JSON',
  sqlite: 'Fastify + one better-sqlite3 read/insert',
  prism: 'Stoplight Prism (static examples)',
  mockoon: 'Mockoon CLI (OpenAPI import)',
};

export function renderMarkdown(r: Results): string {
  const out: string[] = [];
  out.push(`# obsim benchmark — ${r.date}`);
  out.push('');
  out.push(
    `Machine: ${r.machine.nproc} cores, ${r.machine.cpu}, Node ${r.machine.node} (${r.machine.platform}); ${r.machine.taskset ? 'server pinned to core 0, load generator to core 1 (taskset)' : 'no CPU pinning'}. Command: \`${r.command}\`. autocannon, 50 connections, ${r.options.passes} pass(es) of ${r.options.durationS} s per case and server, medians.`,
  );
  out.push('');
  const main = ['onboarding', 'payments', 'tx20'];
  const servers = ['obsim', 'bare', 'sqlite', 'prism', 'mockoon'].filter((s) => r.cases.some((c) => c.servers[s]) || r.startup[s]);
  out.push('| server | GET onboarding-status | POST payments | POST transactions (20 items) | start to first 200 | RSS after load |');
  out.push('|---|---|---|---|---|---|');
  for (const s of servers) {
    const cells = main.map((c) => {
      const m = med(r, c, s);
      return m ? `${num(m.rps)} req/s` : '–';
    });
    const start = r.startup[s]?.medianMs;
    out.push(
      `| ${SERVER_NAMES[s] ?? s} | ${cells.join(' | ')} | ${start ? `${num(start / 1000, 2)} s` : '–'} | ${r.rss[s] ? `${num(r.rss[s], 0)} MB` : '–'} |`,
    );
  }
  out.push('');
  out.push('## Every case (medians of the passes)');
  out.push('');
  out.push('| case | server | req/s | p50 ms | p99 ms | vs sqlite baseline |');
  out.push('|---|---|---|---|---|---|');
  for (const c of r.cases) {
    const base = c.servers.sqlite?.median.rps ?? (c.id === 'token' || c.id === 'aisread' ? med(r, 'onboarding', 'sqlite')?.rps : null);
    for (const [s, v] of Object.entries(c.servers)) {
      const rel = s === 'sqlite' ? '' : base ? `${num(ratio(v.median.rps, base), 2)}×` : '';
      out.push(
        `| ${c.label} | ${s} | ${num(v.median.rps)} | ${num(v.median.p50, 2)} | ${num(v.median.p99, 2)} | ${rel}${v.non2xx ? ` (${v.non2xx} non-2xx!)` : ''} |`,
      );
    }
    if (c.note) out.push(`| ${c.label} | – | – | – | – | ${c.note} |`);
  }
  out.push('');
  out.push('## Targets (issue 7)');
  out.push('');
  out.push('| target | measured | limit | result |');
  out.push('|---|---|---|---|');
  for (const t of r.targets) {
    out.push(
      `| ${t.label}${t.detail ? ` (${t.detail})` : ''} | ${t.value === null ? '–' : `${t.value}${t.unit}`} | ${t.limit} | ${verdict(t.pass)} |`,
    );
  }
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
