/**
 * Cost growth: the same queries at one connection on a database holding 10,000 payments and on
 * one holding 1,000,000 (each with as many webhook events and deliveries, and 1,000 merchants),
 * p50 against p50. A query whose cost grows with the table (a scan) shows as a ratio well above
 * 1; one that walks an index stays near it.
 *
 * The rows are written straight into the database while the server is stopped (a million
 * payments through the API would take minutes), copied from rows the API created, so every
 * column holds what obsim itself writes.
 */
import Database from 'better-sqlite3';
import { ok } from './http.js';
import type { LoadGenerator } from './load.js';
import { createMerchant, PARTNER_HEADERS, setupObsim } from './obsim.js';
import type { Server } from './proc.js';
import { round } from './stats.js';

export interface GrowthQuery {
  label: string;
  small: number | null;
  large: number | null;
  ratio: number | null;
}

export interface GrowthResult {
  small: number;
  large: number;
  merchants: number;
  seedS: Record<string, number>;
  queries: GrowthQuery[];
}

const MERCHANTS = 1_000;
const PAGE = 20;

interface Prepared {
  server: Server;
  jobs: { label: string; job: { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string } }[];
}

/** A server on a database with `payments` payments (and as many events and deliveries). */
async function prepare(
  start: (db: string) => Promise<Server>,
  dbPath: string,
  payments: number,
  log: (line: string) => void,
): Promise<{ prepared: Prepared; seedS: number }> {
  let server = await start(dbPath);
  const fx = await setupObsim(server.url);
  const hook = await ok(
    server.url,
    'POST',
    '/v1/partner/webhooks',
    { url: 'http://127.0.0.1:9/unused', events: ['payment.completed'] },
    PARTNER_HEADERS,
  );
  for (let i = 1; i < MERCHANTS; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, MERCHANTS - i) }, () => createMerchant(server.url)));
  }
  const template = await ok(
    server.url,
    'POST',
    '/v1/partner/payments',
    { merchantClientId: fx.merchantClientId, amount: 42, referenceNumber: 'growth-0' },
    PARTNER_HEADERS,
  );
  await server.stop();

  const t0 = performance.now();
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const partner = db.prepare('SELECT partner_id FROM payments WHERE id = ?').pluck().get(template.paymentId) as string;
  const n = payments - 1;
  db.transaction(() => {
    db.prepare(
      `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < @n)
       INSERT INTO payments (partner_id, merchant_id, merchant_client_id, amount_minor, currency, reference_number, status,
                             bank_payment_status, failure_reason, bank_id, expires_at, created_at, updated_at)
       SELECT p.partner_id, p.merchant_id, p.merchant_client_id, p.amount_minor, p.currency, 'growth-' || seq.i, 'paid',
              'AcceptedSettlementCompleted', NULL, NULL, p.expires_at, p.created_at, p.updated_at
         FROM seq, payments p WHERE p.id = @id`,
    ).run({ n, id: template.paymentId });
    db.prepare(
      `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < @n)
       INSERT INTO events (id, partner_id, name, body, created_at)
       SELECT printf('evt_growth%012d', seq.i), @partner, 'payment.completed', '{"event":"payment.completed","data":{}}', '2026-01-01T00:00:00.000Z'
         FROM seq`,
    ).run({ n: payments, partner });
    db.prepare(
      `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < @n)
       INSERT INTO deliveries (event_id, webhook_id, partner_id, url, state, status_code, outcome, duration_ms, attempted_at, created_at)
       SELECT printf('evt_growth%012d', seq.i), @hook, @partner, 'http://127.0.0.1:9/unused', 'delivered', 200, 'delivered', 3,
              '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
         FROM seq`,
    ).run({ n: payments, partner, hook: hook.id });
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const seedS = round((performance.now() - t0) / 1000, 1)!;
  log(`  ${payments.toLocaleString('en-US')} payments, events and deliveries written in ${seedS} s`);

  server = await start(dbPath);
  const jobs: Prepared['jobs'] = [
    {
      label: 'GET payment status',
      job: { method: 'GET', path: `/v1/partner/payments/${template.paymentId}/status`, headers: PARTNER_HEADERS },
    },
    {
      label: 'GET merchants, page 1',
      job: { method: 'GET', path: `/v1/partner/merchants?page=1&limit=${PAGE}`, headers: PARTNER_HEADERS },
    },
    {
      label: `GET merchants, last page`,
      job: { method: 'GET', path: `/v1/partner/merchants?page=${Math.ceil(MERCHANTS / PAGE)}&limit=${PAGE}`, headers: PARTNER_HEADERS },
    },
    { label: 'GET delivery log (newest 50)', job: { method: 'GET', path: '/_sandbox/deliveries?limit=50', headers: PARTNER_HEADERS } },
    {
      label: 'GET delivery log, filtered (failed)',
      job: { method: 'GET', path: '/_sandbox/deliveries?limit=50&state=failed', headers: PARTNER_HEADERS },
    },
  ];
  if (fx.large) {
    jobs.push({
      label: 'POST transactions, 20 items (100k account)',
      job: {
        method: 'POST',
        path: '/v1/ais/accounts/transactions',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${fx.large.token}` },
        body: JSON.stringify({ userId: fx.large.userId, merchantId: fx.large.merchantId, accountId: fx.large.accountId, pageLimit: 20 }),
      },
    });
  }
  return { prepared: { server, jobs }, seedS };
}

export async function growthCase(o: {
  start: (db: string) => Promise<Server>;
  dbPath: (name: string) => string;
  load: LoadGenerator;
  small: number;
  large: number;
  durationS: number;
  log: (line: string) => void;
}): Promise<GrowthResult> {
  const p50s: Record<string, (number | null)[]> = {};
  const seedS: Record<string, number> = {};
  for (const [which, size] of [
    ['small', o.small],
    ['large', o.large],
  ] as const) {
    const { prepared, seedS: s } = await prepare(o.start, o.dbPath(`growth-${which}.sqlite`), size, o.log);
    seedS[which] = s;
    try {
      for (const { label, job } of prepared.jobs) {
        await o.load.run({ ...job, url: prepared.server.url, connections: 1, durationS: 0.5 });
        const r = await o.load.run({ ...job, url: prepared.server.url, connections: 1, durationS: o.durationS });
        if (r.non2xx) throw new Error(`${label}: ${r.non2xx} non-2xx answers ${JSON.stringify(r.statusCodes)}`);
        (p50s[label] ??= []).push(r.p50);
        o.log(`  ${which.padEnd(5)} ${label}: p50 ${r.p50?.toFixed(3)} ms`);
      }
    } finally {
      await prepared.server.stop();
    }
  }
  return {
    small: o.small,
    large: o.large,
    merchants: MERCHANTS,
    seedS,
    queries: Object.entries(p50s).map(([label, [small, large]]) => ({
      label,
      small: small ?? null,
      large: large ?? null,
      ratio: small && large ? round(large / small, 2) : null,
    })),
  };
}
