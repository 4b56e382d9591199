/**
 * `npm run bench:sandboxes` — the limits of the sandboxes issue, on a real obsim from dist/
 * (file database, WAL, default settings), pinned like `npm run bench`:
 *
 *   1. creating a sandbox: p50 / p99 of sequential POST /_sandbox/sandboxes (the limit: 5 / 20 ms);
 *   2. 1,000 live sandboxes: RSS growth over the empty server (<= 50 MB), and GET
 *      onboarding-status throughput on one sandbox against the same on the default sandbox of an
 *      empty server (within 10 %);
 *   3. advancing one sandbox over 10,000 due settlements: another sandbox's request latency
 *      meanwhile (p99, and its max), against the same requests while idle;
 *   4. deleting a sandbox with 10,000 payments: the DELETE's time (<= 1 s), and another
 *      sandbox's request latency meanwhile.
 *
 *   options: --quick (fewer creates, shorter load), --no-build
 * Writes bench/results/sandboxes.{json,md}.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, ok } from './lib/http.js';
import { LoadGenerator } from './lib/load.js';
import { freePort, machine, pinSelf, LOAD_CORE, rssMb, sleep, startServer } from './lib/proc.js';
import { percentile, ratio, round } from './lib/stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const CREATES = quick ? 200 : 1000;
const LIVE = 1000;
const BURST = quick ? 2_000 : 10_000;
const LOAD_S = quick ? 2 : 3;
const THROUGHPUT_PASSES = quick ? 1 : 3;
const log = (line: string) => process.stdout.write(`${line}\n`);
const PARTNER = { 'x-partner-client-id': 'sandbox-partner', 'x-partner-client-secret': 'sandbox-secret' };

interface Created {
  sandboxId: string;
  credentials: { clientId: string; clientSecret: string };
  defaultMerchant: { merchantId: number; clientId: string };
}
const headersOf = (s: Created) => ({
  'x-partner-client-id': s.credentials.clientId,
  'x-partner-client-secret': s.credentials.clientSecret,
});

async function obsim(tmp: string, name: string) {
  const port = await freePort();
  const db = join(tmp, `${name}.sqlite`);
  return (
    await startServer({
      name,
      argv: [process.execPath, join(ROOT, 'dist/src/bin.js'), 'serve', '--port', String(port), '--db', db],
      env: { OBSIM_LOG_LEVEL: 'warn' },
      port,
      cwd: ROOT,
    })
  ).server;
}

/** Latencies (ms) of `fn` called back to back until `until()` says stop. */
async function probe(fn: () => Promise<unknown>, until: () => boolean, min = 20): Promise<number[]> {
  const times: number[] = [];
  while (!until() || times.length < min) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
    if (times.length > 100_000) break;
  }
  return times;
}

async function createPayments(url: string, s: Created, n: number): Promise<void> {
  const headers = headersOf(s);
  const batch = 50;
  for (let i = 0; i < n; i += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, n - i) }, (_, j) =>
        ok(
          url,
          'POST',
          '/v1/partner/payments',
          { merchantClientId: s.defaultMerchant.clientId, amount: 10, referenceNumber: `b${i + j}` },
          headers,
        ),
      ),
    );
  }
}

