/**
 * `npm run bench:profile` — where a request's time goes. For each case (GET onboarding-status,
 * GET payment status, POST payments, and the payment lifecycle: payments created at 50
 * connections, settled 5 s later and delivered to a receiver, as `npm run bench`'s lifecycle
 * case) a fresh obsim at default settings (journal on) runs under `node --cpu-prof`, pinned like
 * `npm run bench`, and takes autocannon's 50 connections for a few seconds; the profile of that
 * run is then read two ways (the lifecycle's per payment: its request, settlement and delivery):
 *
 *   - per request, by what the time is spent on (authentication, the sandbox lookup, clock
 *     reads, request validation, SQLite, serialization, the journal, logging, Fastify and Node's
 *     HTTP), in µs of profiled CPU per answered request: the sampling profiler makes every
 *     figure about 2-3× larger than unprofiled, but the shares hold;
 *   - the top frames by self time.
 *
 * Writes bench/results/profile.{json,md}; docs/performance.md shows the markdown (bench/readme.ts).
 *   options: --seconds S (default 6), --connections N (default 50), --cases id,id (default all),
 *            --serve-args "…" (extra `obsim serve` arguments: "--journal off"), --out NAME
 *            (bench/results/NAME.{json,md}; default profile, the committed one), --keep DIR (copy
 *            each case's .cpuprofile there, to open in Chrome's DevTools or compare two runs)
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoadGenerator, type LoadJob } from './lib/load.js';
import { ok } from './lib/http.js';
import { lifecycleCase } from './lib/lifecycle.js';
import { aisAccounts, createMerchant, PARTNER_HEADERS, SMALL_USERS, type AisAccount } from './lib/obsim.js';
import { machine, pinSelf, LOAD_CORE } from './lib/proc.js';
import { topSelfTime } from './lib/profile.js';
import { build, log, opts, RESULTS, ROOT, startObsim, tmp, value } from './lib/run-setup.js';
import { round } from './lib/stats.js';
import { Receiver } from './lib/webhooks.js';

const SECONDS = Number(value('seconds') ?? 6);
const CONNECTIONS = Number(value('connections') ?? 50);
/** Extra `obsim serve` arguments (`--journal off` to profile without the journal). */
const SERVE_ARGS = value('serve-args')?.split(' ').filter(Boolean) ?? [];
const ONLY = value('cases')?.split(',');
/** Results go to bench/results/<out>.{json,md} (the committed ones are `profile`). */
const OUT = value('out') ?? 'profile';
/** Where to keep the raw profiles (none kept by default). */
const KEEP = value('keep');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/**
 * What a frame is spent on, judged from the innermost obsim or library frame on its stack (so
 * SQLite time inside a journal write counts as the journal, inside a route as SQLite).
 */
const CATEGORIES: [string, RegExp][] = [
  ['journal', /src\/(journal\/|plugins\/journal\.js)/],
  ['webhook delivery (undici, signing, the outbox)', /src\/webhooks\/|undici/],
  ['timers and settlement (scheduler, lifecycle rules)', /src\/engine\/(timers|scheduler|runtime|payments)|src\/domain\//],
  ['authentication', /src\/(partners\.js|plugins\/partner-auth\.js|auth\/)/],
  ['sandbox lookup', /src\/engine\/(index|world|sandboxes)\.js/],
  ['clock reads', /src\/clock\.js/],
  ['request validation', /compiled\/schemas\.cjs|plugins\/(validation|integer-params|header-guard|prefer)\.js|ajv/],
  ['SQLite (store)', /src\/store\/|better-sqlite3/],
  ['serialization', /fast-json-stringify|plugins\/serializers\.js|reply\.js:.*serialize/],
  ['logging', /pino|logger-factory/],
  ['route handler and views', /src\/routes\//],
  ['obsim plugins (request id, store commit, engine traffic)', /src\/plugins\//],
  ['Fastify and its router', /fastify\/lib|find-my-way|avvio/],
  ['Node HTTP and sockets', /node:_http|node:net|stream_base|node:internal\/streams|^writev|^writeGeneric/],
];

function categorize(file: string): { busyMs: number; byCategory: Record<string, number>; top: unknown[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const category = new Map<number, string>();
  const categoryOf = (id: number): string => {
    const known = category.get(id);
    if (known) return known;
    let found = 'other (GC, idle-adjacent, Node internals)';
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      const where = `${f.url.replace(`file://${ROOT}/`, '')}:${f.functionName}`;
      const hit = CATEGORIES.find(([, re]) => re.test(where) || re.test(f.functionName));
      if (hit) {
        found = hit[0];
        break;
      }
    }
    category.set(id, found);
    return found;
  };
  const byCategory: Record<string, number> = {};
  let busyUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i])!;
    if (node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)') continue;
    const us = profile.timeDeltas[i + 1] ?? 0;
    busyUs += us;
    const c = categoryOf(node.id);
    byCategory[c] = (byCategory[c] ?? 0) + us;
  }
  return { busyMs: busyUs / 1000, byCategory, top: topSelfTime(file, 12, ROOT).top };
}

