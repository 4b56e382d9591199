/**
 * `npm run bench:journal` — the cost of the request journal (docs/journal.md), at default
 * settings, on two obsim processes from dist/ (file database, WAL) started alike but for
 * `--journal off`, pinned like `npm run bench` (servers on core 0, autocannon on core 1):
 *
 *   1. the bench's cases (GET onboarding-status, POST payments, POST transactions with 20 items)
 *      at 50 connections and at 1 connection, passes alternating the servers, each pass started
 *      once no server has background work left (the three share core 0, and the payments of one
 *      server's pass settle 5 s later, inside the next passes of the others): throughput and p99
 *      of journal on against off (limits: `throughputLimit`, p99 <= 1.3×), the server CPU per
 *      request of each and their difference, the journal's own cost (limit: <= 12 µs for a
 *      payment), and a second journal-off server measured alike (off against off: what the same
 *      ratios read when nothing differs, the resolution of this machine in this run);
 *   2. journal queries on a full journal (10,000 entries), each asked back to back on one
 *      connection by autocannon: p50/p99 of GET /_sandbox/requests with filters, including one
 *      that matches nothing (it walks the whole index), and of a verify (limit: p99 <= 10 ms for
 *      the list);
 *   3. RSS of the journal-on server sampled over a soak of mixed load (flat: the journal is in
 *      SQLite, its index of ~200 bytes an entry in the heap);
 *   4. the journal's own CPU per request measured in this process without HTTP
 *      (bench/journal-cost.ts; limit: <= 12 µs for a payment): the steadier figure on a noisy
 *      machine, where the difference of two servers' CPU under load swings by tens of µs.
 *
 *   options: --quick (one short pass), --no-build, --soak-seconds N (default 30)
 * Writes bench/results/journal.{json,md}.
 */
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call } from './lib/http.js';
import { LoadGenerator, type LoadJob, type LoadSummary } from './lib/load.js';
import { PARTNER_HEADERS, setupObsim, type ObsimFixture } from './lib/obsim.js';
import { cpuSeconds, freePort, machine, pinSelf, LOAD_CORE, rssMb, sleep, startServer, type Server } from './lib/proc.js';
import { median, rotation, round } from './lib/stats.js';
import { journalCost, journalCostTable } from './journal-cost.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const value = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const PASSES = quick ? 1 : 3;
/**
 * A read leaves no background work and a pass of it costs seconds: it gets twice the passes. With
 * three, GET status at one connection read 0.91–1.00× on / off between runs of one build, the
 * width of the limit it is held to (0.95×).
 */
const READ_PASSES = 2 * PASSES;
const DURATION_S = quick ? 1 : 3;
const SOAK_S = Number(value('soak-seconds') ?? (quick ? 6 : 30));
/** How long each journal query is asked back to back. */
const QUERY_S = quick ? 1 : 5;
const log = (line: string) => process.stdout.write(`${line}\n`);
const json = { 'content-type': 'application/json' };

/** `off2`: a second journal-off server, the control (its ratios to `off` should read 1×). */
type Variant = 'on' | 'off' | 'off2';
const VARIANTS: readonly Variant[] = ['on', 'off', 'off2'];

const dbPath = (tmp: string, variant: Variant) => join(tmp, `journal-${variant}.sqlite`);

async function obsim(tmp: string, variant: Variant): Promise<Server> {
  const port = await freePort();
  const db = dbPath(tmp, variant);
  const extra = variant === 'on' ? [] : ['--journal', 'off'];
  return (
    await startServer({
      name: `obsim-journal-${variant}`,
      argv: [process.execPath, join(ROOT, 'dist/src/bin.js'), 'serve', '--port', String(port), '--db', db, ...extra],
      env: { OBSIM_LOG_LEVEL: 'warn' },
      port,
      cwd: ROOT,
    })
  ).server;
}

interface CaseDef {
  id: string;
  label: string;
  job(fx: ObsimFixture): Omit<LoadJob, 'url' | 'connections' | 'durationS'> | null;
}

