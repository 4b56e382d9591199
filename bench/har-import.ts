/**
 * `npm run bench:har-import` — the bound of a HAR import (docs/partner-tools.md, "A HAR becomes a
 * scenario"): a generated 50 MB HAR (2,150 stories of a merchant, a payment and three status polls
 * in another provider's layout, each with a 19 KB script asset a browser would record beside them)
 *
 *   1. imported in this process (what `obsim scenario import` does): wall time, CPU time, peak RSS;
 *   2. posted to POST /_sandbox/scenarios/import of an in-process obsim while GET /healthz is
 *      asked every 5 ms: the import's time, and the event loop's delay and /healthz's latency
 *      during it against the same loop idle (the serving thread only collects the bytes; the
 *      worker thread parses and translates).
 *
 *   options: --stories N (default 2150, 50 MB)
 * Writes bench/results/har-import.{json,md}. Times on a shared machine are noisy: CPU time is the
 * steadier figure.
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { lifecycleSettings } from '../src/domain/settings.js';
import { importHar } from '../src/har-import/import.js';

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

const text = generate(STORIES);
const bytes = Buffer.byteLength(text);
const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
console.log(`HAR: ${mb(bytes)} MB, ${STORIES * 6} entries`);

// 1. in this process, as the CLI does
const rssBefore = process.memoryUsage().rss;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const result = importHar(text, { settings: lifecycleSettings(defaultConfig()) });
const wallMs = Math.round(performance.now() - t0);
const cpu = process.cpuUsage(cpu0);
const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
const peakRss = process.resourceUsage().maxRSS * 1024;
console.log(
  `in process: ${wallMs} ms wall, ${cpuMs} ms CPU, peak RSS ${mb(peakRss)} MB (${mb(rssBefore)} MB before), ${result.summary.steps} steps, YAML ${mb(Buffer.byteLength(result.yaml))} MB`,
);

// 2. through the route, with the serving thread's responsiveness measured
const app = await buildApp({ logger: false, config: { ...defaultConfig(), db: ':memory:' } });
await app.ready();
const headers = {
  'x-partner-client-id': 'sandbox-partner',
  'x-partner-client-secret': 'sandbox-secret',
  'content-type': 'application/json',
};
async function probe(
  during: () => Promise<unknown>,
): Promise<{ delayP99: number; delayMax: number; healthMax: number; healthCount: number; ms: number }> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  const latencies: number[] = [];
  let done = false;
  h.enable();
  const prober = (async () => {
    while (!done) {
      const s = performance.now();
      await app.inject({ method: 'GET', url: '/healthz' });
      latencies.push(performance.now() - s);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const s = performance.now();
  await during();
  const ms = Math.round(performance.now() - s);
  done = true;
  await prober;
  h.disable();
  return {
    delayP99: Math.round(h.percentile(99) / 1e5) / 10,
    delayMax: Math.round(h.max / 1e5) / 10,
    healthMax: Math.round(Math.max(...latencies) * 10) / 10,
    healthCount: latencies.length,
    ms,
  };
}
const body = Buffer.from(text);
await app.inject({ method: 'POST', url: '/_sandbox/scenarios/import', headers, payload: body }); // the worker started once
const idle = await probe(() => new Promise((r) => setTimeout(r, 3_000)));
let status = 0;
const busy = await probe(async () => {
  status = (await app.inject({ method: 'POST', url: '/_sandbox/scenarios/import', headers, payload: body })).statusCode;
});
await app.close();
console.log(
  `route: ${status} in ${busy.ms} ms; event loop delay p99/max ${busy.delayP99}/${busy.delayMax} ms (idle ${idle.delayP99}/${idle.delayMax}); /healthz max ${busy.healthMax} ms over ${busy.healthCount} probes (idle ${idle.healthMax})`,
);

const out = {
  date: new Date().toISOString(),
  bytes,
  entries: STORIES * 6,
  inProcess: { wallMs, cpuMs, peakRssBytes: peakRss, steps: result.summary.steps },
  route: { status, ...busy },
  idle,
};
writeFileSync(new URL('./results/har-import.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
writeFileSync(
  new URL('./results/har-import.md', import.meta.url),
  `# HAR import, ${mb(bytes)} MB (${STORIES * 6} entries)\n\n| | figure |\n|---|---|\n| in process: wall / CPU | ${wallMs} ms / ${cpuMs} ms |\n| in process: peak RSS | ${mb(peakRss)} MB |\n| route: answered in | ${busy.ms} ms (${status}) |\n| route: event loop delay p99 / max during the import | ${busy.delayP99} / ${busy.delayMax} ms (idle ${idle.delayP99} / ${idle.delayMax}) |\n| route: GET /healthz max latency during the import | ${busy.healthMax} ms over ${busy.healthCount} probes (idle ${idle.healthMax}) |\n`,
);
