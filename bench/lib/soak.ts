/**
 * `npm run bench -- --soak`: mixed load on obsim for a minute with its RSS sampled every 5 s; flat
 * when the last third is within 10% of the first.
 */
import { CASES } from './cases.js';
import type { LoadGenerator } from './load.js';
import type { ObsimFixture } from './obsim.js';
import { rssMb, type Server } from './proc.js';
import type { Results } from './report.js';
import { median, round } from './stats.js';
import { opts, log } from './run-setup.js';

export async function soak(server: Server, fx: ObsimFixture, load: LoadGenerator): Promise<Results['soak']> {
  log(`soak: ${opts.soakSeconds} s of mixed load on obsim, RSS sampled every 5 s`);
  const mix = ['onboarding', 'payments', 'tx20', 'token']
    .map((id) => CASES.find((c) => c.id === id)!.request('obsim', fx))
    .filter((r) => r !== null);
  const samples: { t: number; rssMb: number | null }[] = [{ t: 0, rssMb: rssMb(server.pid) }];
  const t0 = performance.now();
  let i = 0;
  while (performance.now() - t0 < opts.soakSeconds * 1000) {
    await load.run({ ...mix[i++ % mix.length], url: server.url, connections: opts.connections, durationS: 5 });
    samples.push({ t: round((performance.now() - t0) / 1000, 1)!, rssMb: round(rssMb(server.pid), 1) });
  }
  const v = samples.map((s) => s.rssMb ?? 0);
  const third = Math.max(1, Math.floor(v.length / 3));
  const first = median(v.slice(1, 1 + third)) ?? v[0];
  const last = median(v.slice(-third)) ?? v[v.length - 1];
  const growthPct = round(((last - first) / first) * 100, 1);
  return {
    seconds: opts.soakSeconds,
    samples,
    firstThirdMb: round(first, 1),
    lastThirdMb: round(last, 1),
    growthPct,
    flat: growthPct !== null && growthPct <= 10,
  };
}
