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
 * Prints a table; writes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { machine } from './lib/proc.js';
import { median, round } from './lib/stats.js';

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

type Journal = { requestBody(b: unknown, json?: boolean): unknown; record(r: unknown): void; flush(): void };

const headers = {
  host: '127.0.0.1:3000',
  connection: 'keep-alive',
  'content-type': 'application/json',
  'x-partner-client-id': 'sandbox-partner',
  'x-partner-client-secret': 'sandbox-secret',
  'user-agent': 'autocannon',
};
const paymentBody = (n: number) => `{"merchantClientId":"mc_4b1f0c2d9e8a7b6c","amount":10,"referenceNumber":"bench-${n}"}`;
const paymentAnswer = (n: number) =>
  JSON.stringify({
    paymentId: 5_000_000 + n,
    status: 'pending',
    paymentUrl: `http://127.0.0.1:3000/pay/pay_${5_000_000 + n}_b3c1e4f2a9d8c7b6a5e4f3d2c1b0a9f8`,
    expiresAt: '2026-11-26T05:15:00.000Z',
    referenceNumber: `bench-${n}`,
    amount: 10,
    currency: 'DKK',
    createdAt: '2026-11-26T05:00:00.000Z',
  });
const onboardingAnswer = JSON.stringify({
  merchantId: 100001,
  onboardingStatus: 'completed',
  subTppId: 'sub_9f8e7d6c5b4a',
  subTppDetails: { status: 'active', isActivated: true },
});

const cases = (bodyAsObject: boolean) => [
  {
    label: 'POST payments',
    request: (n: number, journal: Journal) => ({
      method: 'POST',
      path: '/v1/partner/payments',
      query: {},
      params: {},
      headers: { ...headers, 'content-length': String(paymentBody(n).length) },
      body: bodyAsObject ? journal.requestBody(JSON.parse(paymentBody(n))) : journal.requestBody(paymentBody(n), true),
      status: 201,
      payload: paymentAnswer(n),
      payloadIsJson: true,
    }),
  },
  {
    label: 'GET onboarding-status',
    request: (_n: number, journal: Journal) => ({
      method: 'GET',
      path: '/v1/partner/merchants/100001/onboarding-status',
      query: {},
      params: { merchantId: 100001 },
      headers,
      body: journal.requestBody(undefined),
      status: 200,
      payload: onboardingAnswer,
      payloadIsJson: true,
    }),
  },
];

export async function journalCost(o: JournalCostOptions = {}): Promise<JournalCost[]> {
  const dist = resolve(o.dist ?? 'dist');
  const entries = o.entries ?? 30_000;
  const rounds = o.rounds ?? 5;
  const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(dist, 'src', file)).href)) as T;
  const { openDatabase, migrate } = await load<{ openDatabase(p: string): unknown; migrate(db: unknown): void }>('store/db.js');
  const { createStore } = await load<{ createStore(db: unknown): unknown }>('store/index.js');
  const { createJournal } = await load<{ createJournal(store: unknown, limits: unknown): Journal }>('journal/index.js');
  const out: JournalCost[] = [];
  for (const c of cases(o.bodyAsObject ?? false)) {
    const perEntry: number[] = [];
    for (let round_ = 0; round_ < rounds; round_++) {
      const dir = mkdtempSync(join(tmpdir(), 'obsim-journal-cost-'));
      const db = openDatabase(join(dir, 'obsim.sqlite'));
      migrate(db);
      const journal = createJournal(createStore(db), { maxEntries: 10_000, maxBytes: 50 * 1024 * 1024, bodyLimit: 4096 });
      // the answers exist before the journal sees them: built outside the measured time
      const requests = Array.from({ length: entries }, (_, n) => c.request(n, journal));
      const start = process.cpuUsage();
      for (let n = 0; n < entries; n++) {
        journal.record({
          partnerId: 'sandbox-partner',
          at: '2026-11-26T05:00:00.000Z',
          durationMs: 1.234,
          requestId: `req-${n}`,
          ...requests[n],
        });
        if ((n + 1) % CHUNK === 0) journal.flush();
      }
      journal.flush();
      const used = process.cpuUsage(start);
      perEntry.push((used.user + used.system) / entries);
      (db as { close(): void }).close();
      rmSync(dir, { recursive: true, force: true });
    }
    out.push({ label: c.label, medianUs: round(median(perEntry), 1)!, roundsUs: perEntry.map((x) => round(x, 1)!) });
  }
  return out;
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
  const costs = await journalCost({
    dist,
    bodyAsObject,
    entries: Number(value('entries') ?? 30_000),
    rounds: Number(value('rounds') ?? 5),
  });
  process.stdout.write(journalCostTable(costs, `${dist}${bodyAsObject ? ', parsed bodies' : ''}`));
}
