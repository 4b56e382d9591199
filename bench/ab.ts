/**
 * `npm run bench:ab -- <before/bin.js> <after/bin.js>` — two obsim builds side by side, for a
 * before/after figure from one run (the machine moves 20–30 % between runs; two servers measured
 * pass by pass minutes apart do not).
 *
 * Each argument is the `dist/src/bin.js` of a build, e.g. a copy of dist/ taken before a change,
 * kept inside the checkout so that its imports find node_modules (tmp/ is git-ignored):
 *
 *   cp -r dist tmp/before && <change> && npm run build && npm run bench:ab -- tmp/before/src/bin.js dist/src/bin.js
 *
 * An argument may carry flags for its server after the path, quoted as one argument, to compare
 * settings of one build: `npm run bench:ab -- dist/src/bin.js "dist/src/bin.js --journal off"`,
 * and environment variables before it: `"OTEL_EXPORTER_OTLP_ENDPOINT=@sink dist/src/bin.js"`,
 * where `@sink` is the address of an OTLP/HTTP sink this process serves (it answers every export
 * 200 and counts the bytes), to measure spans exported against not.
 *
 * Both servers start at default settings (but for such flags) on their own file database, pinned
 * to core 0 like `npm run bench` (autocannon on core 1), with the bench's fixture; every case then
 * runs at each connection count in alternating passes (A B, B A, …) and the medians of req/s,
 * p50, p99 and the server's CPU per request are printed per build.
 *
 *   options: --cases (any of `npm run bench`'s case ids, e.g. token,onboarding,payments,tx20,
 *            aisread, or journal: the journal's newest page; default token,onboarding)
 *            --connections 1,50 (default 1)  --passes N (default 6)  --seconds S (default 3)
 *            --starts N: first, N cold starts of each build, alternating (each on a new database),
 *            and the median time from spawn to the first /healthz 200 (default 0: none)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CASES as BENCH_CASES } from './lib/cases.js';
import { LoadGenerator, type LoadJob, type LoadSummary } from './lib/load.js';
import { PARTNER_HEADERS, setupObsim, type ObsimFixture } from './lib/obsim.js';
import { cpuSeconds, freePort, pinSelf, LOAD_CORE, startServer, type Server } from './lib/proc.js';
import { median, round } from './lib/stats.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const bins = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
type Request = Omit<LoadJob, 'url' | 'connections' | 'durationS'>;
/** `npm run bench`'s cases as obsim gets them (bench/lib/cases.ts), and a read of the journal's newest page. */
const CASE_IDS = [...BENCH_CASES.map((c) => c.id), 'journal'];
function requestOf(id: string, fx: ObsimFixture): Request | null {
  if (id === 'journal') return { method: 'GET', path: '/_sandbox/requests?limit=50', headers: PARTNER_HEADERS };
  return BENCH_CASES.find((c) => c.id === id)!.request('obsim', fx);
}

async function main(): Promise<void> {
  if (bins.length !== 2) throw new Error('usage: npm run bench:ab -- <before/bin.js> <after/bin.js> [options]');
  const cases = option('cases', 'token,onboarding').split(',');
  for (const c of cases) if (!CASE_IDS.includes(c)) throw new Error(`unknown case ${c} (known: ${CASE_IDS.join(', ')})`);
  const connections = option('connections', '1').split(',').map(Number);
  const passes = Number(option('passes', '6'));
  const seconds = Number(option('seconds', '3'));
  const starts = Number(option('starts', '0'));
  pinSelf(LOAD_CORE);
  const tmp = mkdtempSync(join(tmpdir(), 'obsim-ab-'));
  const servers: { bin: string; server: Server; fx: ObsimFixture }[] = [];
  let load: LoadGenerator | undefined;
  const sink = bins.some((b) => b.includes('@sink')) ? await startSink() : undefined;
  const start = async (i: number, db: string) => {
    const port = await freePort();
    const words = bins[i].trim().split(/\s+/);
    const env: Record<string, string> = { OBSIM_LOG_LEVEL: 'warn' };
    while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? '')) {
      const [name, ...value] = words.shift()!.split('=');
      env[name] = value.join('=').replace('@sink', sink?.url ?? '');
    }
    const [path, ...flags] = words;
    return startServer({
      name: `obsim-${i === 0 ? 'a' : 'b'}`,
      argv: [process.execPath, resolve(path), 'serve', '--port', String(port), '--db', join(tmp, db), ...flags],
      env,
      port,
    });
  };
  try {
    if (starts > 0) {
      const startMs: number[][] = [[], []];
      for (let n = 0; n < starts; n++) {
        for (const i of n % 2 === 0 ? [0, 1] : [1, 0]) {
          const { server, startMs: ms } = await start(i, `start-${i}-${n}.sqlite`);
          startMs[i].push(ms);
          await server.stop();
        }
      }
      const line = (i: number) =>
        `${bins[i]}: ${round(median(startMs[i]) ?? 0, 0)} ms (${startMs[i].map((ms) => round(ms, 0)).join(', ')})`;
      process.stdout.write(`start to the first /healthz 200 (${starts} cold starts each)\n  A ${line(0)}\n  B ${line(1)}\n`);
    }
    for (const [i, bin] of bins.entries()) {
      const { server } = await start(i, `${i}.sqlite`);
      servers.push({ bin, server, fx: await setupObsim(server.url) });
    }
    load = new LoadGenerator();
    for (const name of cases) {
      for (const c of connections) {
        const runs: LoadSummary[][] = servers.map(() => []);
        const cpuUs: number[][] = servers.map(() => []);
        for (let pass = 0; pass < passes; pass++) {
          const order = pass % 2 === 0 ? [0, 1] : [1, 0];
          for (const i of order) {
            const request = requestOf(name, servers[i].fx);
            if (!request) throw new Error(`case ${name}: the fixture has no account for it`);
            const cpuBefore = cpuSeconds(servers[i].server.pid);
            const run = await load.run({ ...request, url: servers[i].server.url, connections: c, durationS: seconds });
            const cpuAfter = cpuSeconds(servers[i].server.pid);
            runs[i].push(run);
            if (cpuBefore !== null && cpuAfter !== null && run.total > 0) cpuUs[i].push(((cpuAfter - cpuBefore) * 1e6) / run.total);
          }
        }
        const line = servers.map(({ bin }, i) => {
          const m = (f: (s: LoadSummary) => number | null) => median(runs[i].map(f)) ?? 0;
          return `${bin}: ${Math.round(m((s) => s.rps))} req/s, p50 ${round(m((s) => s.p50) * 1000, 0)} µs, p99 ${round(m((s) => s.p99) * 1000, 0)} µs, CPU ${round(median(cpuUs[i]) ?? 0, 0)} µs/req`;
        });
        process.stdout.write(`${name} c${c} (${passes} passes of ${seconds} s)\n  A ${line[0]}\n  B ${line[1]}\n`);
      }
    }
    if (sink) process.stdout.write(`the OTLP sink took ${sink.requests()} exports, ${Math.round(sink.bytes() / 1024)} KiB\n`);
  } finally {
    load?.close();
    for (const { server } of servers) await server.stop();
    sink?.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** An OTLP/HTTP endpoint that takes every export (200, `{}`) and counts them. */
async function startSink(): Promise<{ url: string; requests: () => number; bytes: () => number; close: () => void }> {
  let requests = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    bytes: () => bytes,
    close: () => server.close(),
  };
}

await main();