const CASES: CaseDef[] = [
  {
    id: 'onboarding',
    label: 'GET onboarding-status',
    job: (fx) => ({ method: 'GET', path: `/v1/partner/merchants/${fx.merchantId}/onboarding-status`, headers: PARTNER_HEADERS }),
  },
  {
    id: 'paymentstatus',
    label: 'GET payment status',
    job: (fx) =>
      fx.paymentId === undefined ? null : { method: 'GET', path: `/v1/partner/payments/${fx.paymentId}/status`, headers: PARTNER_HEADERS },
  },
  {
    id: 'payments',
    label: 'POST payments',
    job: (fx) => ({
      method: 'POST',
      path: '/v1/partner/payments',
      headers: { ...PARTNER_HEADERS, ...json },
      body: JSON.stringify({ merchantClientId: fx.merchantClientId, amount: 10, referenceNumber: 'bench-{{n}}' }),
      unique: true,
    }),
  },
  {
    id: 'transactions',
    label: 'POST transactions (20)',
    job: (fx) =>
      fx.small
        ? {
            method: 'POST',
            path: '/v1/ais/accounts/transactions',
            headers: { ...json, authorization: `Bearer ${fx.small.token}` },
            body: JSON.stringify({
              userId: fx.small.userId,
              merchantId: fx.small.merchantId,
              accountId: fx.small.accountId,
              pageLimit: 20,
            }),
          }
        : null,
  },
];

/**
 * Journal on against off, throughput (issue 33): creating payments >= 0.9× at any connection
 * count, the GETs at one connection >= 0.95×; every other case >= 0.85×.
 */
function throughputLimit(id: string, connections: number): number {
  if (id === 'payments') return 0.9;
  if ((id === 'onboarding' || id === 'paymentstatus') && connections === 1) return 0.95;
  return 0.85;
}
/** The journal's own CPU per payment created (on minus off), µs. */
const PAYMENT_JOURNAL_CPU_US = 12;

interface Measured {
  rps: number | null;
  p50: number | null;
  p99: number | null;
  /** Server CPU (user + system) per request answered, µs: the journal's cost without the machine's scheduling noise. */
  cpuUsPerRequest: number | null;
}
type Pass = LoadSummary & { cpuUsPerRequest: number | null };
const summarise = (passes: Pass[]): Measured => ({
  rps: round(median(passes.map((p) => p.rps)), 0),
  p50: round(median(passes.map((p) => p.p50 ?? 0)), 3),
  p99: round(median(passes.map((p) => p.p99 ?? 0)), 3),
  cpuUsPerRequest: passes.every((p) => p.cpuUsPerRequest !== null) ? round(median(passes.map((p) => p.cpuUsPerRequest!)), 0) : null,
});

/**
 * A journal query asked back to back on one keep-alive connection for `seconds` by the load
 * generator (autocannon on core 1, like the cases above), timed from its request's write to the
 * last byte of its answer by a client that parses nothing. Timed in this process instead, the
 * p99 was as much this process's pauses as the server's: 16.7 ms, where the server's own
 * onResponse times read 6.1 ms and autocannon 7.4 ms over the same journal (2026-11-27).
 */
async function timedQuery(
  load: LoadGenerator,
  job: Omit<LoadJob, 'connections' | 'durationS'>,
  seconds: number,
): Promise<{ p50: number | null; p99: number | null; count: number }> {
  const s = await load.run({ ...job, connections: 1, durationS: seconds });
  if (s.total === 0 || s.non2xx > 0 || s.errors > 0)
    throw new Error(`${job.path}: ${s.non2xx} not 2xx and ${s.errors} errors of ${s.total}`);
  return { p50: round(s.p50, 2), p99: round(s.p99, 2), count: s.total };
}

/**
 * Reads the servers' database files for background work: settlements due within the hour and
 * deliveries under way. A payments pass leaves thousands of settlements due 5 s later: measured
 * without waiting for them, they ran inside the other servers' next passes on the shared core
 * (the control read 1.34× on POST payments).
 */