interface Fixture {
  merchantId: number;
  merchantClientId: string;
  paymentId: number;
  /** For the transactions pages: a user with a year and more of history, its busiest account, a token. */
  ais?: AisAccount;
}

/** What the cases need and nothing more (the bench's AIS fixture would put 100,000 generated transactions into the profile). */
async function fixture(base: string, ais: boolean): Promise<Fixture> {
  const { merchantId, clientId } = await createMerchant(base);
  const body = { merchantClientId: clientId, amount: 125.5, referenceNumber: 'profile-status' };
  const payment = await ok<{ paymentId: number }>(base, 'POST', '/v1/partner/payments', body, PARTNER_HEADERS);
  const fx: Fixture = { merchantId, merchantClientId: clientId, paymentId: payment.paymentId };
  // user-1k: about a thousand transactions over three years (the account with the most)
  if (ais) fx.ais = (await aisAccounts(base, SMALL_USERS[0], merchantId)).sort((a, b) => b.total - a.total)[0];
  return fx;
}

const transactionsPage = (pageLimit: number) => (fx: Fixture) => ({
  method: 'POST' as const,
  path: '/v1/ais/accounts/transactions',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${fx.ais!.token}` },
  body: JSON.stringify({ userId: fx.ais!.userId, merchantId: fx.ais!.merchantId, accountId: fx.ais!.accountId, pageLimit }),
});

type LoadCase = { id: string; label: string; ais?: boolean; job: (fx: Fixture) => Omit<LoadJob, 'url' | 'connections' | 'durationS'> };
const CASES: LoadCase[] = [
  {
    id: 'onboarding',
    label: 'GET onboarding-status',
    job: (fx) => ({ method: 'GET', path: `/v1/partner/merchants/${fx.merchantId}/onboarding-status`, headers: PARTNER_HEADERS }),
  },
  {
    id: 'paymentstatus',
    label: 'GET payment status',
    job: (fx) => ({ method: 'GET', path: `/v1/partner/payments/${fx.paymentId}/status`, headers: PARTNER_HEADERS }),
  },
  {
    id: 'payments',
    label: 'POST payments',
    job: (fx) => ({
      method: 'POST',
      path: '/v1/partner/payments',
      headers: { ...PARTNER_HEADERS, 'content-type': 'application/json' },
      body: `{"merchantClientId":"${fx.merchantClientId}","amount":125.5,"referenceNumber":"bench-{{n}}"}`,
      unique: true,
    }),
  },
  { id: 'tx20', label: 'POST transactions, a page of 20', ais: true, job: transactionsPage(20) },
  { id: 'tx100', label: 'POST transactions, a page of 100', ais: true, job: transactionsPage(100) },
];

/** A load case: its warm-up and its measured run; what the profile is divided by. */
async function runLoad(c: LoadCase, base: string): Promise<{ requests: number; rps: number; answerBytes: number }> {
  const fx = await fixture(base, c.ais === true);
  const job = { ...c.job(fx), url: base, connections: CONNECTIONS };
  // one answer's size, for the cost per KB
  const one = await fetch(`${base}${job.path}`, { method: job.method, headers: job.headers, body: job.body?.replace('{{n}}', 'size') });
  const answerBytes = (await one.arrayBuffer()).byteLength;
  const warmup = await load.run({ ...job, durationS: 1 });
  const summary = await load.run({ ...job, durationS: SECONDS });
  // the profile covers the warm-up too (and the fixture's few calls): per request over both runs
  return { requests: warmup.total + summary.total, rps: summary.rps, answerBytes };
}

/** The lifecycle: per payment created, with its settlement and delivery (the case waits for both). */
async function runLifecycle(base: string, dbPath: string): Promise<{ requests: number; rps: number; answerBytes?: number }> {
  const receiver = new Receiver();
  const receiverUrl = await receiver.listen();
  try {
    const r = await lifecycleCase({ server: { url: base }, dbPath, load, receiver, receiverUrl, durationS: SECONDS + 5 });
    if (r.drainS === null) throw new Error('the lifecycle did not drain');
    return { requests: r.created, rps: r.rps };
  } finally {
    await receiver.close();
  }
}

const ALL = [
  ...CASES.map((c) => ({ id: c.id, label: c.label, run: (base: string) => runLoad(c, base) })),
  {
    id: 'lifecycle',
    label: 'Payment lifecycle (created at c50, settled 5 s later, delivered; per payment)',
    run: runLifecycle,
  },
];

if (opts.build) build();
pinSelf(LOAD_CORE);
const load = new LoadGenerator();
const results: Record<string, unknown> = { date: new Date().toISOString(), machine: machine(), seconds: SECONDS, cases: {} };
const md: string[] = [];
try {
  for (const c of ALL.filter((x) => !ONLY || ONLY.includes(x.id))) {
    const dir = join(tmp, `profile-${c.id}`);
    mkdirSync(dir, { recursive: true });
    const obsim = await startObsim(`obsim-profile-${c.id}`, join(tmp, `profile-${c.id}.sqlite`), SERVE_ARGS, [
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
    ]);
    const { requests, rps, answerBytes } = await c.run(obsim.server.url, join(tmp, `profile-${c.id}.sqlite`));
    await obsim.server.stop();
    const file = readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(dir, f))
      .sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
    const r = categorize(file);
    if (KEEP) {
      mkdirSync(KEEP, { recursive: true });
      copyFileSync(file, join(KEEP, `${OUT}-${c.id}.cpuprofile`));
    }
    const perRequest = Object.fromEntries(
      Object.entries(r.byCategory)
        .sort((a, b) => b[1] - a[1])
        .map(([k, us]) => [k, round(us / requests, 1)]),
    );
    const totalUs = round((r.busyMs * 1000) / requests, 1);
    (results.cases as Record<string, unknown>)[c.id] = {
      label: c.label,
      rps: round(rps, 0),
      requests,
      totalUs,
      ...(answerBytes ? { answerBytes } : {}),
      perRequest,
      top: r.top,
    };
    log(`${c.label}: ${round(rps, 0)} req/s under the profiler, ${totalUs} µs of profiled CPU per request`);
    const kb = answerBytes ? answerBytes / 1024 : undefined;
    md.push(
      `#### ${c.label} (c${CONNECTIONS}, ${round(rps, 0)} req/s under the profiler, ${totalUs} µs of profiled CPU per request${kb ? `, answers of ${round(kb, 1)} KB` : ''})`,
      '',
      `| spent on | µs per request (profiled) | share |${kb ? ' µs per KB of answer |' : ''}`,
      `|---|---|---|${kb ? '---|' : ''}`,
      ...Object.entries(perRequest).map(
        ([k, us]) => `| ${k} | ${us} | ${Math.round((100 * (us ?? 0)) / (totalUs ?? 1))} % |${kb ? ` ${round((us ?? 0) / kb, 1)} |` : ''}`,
      ),
      '',
      '| top frames by self time | where | share |',
      '|---|---|---|',
      ...(r.top as { name: string; where: string; selfPct: number }[]).map(
        (f) => `| \`${f.name}\` | ${f.where || '(native)'} | ${round(f.selfPct, 1)} % |`,
      ),
      '',
    );
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  load.close();
}
const m = machine();
const header = [
  `# obsim CPU profiles — ${String(results.date)}`,
  '',
  `Machine: ${m.nproc} cores, ${m.cpu}, Node ${m.node}; server pinned to core 0, autocannon to core 1. Command: \`npm run bench:profile\`. One obsim per case at default settings (journal on, file database), \`node --cpu-prof\`, 50 connections for ${SECONDS} s after a 1 s warm-up. Each sample is counted once, for the innermost part of obsim or a library on its stack; the profiler's own cost makes every µs figure 2–3× the unprofiled one (the shares are what to read).`,
  '',
];
writeFileSync(join(RESULTS, `${OUT}.md`), `${[...header, ...md].join('\n')}`);
writeFileSync(join(RESULTS, `${OUT}.json`), `${JSON.stringify(results, null, 2)}\n`);
log(`wrote bench/results/${OUT}.{json,md}`);
