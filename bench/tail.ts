/**
 * `npm run bench:tail` — where the one-connection tail goes (issue 51): obsim at default settings
 * (journal on, file database) with `node --trace-gc`, each case driven by one connection, one
 * request at a time, each timed on its own, for a few seconds. Then, per case: the p50 and p99,
 * how many collections ran and how long their pauses were, and how many of the slowest 1 % of
 * requests had a collection pause inside them (a pause's time from --trace-gc, on the server's
 * clock: the server prints `performance.now()`'s origin at start, so the two clocks align).
 *
 *   npm run bench:tail -- [--cases tx20,onboarding,payments] [--seconds 8]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Agent, request } from 'undici';
import { CASES } from './lib/cases.js';
import { setupObsim } from './lib/obsim.js';
import { freePort, LOAD_CORE, pinSelf, startServer } from './lib/proc.js';
import { round } from './lib/stats.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** One collection as --trace-gc prints it: `[pid:0x…]   1234 ms: Scavenge 4.7 (5.8) -> 4.3 (6.8) MB, pooled: 0 MB, 1.12 / 0.00 ms …`. */
const GC_LINE = /\]\s+(\d+)\s+ms:\s+([A-Za-z-]+(?: \(reduce\))?).*?,\s+([\d.]+)\s*\/\s*([\d.]+)\s*ms/;

async function main(): Promise<void> {
  const cases = option('cases', 'tx20,onboarding,payments').split(',');
  const seconds = Number(option('seconds', '8'));
  pinSelf(LOAD_CORE);
  const tmp = mkdtempSync(join(tmpdir(), 'obsim-tail-'));
  const port = await freePort();
  const { server } = await startServer({
    name: 'obsim',
    argv: [process.execPath, '--trace-gc', resolve('dist/src/bin.js'), 'serve', '--port', String(port), '--db', join(tmp, 'tail.sqlite')],
    env: { OBSIM_LOG_LEVEL: 'warn' },
    port,
  });
  // every line --trace-gc prints, with the wall instant it arrived (the server's ms since its start is in the line)
  const gcs: { atMs: number; kind: string; pauseMs: number }[] = [];
  let startWall: number | undefined;
  let pending = '';
  server.proc.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const m = GC_LINE.exec(line);
      if (!m) continue;
      // the first line tells the offset between the server's clock and ours (it arrived at most a moment after)
      startWall ??= Date.now() - Number(m[1]);
      gcs.push({ atMs: startWall + Number(m[1]), kind: m[2], pauseMs: Number(m[3]) });
    }
  });
  try {
    const fx = await setupObsim(server.url);
    const dispatcher = new Agent({ connections: 1, pipelining: 1 });
    for (const id of cases) {
      const job = CASES.find((c) => c.id === id)?.request('obsim', fx);
      if (!job) throw new Error(`unknown case ${id}`);
      const timed: { startMs: number; ms: number }[] = [];
      const gcBefore = gcs.length;
      const end = Date.now() + seconds * 1000;
      let n = 0;
      while (Date.now() < end) {
        const body = job.body?.replace(/\{\{n\}\}/g, String(n++));
        const startMs = Date.now();
        const t0 = performance.now();
        const res = await request(`${server.url}${job.path}`, { method: job.method as 'GET', headers: job.headers, body, dispatcher });
        await res.body.dump();
        timed.push({ startMs, ms: performance.now() - t0 });
      }
      const during = gcs.slice(gcBefore);
      const sorted = timed.map((x) => x.ms).sort((a, b) => a - b);
      const p99 = quantile(sorted, 0.99);
      const slow = timed.filter((x) => x.ms >= p99);
      // a pause inside a slow request: it began between the request's start and its end (±2 ms of clock alignment)
      const withPause = slow.filter((x) => during.some((g) => g.atMs >= x.startMs - 2 && g.atMs <= x.startMs + x.ms + 2)).length;
      const pauses = during.map((g) => g.pauseMs).sort((a, b) => a - b);
      const kinds = [...new Set(during.map((g) => g.kind))].map((k) => `${k} ${during.filter((g) => g.kind === k).length}`).join(', ');
      process.stdout.write(
        `${id}: ${timed.length} requests, p50 ${round(quantile(sorted, 0.5), 3)} ms, p99 ${round(p99, 3)} ms, max ${round(sorted.at(-1) ?? 0, 2)} ms\n` +
          `  collections: ${during.length} (${kinds || 'none'}), one per ${round(timed.length / Math.max(1, during.length), 0)} requests; pause p50 ${round(quantile(pauses, 0.5), 2)} ms, max ${round(pauses.at(-1) ?? 0, 2)} ms\n` +
          `  of the ${slow.length} requests at or above p99, ${withPause} had a collection begin inside them (${round((100 * withPause) / Math.max(1, slow.length), 0)} %)\n`,
      );
    }
    await dispatcher.close();
  } finally {
    await server.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
