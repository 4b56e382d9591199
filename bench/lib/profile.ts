/** Summarize a V8 .cpuprofile (node --cpu-prof): top functions by self time. */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface HotFunction {
  name: string;
  where: string;
  selfMs: number;
  selfPct: number;
}

export function topSelfTime(file: string, limit = 25, cwd = process.cwd()): { totalMs: number; top: HotFunction[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  // time per sample: timeDeltas[i] is the time since the previous sample
  if (profile.samples && profile.timeDeltas) {
    for (let i = 0; i < profile.samples.length; i++) {
      const next = profile.timeDeltas[i + 1] ?? 0;
      self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + next);
    }
  }
  const agg = new Map<string, HotFunction>();
  let total = 0;
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const f = node.callFrame;
    const url = f.url.replace(`file://${cwd}/`, '').replace(/^file:\/\//, '');
    const where = url ? `${url}:${f.lineNumber + 1}` : '';
    const name = f.functionName || '(anonymous)';
    const key = `${name}@${where}`;
    const entry = agg.get(key) ?? { name, where, selfMs: 0, selfPct: 0 };
    entry.selfMs += us / 1000;
    agg.set(key, entry);
    total += us / 1000;
  }
  const busy = [...agg.values()].filter((e) => e.name !== '(idle)');
  const busyTotal = busy.reduce((s, e) => s + e.selfMs, 0);
  for (const e of busy) e.selfPct = busyTotal ? (100 * e.selfMs) / busyTotal : 0;
  busy.sort((a, b) => b.selfMs - a.selfMs);
  return { totalMs: total, top: busy.slice(0, limit) };
}

/** Self time grouped by package / source folder (node_modules/<pkg>, src/<area>, node:internal). */
export function selfByModule(file: string, cwd = process.cwd()): { module: string; pct: number }[] {
  const { top } = topSelfTime(file, Number.MAX_SAFE_INTEGER, cwd);
  const groups = new Map<string, number>();
  for (const f of top) {
    let m = f.where;
    const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(m);
    if (nm) m = nm[1];
    else if (m.startsWith('node:')) m = 'node:internal';
    else if (m === '') m = f.name.startsWith('(') ? f.name : '(native)';
    else m = m.split('/').slice(0, 3).join('/');
    groups.set(m, (groups.get(m) ?? 0) + f.selfPct);
  }
  return [...groups.entries()].map(([module, pct]) => ({ module, pct })).sort((a, b) => b.pct - a.pct);
}

// CLI: tsx bench/lib/profile.ts <file.cpuprofile> [limit]
if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  const { top } = topSelfTime(file, Number(process.argv[3] ?? 30));
  for (const f of top) console.log(`${f.selfPct.toFixed(1).padStart(5)}%  ${f.selfMs.toFixed(0).padStart(6)} ms  ${f.name}  ${f.where}`);
  console.log('\nby module:');
  for (const g of selfByModule(file).slice(0, 15)) console.log(`${g.pct.toFixed(1).padStart(5)}%  ${g.module}`);
}