async function main(): Promise<void> {
  pinSelf(LOAD_CORE);
  if (!argv.includes('--no-build')) {
    const b = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
    if (b.status !== 0) throw new Error('npm run build failed');
  }
  const tmp = mkdtempSync(join(tmpdir(), 'obsim-bench-sandboxes-'));
  const load = new LoadGenerator();
  const results: Record<string, number | null> = {};
  try {
    // ---- baseline: an empty server, the default sandbox
    const empty = await obsim(tmp, 'empty');
    await sleep(500);
    results.rssEmptyMb = rssMb(empty.pid);
    const onboarding = (merchantId: number, headers: Record<string, string>, url: string) =>
      load.run({
        url,
        method: 'GET',
        path: `/v1/partner/merchants/${merchantId}/onboarding-status`,
        headers,
        connections: 50,
        durationS: LOAD_S,
      });
    await onboarding(100001, PARTNER, empty.url); // warm-up; measured below, alternating with the busy server

    // ---- 1. creation latency, then 1,000 live sandboxes
    const server = await obsim(tmp, 'many');
    await sleep(500);
    results.rssBeforeMb = rssMb(server.pid);
    const created: Created[] = [];
    const createTimes: number[] = [];
    for (let i = 0; i < Math.max(CREATES, LIVE); i++) {
      const t0 = performance.now();
      const res = await call<Created>(server.url, 'POST', '/_sandbox/sandboxes', { name: `bench-${i}` });
      createTimes.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`create ${i}: ${res.status} ${JSON.stringify(res.body)}`);
      created.push(res.body);
    }
    results.createP50Ms = round(percentile(createTimes, 50));
    results.createP99Ms = round(percentile(createTimes, 99));
    // from a persona of 10 activated merchants (built through the API, in-process)
    const persona = {
      name: 'ten',
      merchants: Array.from({ length: 10 }, (_, i) => ({ companyName: `Bench ${i} ApS`, state: 'activated' })),
    };
    const personaTimes: number[] = [];
    for (let i = 0; i < (quick ? 20 : 100); i++) {
      const t0 = performance.now();
      const res = await call<Created>(server.url, 'POST', '/_sandbox/sandboxes', { persona });
      personaTimes.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`persona create: ${res.status}`);
      await call(server.url, 'DELETE', `/_sandbox/sandboxes/${res.body.sandboxId}`);
    }
    results.personaCreateP50Ms = round(percentile(personaTimes, 50));
    // every sandbox used once (its world in memory, as a live sandbox has)
    for (const s of created.slice(0, LIVE)) await ok(server.url, 'GET', '/_sandbox/clock', undefined, headersOf(s));
    await sleep(500);
    results.rssAfterMb = rssMb(server.pid);
    results.rssGrowthMb = round((results.rssAfterMb ?? 0) - (results.rssBeforeMb ?? 0), 1);
    const one = created[LIVE - 1];
    await onboarding(one.defaultMerchant.merchantId, headersOf(one), server.url); // warm-up
    // THROUGHPUT_PASSES passes each, alternating the two servers (one pass each moved the ratio
    // between 0.88x and 1.34x from run to run on this machine), medians
    const singles: number[] = [];
    const manys: number[] = [];
    for (let pass = 0; pass < THROUGHPUT_PASSES; pass++) {
      singles.push((await onboarding(100001, PARTNER, empty.url)).rps);
      manys.push((await onboarding(one.defaultMerchant.merchantId, headersOf(one), server.url)).rps);
    }
    await empty.stop();
    results.singleSandboxRps = round(percentile(singles, 50), 0);
    results.oneOfManyRps = round(percentile(manys, 50), 0);
    results.throughputRatio = round(ratio(percentile(manys, 50), percentile(singles, 50)));

    // ---- 3. one sandbox advances over BURST due settlements; another is served meanwhile
    // a frozen clock: every settlement waits for the advance (a running one settles them in real time meanwhile)
    const busy = (await call<Created>(server.url, 'POST', '/_sandbox/sandboxes', { name: 'busy', clock: { frozen: true } })).body;
    const other = created[1];
    await createPayments(server.url, busy, BURST);
    const otherRead = () =>
      call(server.url, 'GET', `/v1/partner/merchants/${other.defaultMerchant.merchantId}/onboarding-status`, undefined, headersOf(other));
    const idle: number[] = [];
    for (let i = 0; i < 500; i++) {
      const t0 = performance.now();
      await otherRead();
      idle.push(performance.now() - t0);
    }
    let advancing = true;
    const t0 = performance.now();
    const advance = call(server.url, 'POST', '/_sandbox/clock/advance', { duration: '10s' }, headersOf(busy)).then((r) => {
      advancing = false;
      return r;
    });
    const during = await probe(otherRead, () => !advancing);
    const adv = await advance;
    results.advanceFired = adv.body.fired;
    results.advanceMs = round(performance.now() - t0, 0);
    results.idleP99Ms = round(percentile(idle, 99));
    results.duringAdvanceP99Ms = round(percentile(during, 99));
    results.duringAdvanceMaxMs = round(Math.max(...during));
    results.duringAdvanceRequests = during.length;

    // ---- 4. delete a sandbox with BURST payments; another is served meanwhile
    const doomed = created[2];
    await createPayments(server.url, doomed, BURST);
    let deleting = true;
    const d0 = performance.now();
    const del = call(server.url, 'DELETE', `/_sandbox/sandboxes/${doomed.sandboxId}`).then((r) => {
      deleting = false;
      return r;
    });
    const duringDelete = await probe(otherRead, () => !deleting, 1);
    const deleted = await del;
    results.deleteMs = round(performance.now() - d0, 0);
    results.deletedPayments = deleted.body.deleted?.payments ?? null;
    results.duringDeleteMaxMs = round(Math.max(...duringDelete));
    await server.stop();
  } finally {
    load.close();
    rmSync(tmp, { recursive: true, force: true });
  }

  const m = machine();
  const rows: [string, string, string][] = [
    ['create a sandbox, p50', `${results.createP50Ms} ms`, '<= 5 ms'],
    ['create a sandbox, p99', `${results.createP99Ms} ms`, '<= 20 ms'],
    ['create a sandbox from a persona of 10 merchants, p50', `${results.personaCreateP50Ms} ms`, '<= 20 ms'],
    [
      `RSS growth with ${LIVE} live sandboxes`,
      `${results.rssGrowthMb} MB (${round(results.rssBeforeMb, 1)} -> ${round(results.rssAfterMb, 1)} MB)`,
      '<= 50 MB',
    ],
    [
      `GET onboarding-status on one of ${LIVE} sandboxes vs the default sandbox of an empty server`,
      `${results.oneOfManyRps} vs ${results.singleSandboxRps} req/s (${results.throughputRatio}×)`,
      '>= 0.9×',
    ],
    [
      `another sandbox's GET while one advances over ${BURST} settlements (${results.advanceFired} fired in ${results.advanceMs} ms)`,
      `p99 ${results.duringAdvanceP99Ms} ms, max ${results.duringAdvanceMaxMs} ms over ${results.duringAdvanceRequests} requests (idle p99 ${results.idleP99Ms} ms)`,
      'p99 within the ~4 ms slice budget of idle',
    ],
    [
      `DELETE a sandbox with ${results.deletedPayments} payments`,
      `${results.deleteMs} ms; another sandbox's slowest request meanwhile ${results.duringDeleteMaxMs} ms`,
      '<= 1 s',
    ],
  ];
  const md = [
    `# obsim sandboxes benchmark — ${new Date().toISOString()}`,
    '',
    `Machine: ${m.nproc} cores, ${m.cpu}, Node ${m.node}; server pinned to core 0, client to core 1 (taskset: ${m.taskset}). Command: \`npm run bench:sandboxes${quick ? ' -- --quick' : ''}\`. Default settings, file database (WAL).`,
    '',
    '| measure | measured | limit |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
  ].join('\n');
  writeFileSync(
    join(ROOT, 'bench/results/sandboxes.json'),
    `${JSON.stringify({ date: new Date().toISOString(), machine: m, results }, null, 2)}\n`,
  );
  writeFileSync(join(ROOT, 'bench/results/sandboxes.md'), md);
  log(md);
}

await main();
