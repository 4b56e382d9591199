/**
 * `npm run bench:har-import` — the bound of a HAR import (docs/partner-tools.md, "A HAR becomes a
 * scenario"): a generated 50 MB HAR (2,150 stories of a merchant, a payment and three status polls
 * in another provider's layout, each with a 19 KB script asset a browser would record beside them)
 *
 *   1. posted by curl to POST /_sandbox/scenarios/import of a listening obsim in this process
 *      while GET /healthz is asked every 5 ms: the import's time, and the serving thread's event
 *      loop delay and /healthz's latency during it against the same loop idle (the serving thread
 *      only collects the bytes; the worker thread parses and translates, below its priority);
 *   2. imported in a process of its own (what `obsim scenario import` does): wall time, CPU time,
 *      peak RSS.
 *
 *   options: --stories N (default 2150, 50 MB)
 * Writes bench/results/har-import.{json,md}. Times on a shared machine are noisy: CPU time is the
 * steadier figure.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { lifecycleSettings } from '../src/domain/settings.js';
import { importHar } from '../src/har-import/import.js';

if (process.argv.includes('--in-process')) {
  const raw = readFileSync(process.argv[process.argv.indexOf('--in-process') + 1]);
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = importHar(raw, { settings: lifecycleSettings(defaultConfig()) });
  const wallMs = Math.round(performance.now() - t0);
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(
    JSON.stringify({
      wallMs,
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      peakRss: process.resourceUsage().maxRSS * 1024,
      rssBefore,
      steps: result.summary.steps,
      yamlBytes: Buffer.byteLength(result.yaml),
    }),
  );
  process.exit(0);
}

const STORIES = Number(process.argv[process.argv.indexOf('--stories') + 1]) || 2_150;
const ASSET = `/* app bundle */ ${'function f(){return 42}'.repeat(800)}`;
const START = Date.parse('2026-03-02T10:00:00.000Z');

const header = (name: string, value: string) => ({ name, value });
function entry(at: number, method: string, url: string, status: number, answer: unknown, body?: unknown, mime = 'application/json') {
  const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
  return {
    startedDateTime: new Date(START + at).toISOString(),
    time: 40,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [
        header('X-Partner-Client-Id', 'bench-partner'),
        header('X-Partner-Client-Secret', 'bench-secret'),
        header('Content-Type', 'application/json'),
      ],
      queryString: [],
      ...(body !== undefined ? { postData: { mimeType: 'application/json', text: JSON.stringify(body) } } : {}),
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      content: { size: text.length, mimeType: mime, text },
      redirectURL: '',
      headersSize: -1,
      bodySize: text.length,
    },
    cache: {},
    timings: { send: 0, wait: 40, receive: 0 },
  };
}

function generate(stories: number): string {
  const api = 'https://sandbox-api.partnerbank.example/open/v1/partner';
  const entries: unknown[] = [];
  for (let k = 0; k < stories; k++) {
    const t = k * 20_000;
    const merchantId = 700_001 + k;
    const clientId = `5d0c${String(k).padStart(8, '0')}-7f1e-4c55-9a0e-3b0d9c1f2a7b`;
    const paymentId = 9_100_001 + k;
    const payment = (status: string) => ({
      paymentId,
      status,
      bankPaymentStatus: status === 'paid' ? 'AcceptedSettlementCompleted' : 'Pending',
      failureReason: null,
      amount: 49.5,
      currency: 'DKK',
      referenceNumber: `KB-${k}`,
      merchantClientId: clientId,
      paymentUrl: `https://hosted.double.test/checkout?session=sess${String(k).padStart(20, '0')}`,
      createdAt: new Date(START + t).toISOString(),
    });
    entries.push(entry(t, 'GET', `https://cdn.partnerbank.example/app.${k}.js`, 200, ASSET, undefined, 'application/javascript'));
    entries.push(
      entry(
        t + 100,
        'POST',
        `${api}/merchants/test`,
        200,
        { merchantId, clientId, companyName: `Shop ${k}`, status: 'activated' },
        { companyName: `Shop ${k}` },
      ),
    );
    entries.push(
      entry(t + 200, 'POST', `${api}/payments`, 200, payment('pending'), {
        merchantClientId: clientId,
        amount: 49.5,
        referenceNumber: `KB-${k}`,
      }),
    );
    entries.push(entry(t + 1_000, 'GET', `${api}/payments/${paymentId}/status`, 200, payment('pending')));
    entries.push(entry(t + 3_000, 'GET', `${api}/payments/${paymentId}/status`, 200, payment('pending')));
    entries.push(entry(t + 7_000, 'GET', `${api}/payments/${paymentId}/status`, 200, payment('paid')));
  }
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'bench', version: '1' }, entries } });
}

