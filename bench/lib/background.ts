/**
 * Reads under background work: one connection (what a test suite sees) reading the payment
 * status and an AIS balance, first on a quiet server, then while a clock advance fires
 * `backlog` due settlements (50,000 by default) on the same sandbox. The clock is frozen while
 * the payments are created, so every settlement is due at once when the advance starts; the
 * advance is still running when each "during" run ends (checked and reported).
 */
import Database from 'better-sqlite3';
import { call, ok } from './http.js';
import type { LoadGenerator, LoadSummary } from './load.js';
import { createMerchant, PARTNER_HEADERS, type ObsimFixture } from './obsim.js';
import type { Server } from './proc.js';
import { round } from './stats.js';

export interface BackgroundRead {
  label: string;
  quiet: { p50: number | null; p99: number | null; rps: number };
  during: { p50: number | null; p99: number | null; rps: number };
  /** during p50 / quiet p50 */
  p50Ratio: number | null;
}

export interface BackgroundResult {
  backlog: number;
  reads: BackgroundRead[];
  /** Settlements fired when the last "during" run ended, and when the advance answered. */
  firedWhileMeasured: number;
  fired: number | null;
  advanceS: number;
  advanceStillRunning: boolean;
}

const pick = (s: LoadSummary) => ({ p50: s.p50, p99: s.p99, rps: round(s.rps, 0)! });

export async function backgroundCase(o: {
  server: Server;
  /** The server's database file, read (read-only) for the advance's progress. */
  dbPath: string;
  fx: ObsimFixture;
  load: LoadGenerator;
  backlog: number;
  durationS: number;
  log: (line: string) => void;
}): Promise<BackgroundResult> {
  const base = o.server.url;
  const merchant = await createMerchant(base);
  // the payments whose settlements make the backlog: the clock is frozen, nothing settles yet
  let firstPayment = 0;
  const batch = 100;
  for (let i = 0; i < o.backlog; i += batch) {
    const created = await Promise.all(
      Array.from({ length: Math.min(batch, o.backlog - i) }, (_, j) =>
        ok(
          base,
          'POST',
          '/v1/partner/payments',
          { merchantClientId: merchant.clientId, amount: 3, referenceNumber: `bg-${i + j}` },
          PARTNER_HEADERS,
        ),
      ),
    );
    firstPayment ||= created[0].paymentId as number;
  }
  o.log(`  ${o.backlog} payments created; measuring quiet reads`);
  const reads = [
    {
      label: 'GET payment status',
      job: { method: 'GET' as const, path: `/v1/partner/payments/${firstPayment}/status`, headers: PARTNER_HEADERS },
    },
    ...(o.fx.large
      ? [
          {
            label: 'POST accounts/balance (AIS read)',
            job: {
              method: 'POST' as const,
              path: '/v1/ais/accounts/balance',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${o.fx.large.token}` },
              body: JSON.stringify({ userId: o.fx.large.userId, merchantId: o.fx.large.merchantId, accountId: o.fx.large.accountId }),
            },
          },
        ]
      : []),
  ];
  const quiet: LoadSummary[] = [];
  for (const r of reads) {
    await o.load.run({ ...r.job, url: base, connections: 1, durationS: 0.5 }); // warm-up
    quiet.push(await o.load.run({ ...r.job, url: base, connections: 1, durationS: o.durationS }));
  }
  const t0 = performance.now();
  let answered = false;
  const advance = call(base, 'POST', '/_sandbox/clock/advance', { duration: '1h' }, PARTNER_HEADERS).then((r) => {
    answered = true;
    return r;
  });
  const during: LoadSummary[] = [];
  for (const r of reads) during.push(await o.load.run({ ...r.job, url: base, connections: 1, durationS: o.durationS }));
  const advanceStillRunning = !answered;
  const db = new Database(o.dbPath, { readonly: true, fileMustExist: true });
  const firedWhileMeasured = db
    .prepare("SELECT count(*) FROM payments WHERE merchant_id = ? AND status = 'paid'")
    .pluck()
    .get(merchant.merchantId) as number;
  db.close();
  const result = await advance;
  return {
    backlog: o.backlog,
    reads: reads.map((r, i) => ({
      label: r.label,
      quiet: pick(quiet[i]),
      during: pick(during[i]),
      p50Ratio: quiet[i].p50 && during[i].p50 ? round(during[i].p50 / quiet[i].p50, 2) : null,
    })),
    firedWhileMeasured,
    fired: (result.body?.fired as number | undefined) ?? null,
    advanceS: round((performance.now() - t0) / 1000, 1)!,
    advanceStillRunning,
  };
}