function backgroundProbe(tmp: string) {
  const dbs = VARIANTS.map((v) => new Database(dbPath(tmp, v), { readonly: true, fileMustExist: true }));
  const probes = dbs.map((db) => {
    const due = db.prepare('SELECT count(*) FROM timers WHERE due_at <= ?').pluck();
    const delivering = db.prepare("SELECT count(*) FROM deliveries WHERE state IN ('pending', 'delivering')").pluck();
    return () => (due.get(Date.now() + 3_600_000) as number) + (delivering.get() as number);
  });
  return {
    /** Waits until no server has any; the seconds waited. */
    async quiet(): Promise<number> {
      const t0 = performance.now();
      while (probes.some((busy) => busy() > 0)) {
        if (performance.now() - t0 > 120_000) throw new Error('the servers still have background work after 120 s');
        await sleep(200);
      }
      return (performance.now() - t0) / 1000;
    },
    close: () => dbs.forEach((db) => db.close()),
  };
}

async function main(): Promise<void> {
  pinSelf(LOAD_CORE);
  if (!argv.includes('--no-build')) {
    const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('npm run build failed');
  }
  const tmp = mkdtempSync(join(tmpdir(), 'obsim-bench-journal-'));
  const load = new LoadGenerator();
  const servers: Record<Variant, Server> = { on: await obsim(tmp, 'on'), off: await obsim(tmp, 'off'), off2: await obsim(tmp, 'off2') };
  const fixtures = {} as Record<Variant, ObsimFixture>;
  const cases: ({ id: string; label: string; connections: number } & Record<Variant, Measured>)[] = [];
  const results: Record<string, unknown> = {};
  let background: ReturnType<typeof backgroundProbe> | undefined;
  try {
    for (const v of VARIANTS) fixtures[v] = await setupObsim(servers[v].url);
    background = backgroundProbe(tmp);
    results.rssStartMb = round(rssMb(servers.on.pid), 1);

    for (const connections of [50, 1]) {
      for (const def of CASES) {
        const jobs = {} as Record<Variant, LoadJob>;
        let skip = false;
        for (const v of VARIANTS) {
          const j = def.job(fixtures[v]);
          if (!j) skip = true;
          else jobs[v] = { ...j, url: servers[v].url, connections, durationS: DURATION_S };
        }
        if (skip) {
          log(`case ${def.id}: skipped (fixture missing)`);
          continue;
        }
        for (const v of VARIANTS) await load.run({ ...jobs[v], durationS: quick ? 0.5 : 1 });
        const passes: Record<Variant, Pass[]> = { on: [], off: [], off2: [] };
        let waitedS = 0;
        const passCount = jobs.on.method === 'GET' ? READ_PASSES : PASSES;
        for (let pass = 0; pass < passCount; pass++) {
          // each server goes first, second and third in turn
          for (const v of rotation(VARIANTS, pass)) {
            waitedS += await background.quiet();
            const cpu0 = cpuSeconds(servers[v].pid);
            const s = await load.run(jobs[v]);
            const cpu1 = cpuSeconds(servers[v].pid);
            const cpuUsPerRequest = cpu0 !== null && cpu1 !== null && s.total > 0 ? ((cpu1 - cpu0) * 1e6) / s.total : null;
            passes[v].push({ ...s, cpuUsPerRequest });
            log(
              `  ${def.id} c${connections} pass ${pass + 1} journal ${v.padEnd(4)} ${Math.round(s.rps)} req/s  p50 ${s.p50} ms  p99 ${s.p99} ms  CPU ${round(cpuUsPerRequest, 0)} µs/request`,
            );
          }
        }
        if (waitedS >= 1) log(`  ${def.id} c${connections}: ${Math.round(waitedS)} s waited for background work between passes`);
        cases.push({
          id: def.id,
          label: def.label,
          connections,
          on: summarise(passes.on),
          off: summarise(passes.off),
          off2: summarise(passes.off2),
        });
      }
    }

    // the journal of the default partner is now full (every request above was recorded)
    const url = servers.on.url;
    const list = (query: string) => call(url, 'GET', `/_sandbox/requests${query}`, undefined, PARTNER_HEADERS);
    const size = (await list('?limit=500')).body.items.length;
    let entries = 0;
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = await list(`?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
      entries += page.body.items.length;
      cursor = page.body.nextCursor;
    }
    results.journalEntries = entries;
    log(`journal: ${entries} entries (pages of ${size})`);
    const newestPage = await fetch(`${url}/_sandbox/requests?limit=50`, { headers: PARTNER_HEADERS });
    if (!newestPage.ok) throw new Error(`GET /_sandbox/requests?limit=50 -> ${newestPage.status}`);
    results.newestPageBytes = (await newestPage.arrayBuffer()).byteLength;
    const listQuery = (query: string) =>
      timedQuery(load, { url, method: 'GET', path: `/_sandbox/requests${query}`, headers: PARTNER_HEADERS }, QUERY_S);
    const queries = {
      newest: await listQuery('?limit=50'),
      filtered: await listQuery('?method=POST&status=200&pathPrefix=/v1/partner/payments&limit=50'),
      none: await listQuery('?code=no_such_code&limit=50'),
      verify: await timedQuery(
        load,
        {
          url,
          method: 'POST',
          path: '/_sandbox/requests/verify',
          headers: { ...PARTNER_HEADERS, ...json },
          body: JSON.stringify({ request: { method: 'POST', body: { referenceNumber: 'bench-1' } }, count: 1 }),
        },
        QUERY_S,
      ),
    };
    results.queries = queries;
    for (const [k, q] of Object.entries(queries)) log(`  query ${k}: ${q.count} answers, p50 ${q.p50} ms  p99 ${q.p99} ms`);

    // soak: mixed load on the journal-on server, RSS sampled
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(round(rssMb(servers.on.pid), 1) ?? 0), 1000);
    const half = Math.max(1, SOAK_S / 2);
    await load.run({ ...CASES[0].job(fixtures.on)!, url, connections: 50, durationS: half });
    await load.run({ ...CASES[1].job(fixtures.on)!, url, connections: 50, durationS: half });
    clearInterval(sampler);
    await sleep(500);
    results.soak = { seconds: SOAK_S, firstMb: samples[0], lastMb: samples[samples.length - 1], maxMb: Math.max(...samples), samples };
    results.inProcess = journalCost({ dist: join(ROOT, 'dist'), rounds: quick ? 2 : 5, entries: quick ? 10_000 : 30_000 });
  } finally {
    background?.close();
    load.close();
    for (const v of VARIANTS) await servers[v].stop();
    rmSync(tmp, { recursive: true, force: true });
  }

  const m = machine();
  const ratio = (a: number | null, b: number | null) => (a && b ? round(a / b, 2) : null);
  /** a - b with its sign (journal-on's extra CPU per request; negative inside the noise). */
  const signed = (a: number | null, b: number | null) => (a === null || b === null ? '–' : `${a - b >= 0 ? '+' : ''}${a - b}`);
  const rows = cases.map((c) => {
    const tp = ratio(c.on.rps, c.off.rps);
    const p99 = ratio(c.on.p99, c.off.p99);
    const min = throughputLimit(c.id, c.connections);
    const extraCpu = c.on.cpuUsPerRequest !== null && c.off.cpuUsPerRequest !== null ? c.on.cpuUsPerRequest - c.off.cpuUsPerRequest : null;
    const cpuVerdict =
      c.id === 'payments'
        ? ` (<= ${PAYMENT_JOURNAL_CPU_US}: ${extraCpu !== null && extraCpu <= PAYMENT_JOURNAL_CPU_US ? 'met' : 'short'})`
        : '';
    const verdict = (ok: boolean) => (ok ? 'met' : 'short');
    return `| ${c.label}, ${c.connections} conn. | ${c.on.rps} / ${c.off.rps} (${tp}×) | >= ${min}×: ${verdict(tp !== null && tp >= min)} | ${c.on.p50} / ${c.off.p50} ms | ${c.on.p99} / ${c.off.p99} ms (${p99}×) | ${verdict(p99 !== null && p99 <= 1.3)} | ${c.on.cpuUsPerRequest} / ${c.off.cpuUsPerRequest} µs | ${signed(c.on.cpuUsPerRequest, c.off.cpuUsPerRequest)} µs${cpuVerdict} | ${ratio(c.off2.rps, c.off.rps)}× / ${ratio(c.off2.p99, c.off.p99)}× |`;
  });
  const q = results.queries as Record<string, { p50: number | null; p99: number | null; count: number }>;
  const soak = results.soak as { seconds: number; firstMb: number; lastMb: number; maxMb: number };
  const inProcess = results.inProcess as Awaited<ReturnType<typeof journalCost>>;
  const paymentCost = inProcess.find((c) => c.label === 'POST payments')?.medianUs;
  const md = [
    `# obsim request journal benchmark — ${new Date().toISOString()}`,
    '',
    `Machine: ${m.nproc} cores, ${m.cpu}, Node ${m.node}; servers pinned to core 0, client to core 1 (taskset: ${m.taskset}). Command: \`npm run bench:journal${quick ? ' -- --quick' : ''}\`. Default settings, file database (WAL); medians of ${READ_PASSES} pass(es) of ${DURATION_S} s for the reads and ${PASSES} for the writes, alternating the servers, each started once no server had background work left (settlements due, deliveries). The control is a second journal-off server measured like the other two: its ratios to the first are what this run reads when nothing differs.`,
    '',
    "| case | req/s, journal on / off | req/s limit | p50 on / off | p99 on / off | p99 <= 1.3× | server CPU per request, on / off | the journal's CPU per request (on − off) | control: a second journal-off server / off, req/s / p99 |",
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Queries on a full journal (${String(results.journalEntries)} entries), each asked back to back for ${QUERY_S} s on one keep-alive connection by autocannon (core 1, like the cases above), timed to the last byte of the answer; the newest page was ${Math.round(Number(results.newestPageBytes) / 1024)} KB:`,
    '',
    '| query | answers | p50 | p99 | limit |',
    '|---|---|---|---|---|',
    `| newest 50 | ${q.newest.count} | ${q.newest.p50} ms | ${q.newest.p99} ms | p99 <= 10 ms |`,
    `| method + status + pathPrefix, 50 | ${q.filtered.count} | ${q.filtered.p50} ms | ${q.filtered.p99} ms | p99 <= 10 ms |`,
    `| a code nothing has (walks every entry) | ${q.none.count} | ${q.none.p50} ms | ${q.none.p99} ms | p99 <= 10 ms |`,
    `| verify with a body matcher (reads every entry) | ${q.verify.count} | ${q.verify.p50} ms | ${q.verify.p99} ms | — |`,
    '',
    `RSS of the journal-on server over ${soak.seconds} s of load after the cases: ${soak.firstMb} -> ${soak.lastMb} MB (max ${soak.maxMb} MB; ${String(results.rssStartMb)} MB before the cases).`,
    '',
    journalCostTable(inProcess, 'this build'),
    `The journal's own CPU per payment, in-process: ${paymentCost ?? '–'} µs (limit <= ${PAYMENT_JOURNAL_CPU_US} µs: ${paymentCost !== undefined && paymentCost <= PAYMENT_JOURNAL_CPU_US ? 'met' : 'short'}).`,
    '',
  ].join('\n');
  writeFileSync(
    join(ROOT, 'bench/results/journal.json'),
    `${JSON.stringify({ date: new Date().toISOString(), machine: m, cases, results }, null, 2)}\n`,
  );
  writeFileSync(join(ROOT, 'bench/results/journal.md'), md);
  log(md);
}

await main();
