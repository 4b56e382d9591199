/**
 * `npm run bench:runtimes -- <label>=<node>:<bin.js> …` — `obsim serve` on several Node binaries
 * (and builds) side by side: the median time from spawn to the first /healthz 200, and the RSS
 * once started and after two idle seconds, from one run (the machine moves 20–30 % between runs).
 *
 *   npm run bench:runtimes -- "node20=/usr/bin/node:tmp/c10114c/dist/src/bin.js" \
 *     "node22=$NODE22/bin/node:dist/src/bin.js" "node24=$NODE24/bin/node:dist/src/bin.js"
 *
 * A build for an older Node (one obsim no longer runs on) is a checkout of that commit built with
 * that Node, kept inside this checkout so its imports find a node_modules (tmp/ is git-ignored).
 * Starts alternate between the servers (A B C, C B A, …), each on a new file database, pinned to
 * core 0 like `npm run bench`; the first start of each fills Node's compile cache (in a folder of
 * this run's, as the image's is filled at build time) and is not counted, as users start warm.
 *
 *   options: --starts N (default 10)
 *
 * Writes bench/results/runtimes.md (docs/performance.md shows it: npx tsx bench/readme.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, machine, rssMb, sleep, startServer } from './lib/proc.js';
import { median, round } from './lib/stats.js';

const RESULTS = join(dirname(fileURLToPath(import.meta.url)), 'results');
const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const targets = argv
  .filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'))
  .map((spec) => {
    const m = /^([^=]+)=([^:]+):(.+)$/.exec(spec);
    if (!m) throw new Error(`"${spec}": expected label=node:bin.js`);
    return { label: m[1], node: m[2], bin: resolve(m[3]) };
  });

async function main(): Promise<void> {
  if (targets.length < 1) throw new Error('usage: npm run bench:runtimes -- label=node:bin.js [label=node:bin.js …] [--starts N]');
  const starts = Number(option('starts', '10'));
  const tmp = mkdtempSync(join(tmpdir(), 'obsim-runtimes-'));
  const results = targets.map(() => ({ startMs: [] as number[], rssStartMb: [] as number[], rssIdleMb: [] as number[], version: '' }));
  try {
    for (let n = 0; n <= starts; n++) {
      const order = n % 2 === 0 ? targets.map((_, i) => i) : targets.map((_, i) => targets.length - 1 - i);
      for (const i of order) {
        const { node, bin, label } = targets[i];
        const port = await freePort();
        const { server, startMs } = await startServer({
          name: label,
          argv: [node, bin, 'serve', '--port', String(port), '--db', join(tmp, `${label}-${n}.sqlite`)],
          env: { OBSIM_LOG_LEVEL: 'warn', NODE_COMPILE_CACHE: join(tmp, `compile-cache-${label}`) },
          port,
        });
        if (n > 0) {
          results[i].startMs.push(startMs);
          results[i].rssStartMb.push(rssMb(server.pid) ?? 0);
          await sleep(2000);
          results[i].rssIdleMb.push(rssMb(server.pid) ?? 0);
        }
        await server.stop();
      }
    }
    for (const [i, t] of targets.entries()) {
      results[i].version = spawnSync(t.node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const m = machine();
  const base = median(results[0].startMs) ?? 1;
  const rows = targets.map((t, i) => {
    const r = results[i];
    const ratio = i === 0 ? '' : ` (${round((median(r.startMs) ?? 0) / base, 2)}× ${targets[0].label})`;
    return `| ${t.label} | ${r.version} | ${round(median(r.startMs), 0)} ms${ratio} | ${round(median(r.rssStartMb), 1)} MB | ${round(median(r.rssIdleMb), 1)} MB |`;
  });
  const report = [
    `# obsim serve on each Node line — ${new Date().toISOString()}`,
    '',
    `Machine: ${m.nproc} cores, ${m.cpu}. Command: \`npm run bench:runtimes -- ${argv.join(' ')}\`. ${starts} warm starts of each, alternating, each on a new file database, pinned to core 0; default settings.`,
    '',
    '| runtime | Node | start to the first /healthz 200 (median) | RSS once started | RSS after 2 s idle |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  process.stdout.write(report);
  writeFileSync(join(RESULTS, 'runtimes.md'), report);
}

await main();
