/**
 * `npm run bench`'s start-up figures: time from spawning a cold process to its first /healthz 200,
 * alternating obsim (a fresh database: migrations, seed, validators and serializers loaded), bare
 * Fastify, the limit proxy (on a database seeded before its first timed start, as the outside
 * harness seeds its own) and the anchors; beside them, the time a Node takes to only import the
 * modules `obsim serve` loads and exit (the floor of obsim's start).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnchorSpec } from './anchors.js';
import { pinned, SERVER_CORE } from './proc.js';
import type { Results } from './report.js';
import { opts, ROOT, startBaseline, startObsim, tmp } from './run-setup.js';
import { median, round } from './stats.js';

export async function measureStartup(anchors: AnchorSpec[]): Promise<Results['startup']> {
  const runs: Record<string, number[]> = { obsim: [], bare: [], sqlite: [], obsimImport: [] };
  for (const a of anchors) runs[a.kind] = [];
  // the floor of obsim's start: spawn to exit of a Node that only imports every module `serve`
  // loads at start (nothing built, no database, nothing listening)
  const importOnly = pinned(SERVER_CORE, [
    process.execPath,
    '--input-type=module',
    '-e',
    ['cli/serve', 'server', 'app']
      .map((m) => `await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'src', `${m}.js`)).href)});`)
      .join(' '),
  ]);
  const seeded = join(tmp, 'startup-proxy.sqlite');
  for (let i = 0; i < opts.startupRuns; i++) {
    const t0 = performance.now();
    const imported = spawnSync(importOnly[0], importOnly.slice(1), { cwd: ROOT, stdio: 'ignore' });
    if (imported.status === 0) runs.obsimImport.push(performance.now() - t0);
    // alternate: a cold obsim (fresh database: migrations + seed + schema compilation), then bare
    const o = await startObsim('obsim-cold', join(tmp, `cold-${i}.sqlite`));
    runs.obsim.push(o.startMs);
    await o.server.stop();
    const b = await startBaseline('bare');
    runs.bare.push(b.startMs);
    await b.server.stop();
    // the limit proxy on its database, seeded before (as the outside harness seeds it outside the timing)
    const q = await startBaseline('sqlite', seeded);
    if (i > 0) runs.sqlite.push(q.startMs);
    await q.server.stop();
    for (const a of anchors) {
      if (i >= 3) continue;
      const s = await a.start();
      runs[a.kind].push(s.startMs);
      await s.server.stop();
    }
  }
  const out: Results['startup'] = {};
  for (const [k, v] of Object.entries(runs)) out[k] = { runsMs: v.map((x) => round(x, 1)!), medianMs: round(median(v), 1) };
  return out;
}
