/**
 * `npm run bench:journal-cost` — the journal's own CPU per request, measured in one process
 * without HTTP: the answered requests of two cases (a payment created; an onboarding-status
 * read) recorded into a journal on a file database at default settings (WAL, bounds 10,000
 * entries / 50 MB, so the trim runs) and written as the timed write does under load (chunks of
 * 64, each one transaction). CPU time (user + system, GC included) per entry, medians of
 * several rounds. The end-to-end figure (journal on minus off, server CPU per request under load)
 * is `npm run bench:journal`'s; on a noisy machine this is the steadier of the two.
 *
 *   options: --dist DIR (a build's output, default dist: `--dist tmp/before` measures an older
 *            build), --body object (hand record() the parsed body, as builds before the pages did),
 *            --entries N (per round, default 30000), --rounds N (default 5)
 * Prints a table; writes nothing. The rounds run in a plain `node` child (bench/lib/journal-cost-run.mjs).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { machine } from './lib/proc.js';
import { median, round } from './lib/stats.js';

/** Entries per write, as the timed write under load (src/journal/index.ts FLUSH_CHUNK). */
const CHUNK = 64;

export interface JournalCostOptions {
  /** A build's output directory (default: dist). */
  dist?: string;
  /** Hand record() the parsed body, as builds before the pages did. */
  bodyAsObject?: boolean;
  entries?: number;
  rounds?: number;
}

export interface JournalCost {
  label: string;
  /** CPU µs per entry: the median round, and every round. */
  medianUs: number;
  roundsUs: number[];
}

/**
 * The rounds run in a child `node` without this file's TypeScript loader (bench/lib/journal-cost-run.mjs):
 * the build runs there as `obsim serve` runs it. Loaded through tsx, the same build measured
 * ~25 % more per entry (a payment 14.0 against 11.2 µs, same machine, same hour).
 */
export function journalCost(o: JournalCostOptions = {}): JournalCost[] {
  const script = fileURLToPath(new URL('./lib/journal-cost-run.mjs', import.meta.url));
  const args = {
    dist: resolve(o.dist ?? 'dist'),
    bodyAsObject: o.bodyAsObject ?? false,
    entries: o.entries ?? 30_000,
    rounds: o.rounds ?? 5,
    chunk: CHUNK,
  };
  const r = spawnSync(process.execPath, [script, JSON.stringify(args)], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`bench/lib/journal-cost-run.mjs failed (exit ${r.status}):\n${r.stderr}`);
  const measured = JSON.parse(r.stdout) as { label: string; roundsUs: number[] }[];
  return measured.map((c) => ({ label: c.label, medianUs: round(median(c.roundsUs), 1)!, roundsUs: c.roundsUs.map((x) => round(x, 1)!) }));
}

/** The table journalCost's figures make (bench:journal puts it in its results). */
export function journalCostTable(costs: JournalCost[], describe: string): string {
  const m = machine();
  return [
    `Journal CPU per request, in-process (${describe}): ${m.nproc} cores, ${m.cpu}, Node ${m.node}; file database (WAL), bounds 10,000 entries, chunks of ${CHUNK} entries per write.`,
    '',
    '| case | median per entry | rounds |',
    '|---|---|---|',
    ...costs.map((c) => `| ${c.label} | ${c.medianUs} µs | ${c.roundsUs.join(', ')} |`),
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const argv = process.argv.slice(2);
  const value = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dist = value('dist') ?? 'dist';
  const bodyAsObject = value('body') === 'object';
  const costs = journalCost({
    dist,
    bodyAsObject,
    entries: Number(value('entries') ?? 30_000),
    rounds: Number(value('rounds') ?? 5),
  });
  process.stdout.write(journalCostTable(costs, `${dist}${bodyAsObject ? ', parsed bodies' : ''}`));
}
