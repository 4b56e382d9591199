/**
 * Before a measured run: wait until the servers on the server core have no background work left
 * (their processes, every thread, under 5 % of a core for half a second; at most 90 s). obsim
 * settles the payments a run created 5 s later: without this the next run, on whichever server,
 * paid for those settlements (a limit proxy measured meanwhile lost the core to them, which
 * flattered obsim's ratio). The outside harness (its anchors.sh `wait_quiet`) does the same.
 */
import { readFileSync } from 'node:fs';
import { cpuSeconds, sleep } from './proc.js';

const WINDOW_MS = 500;
const QUIET_CORES = 0.05;
const MAX_WAIT_MS = 90_000;

/** Seconds waited until every process of `pids` was quiet (or the limit passed). */
export async function waitQuiet(pids: readonly number[]): Promise<number> {
  const t0 = performance.now();
  const total = () => pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);
  while (performance.now() - t0 < MAX_WAIT_MS) {
    const before = total();
    await sleep(WINDOW_MS);
    if (total() - before < (QUIET_CORES * WINDOW_MS) / 1000) break;
  }
  return Math.round(performance.now() - t0) / 1000;
}

/** busy and total jiffies of one core so far (/proc/stat), to tell whether the load generator's core was the limit. */
export function coreTicks(core: number): { busy: number; total: number } | null {
  try {
    const line = new RegExp(`^cpu${core} (.*)$`, 'm').exec(readFileSync('/proc/stat', 'utf8'));
    if (!line) return null;
    const f = line[1].trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal
    const busy = f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
    return { busy, total: busy + f[3] + f[4] };
  } catch {
    return null;
  }
}

/** The share of `core` that was busy between two readings. */
export const busyShare = (a: ReturnType<typeof coreTicks>, b: ReturnType<typeof coreTicks>): number | undefined =>
  a && b && b.total > a.total ? Math.round(((b.busy - a.busy) / (b.total - a.total)) * 100) / 100 : undefined;
