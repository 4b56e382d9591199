/**
 * `npm run bench:recording` — the limits of record → scenario and of the HTML report
 * (docs/scenarios-and-cli.md "Recording a session"), obsim from dist/ at default settings (a file
 * database, the default journal bounds):
 *
 *   1. a sandbox whose journal holds 10,000 entries (its default cap: payments created, their
 *      status read, a webhook delivering): GET /_sandbox/scenario-draft, the whole journal, timed
 *      over HTTP five times (limit: <= 2 s each);
 *   2. `obsim scenario run --in-process <shipped suite> --report FILE.html`: the report's size
 *      (limit: <= 2 MB).
 *
 *   options: --quick (a journal of 2,000 entries), --no-build
 * Writes bench/results/recording.{json,md}.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ok } from './lib/http.js';
import { PARTNER_HEADERS } from './lib/obsim.js';
import { machine, serveDist, type Server } from './lib/proc.js';
import { buildDist, log, passOptions, ROOT } from './lib/passes.js';
import { median, round } from './lib/stats.js';

const { quick, build } = passOptions();
const ENTRIES = quick ? 2_000 : 10_000;
const RECORD_LIMIT_MS = 2_000;
const REPORT_LIMIT_BYTES = 2 * 1024 * 1024;
const CONCURRENCY = 16;

/** Fill the default sandbox's journal with `n` entries: half payments created, half their status read. */
async function fill(url: string, n: number): Promise<void> {
  const shop = await ok<{ clientId: string }>(url, 'POST', '/v1/partner/merchants/test', { companyName: 'Bench Shop' }, PARTNER_HEADERS);
  await ok(url, 'POST', '/v1/partner/webhooks', { url: 'http://127.0.0.1:9/bench', events: ['payment.completed'] }, PARTNER_HEADERS);
  let next = 2;
  const worker = async () => {
    while (next < n) {
      const i = (next += 2);
      const p = await ok<{ paymentId: number }>(
        url,
        'POST',
        '/v1/partner/payments',
        { merchantClientId: shop.clientId, amount: 10 + (i % 50), referenceNumber: `bench-${i}` },
        PARTNER_HEADERS,
      );
      await ok(url, 'GET', `/v1/partner/payments/${p.paymentId}/status`, undefined, PARTNER_HEADERS);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function recordTimes(url: string): Promise<{ ms: number[]; steps: number; entries: number; bytes: number }> {
  const ms: number[] = [];
  let last: { entries: number; yaml: string; steps: number } | undefined;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    last = await ok(url, 'GET', '/_sandbox/scenario-draft?format=json', undefined, PARTNER_HEADERS);
    ms.push(Math.round(performance.now() - t0));
  }
  return { ms, steps: last!.steps, entries: last!.entries, bytes: Buffer.byteLength(last!.yaml) };
}

function reportSize(dir: string): { bytes: number; ms: number; code: number | null } {
  const file = join(dir, 'report.html');
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['dist/src/bin.js', 'scenario', 'run', '--in-process', 'scenarios/', '--quiet', '--report', file], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { bytes: statSync(file).size, ms: Math.round(performance.now() - t0), code: r.status };
}

buildDist(build);
const tmp = mkdtempSync(join(tmpdir(), 'obsim-bench-recording-'));
let server: Server | undefined;
try {
  server = await serveDist('obsim-recording', join(tmp, 'obsim.sqlite'));
  const t0 = performance.now();
  await fill(server.url, ENTRIES);
  log(`journal filled with ${ENTRIES} requests in ${round((performance.now() - t0) / 1000, 1)} s`);
  const record = await recordTimes(server.url);
  log(
    `record: ${record.ms.join(', ')} ms (${record.entries} entries → ${record.steps} steps, ${round(record.bytes / 1024, 0)} KiB of YAML)`,
  );
  await server.stop();
  server = undefined;
  const report = reportSize(tmp);
  log(`HTML report of the shipped suite: ${round(report.bytes / 1024, 0)} KiB (run ${report.ms} ms, exit ${report.code})`);

  const recordMedian = median(record.ms)!;
  const m = machine();
  const md = `# bench:recording

Record-to-scenario cost (bench/recording.ts): ${m.nproc} cores, ${m.cpu}, Node ${m.node}; obsim from dist/, file database, default settings; the same journal recorded five times over HTTP, the first by a fresh server (nothing compiled or warmed yet).

| What | Figure | Limit |
|---|---|---|
| GET /_sandbox/scenario-draft of a ${record.entries}-entry journal (${record.steps} steps) | median ${recordMedian} ms, max ${Math.max(...record.ms)} ms of ${record.ms.length} | ≤ ${RECORD_LIMIT_MS} ms |
| HTML report of the shipped suite | ${round(report.bytes / 1024, 0)} KiB | ≤ ${REPORT_LIMIT_BYTES / 1024} KiB |
`;
  const out = join(ROOT, 'bench/results');
  writeFileSync(join(out, 'recording.json'), `${JSON.stringify({ machine: m, entries: ENTRIES, record, report }, null, 2)}\n`);
  writeFileSync(join(out, 'recording.md'), md);
  log(md);
  if (Math.max(...record.ms) > RECORD_LIMIT_MS) log(`LIMIT NOT MET: a recording took ${Math.max(...record.ms)} ms > ${RECORD_LIMIT_MS} ms`);
  if (report.bytes > REPORT_LIMIT_BYTES) log(`LIMIT NOT MET: the report is ${report.bytes} bytes > ${REPORT_LIMIT_BYTES}`);
} finally {
  await server?.stop();
  rmSync(tmp, { recursive: true, force: true });
}