const dir = mkdtempSync(join(tmpdir(), 'obsim-bench-har-'));
const file = join(dir, 'bench.har');
writeFileSync(file, generate(STORIES));
const bytes = statSync(file).size;
const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
console.log(
  `HAR: ${mb(bytes)} MB, ${STORIES * 6} entries; machine load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

// 1. through the route of a listening obsim (a fresh heap), the HAR uploaded by curl from its own
//    process, while this process asks GET /healthz every 5 ms
const app = await buildApp({ logger: false, config: { ...defaultConfig(), db: ':memory:' } });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const upload = () =>
  new Promise<string>((resolve, reject) =>
    execFile(
      'curl',
      [
        '-s',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        '-H',
        'X-Partner-Client-Id: sandbox-partner',
        '-H',
        'X-Partner-Client-Secret: sandbox-secret',
        '-H',
        'Content-Type: application/json',
        '--data-binary',
        `@${file}`,
        `${base}/_sandbox/scenarios/import`,
      ],
      { maxBuffer: 1024 * 1024 },
      (err, stdout) => (err ? reject(new Error(err.message)) : resolve(stdout)),
    ),
  );
async function probe(during: () => Promise<unknown>): Promise<{
  delayP99: number;
  delayMax: number;
  healthP99: number;
  healthMax: number;
  healthCount: number;
  ms: number;
  servingCpuMs: number;
}> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  const latencies: number[] = [];
  let done = false;
  h.enable();
  const prober = (async () => {
    while (!done) {
      const s = performance.now();
      await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
      latencies.push(performance.now() - s);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const s = performance.now();
  const cpu0 = process.threadCpuUsage();
  await during();
  const cpu = process.threadCpuUsage(cpu0);
  const ms = Math.round(performance.now() - s);
  done = true;
  await prober;
  h.disable();
  latencies.sort((a, b) => a - b);
  const r1 = (n: number) => Math.round(n * 10) / 10;
  return {
    delayP99: r1(h.percentile(99) / 1e6),
    delayMax: r1(h.max / 1e6),
    healthP99: r1(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
    healthMax: r1(latencies.at(-1) ?? 0),
    healthCount: latencies.length,
    ms,
    servingCpuMs: Math.round((cpu.user + cpu.system) / 1000),
  };
}
await upload(); // the worker thread started once
const idle = await probe(() => new Promise((r) => setTimeout(r, 3_000)));
let status = '';
const busy = await probe(async () => {
  status = await upload();
});
// the serving thread's own cost of one import (collecting the bytes, handing them over, sending
// the YAML back), with no probes beside it
const alone0 = process.threadCpuUsage();
await upload();
const alone = process.threadCpuUsage(alone0);
const servingCpuAloneMs = Math.round((alone.user + alone.system) / 1000);
await app.close();
console.log(`route alone: the serving thread's CPU for one import ${servingCpuAloneMs} ms`);
console.log(
  `route: ${status} in ${busy.ms} ms; event loop delay p99/max ${busy.delayP99}/${busy.delayMax} ms (idle ${idle.delayP99}/${idle.delayMax}); /healthz p99/max ${busy.healthP99}/${busy.healthMax} ms over ${busy.healthCount} probes (idle ${idle.healthP99}/${idle.healthMax}); serving thread CPU ${busy.servingCpuMs} ms (idle, 3 s of probes: ${idle.servingCpuMs} ms)`,
);

// 2. in a process of its own (a fresh heap), as the CLI does
const child = await new Promise<string>((resolve, reject) =>
  execFile(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--in-process', file],
    { maxBuffer: 1024 * 1024 },
    (err, stdout) => (err ? reject(new Error(err.message)) : resolve(stdout)),
  ),
);
rmSync(dir, { recursive: true, force: true });
const { wallMs, cpuMs, peakRss, rssBefore, steps, yamlBytes } = JSON.parse(child) as Record<string, number>;
console.log(
  `in process: ${wallMs} ms wall, ${cpuMs} ms CPU, peak RSS ${mb(peakRss)} MB (${mb(rssBefore)} MB before), ${steps} steps, YAML ${mb(yamlBytes)} MB`,
);

const out = {
  date: new Date().toISOString(),
  load: loadavg(),
  bytes,
  entries: STORIES * 6,
  inProcess: { wallMs, cpuMs, peakRssBytes: peakRss, rssBeforeBytes: rssBefore, steps },
  route: { status, servingCpuAloneMs, ...busy },
  idle,
};
writeFileSync(new URL('./results/har-import.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
writeFileSync(
  new URL('./results/har-import.md', import.meta.url),
  `# HAR import, ${mb(bytes)} MB (${STORIES * 6} entries), load ${loadavg()[0].toFixed(1)}\n\n| | figure |\n|---|---|\n| in process (the CLI): wall / CPU | ${wallMs} ms / ${cpuMs} ms |\n| in process: peak RSS | ${mb(peakRss)} MB (${mb(rssBefore)} MB before) |\n| route (worker thread): answered in | ${busy.ms} ms (${status}) |\n| route: serving thread's event loop delay p99 / max during the import | ${busy.delayP99} / ${busy.delayMax} ms (idle ${idle.delayP99} / ${idle.delayMax}) |\n| route: GET /healthz p99 / max during the import | ${busy.healthP99} / ${busy.healthMax} ms over ${busy.healthCount} probes (idle ${idle.healthP99} / ${idle.healthMax}) |\n| route: the serving thread's CPU during the import | ${busy.servingCpuMs} ms (3 s idle with the probes: ${idle.servingCpuMs} ms) |\n| route: the serving thread's CPU for one import, no probes | ${servingCpuAloneMs} ms |\n`,
);
