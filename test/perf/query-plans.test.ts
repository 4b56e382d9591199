/**
 * The indexes the hot paths rely on, checked with EXPLAIN QUERY PLAN on the very statements
 * the app prepares (recorded by wrapping db.prepare while the app is built), so a changed
 * query or a dropped index fails here instead of silently turning a lookup into a table scan.
 *
 * Hot paths: GET onboarding-status (merchant by id + partner), POST payments (merchant by
 * clientId + partner), GET payment status (payment by id + partner), POST transactions (page
 * and count of one account's transactions in a date window), and the webhook worker and
 * scheduler queries.
 */
import t from 'tap';
import { openDatabase, type Db } from '../../src/store/db.js';
import { RESET_STEPS } from '../../src/store/reset.js';
import { SNAPSHOT_READS } from '../../src/store/snapshots.js';
import type { FastifyInstance } from 'fastify';
import { build, PARTNER } from '../helpers/app.js';

interface Recorded {
  db: Db;
  sql: string[];
}

async function recordedApp(t: { teardown(fn: () => unknown): void }, use?: (app: FastifyInstance) => Promise<unknown>): Promise<Recorded> {
  const db = openDatabase(':memory:');
  const sql = new Set<string>();
  const prepare = db.prepare.bind(db);
  (db as unknown as { prepare: (s: string) => unknown }).prepare = (s: string) => {
    sql.add(s);
    return prepare(s);
  };
  t.teardown(() => db.close()); // registered first: runs after the app's own close (teardowns run last-in first-out)
  const app = await build(t, { db });
  await use?.(app); // statements prepared at their first use
  return { db, sql: [...sql] };
}

/** The EXPLAIN QUERY PLAN detail lines of `sql`, every parameter bound to NULL. */
function plan(db: Db, sql: string): string[] {
  const stmt = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const named = [...new Set([...sql.matchAll(/[@:$]([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]))];
  const positional = (sql.replace(/'[^']*'/g, '').match(/\?/g) ?? []).length;
  const args: unknown[] = Array.from({ length: positional }, () => null);
  if (named.length) args.push(Object.fromEntries(named.map((n) => [n, null])));
  return (stmt.all(...args) as { detail: string }[]).map((r) => r.detail);
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The one recorded statement matching `re` (whitespace-normalised). */
function find(rec: Recorded, re: RegExp): string | undefined {
  return rec.sql.find((s) => re.test(norm(s)));
}

t.test('hot-path lookups are index searches', async (t) => {
  const rec = await recordedApp(t);
  const cases: [string, RegExp, RegExp][] = [
    [
      'GET onboarding-status: merchant by id and partner',
      /^SELECT .* FROM merchants WHERE id = \? AND partner_id = \?/i,
      /SEARCH merchants USING INTEGER PRIMARY KEY/,
    ],
    [
      'POST payments: merchant by clientId and partner',
      /^SELECT .* FROM merchants WHERE client_id = \? AND partner_id = \?/i,
      /SEARCH merchants USING INDEX/,
    ],
    [
      'GET payment status: payment by id and partner',
      /^SELECT .* FROM payments WHERE id = \? AND partner_id = \?/i,
      /SEARCH payments USING INTEGER PRIMARY KEY/,
    ],
    [
      'hosted payment page and engine: payment by id',
      /^SELECT \* FROM payments WHERE id = \?$/i,
      /SEARCH payments USING INTEGER PRIMARY KEY/,
    ],
    [
      'webhook worker: claim pending deliveries in id order',
      /FROM deliveries d JOIN events e .* WHERE d\.state = 'pending' ORDER BY d\.id/i,
      /SCAN d USING INDEX deliveries_pending/,
    ],
    [
      'webhook worker: resume interrupted deliveries at start',
      /^UPDATE deliveries SET state = 'pending' WHERE state = 'delivering'/i,
      /deliveries_delivering/,
    ],
    [
      'outbox: webhooks of a partner',
      /FROM webhooks WHERE partner_id = (\?|CAST\(\? AS TEXT\))/i,
      /SEARCH webhooks USING (COVERING )?INDEX webhooks_partner/,
    ],
  ];
  for (const [name, re, expected] of cases) {
    const sql = find(rec, re);
    if (!sql) {
      t.fail(`${name}: statement not prepared by the app (${re})`);
      continue;
    }
    const detail = plan(rec.db, sql);
    t.match(detail.join('\n'), expected, `${name}: ${detail.join(' | ')}`);
  }
});

t.test('POST transactions: page and count are index seeks in index order, whatever the account size', async (t) => {
  const rec = await recordedApp(t);
  // bound through CAST: SQLite 3.54 prepares an ORDER BY statement again on every run when an
  // equality or its LIMIT is a bare parameter (src/store/db.ts)
  const page = find(
    rec,
    /^SELECT \* FROM ais_transactions WHERE account_id = CAST\(\? AS TEXT\) .*ORDER BY booking_date DESC.* LIMIT CAST\(\? AS INTEGER\)/i,
  );
  const upTo = find(
    rec,
    /^SELECT seq FROM ais_transactions WHERE account_id = CAST\(\? AS TEXT\) AND booking_date <= \? ORDER BY booking_date DESC/i,
  );
  const from = find(
    rec,
    /^SELECT seq FROM ais_transactions WHERE account_id = CAST\(\? AS TEXT\) AND booking_date >= \? ORDER BY booking_date ASC/i,
  );
  t.ok(page && upTo && from, 'the page and the two count seeks are prepared, their values bound through CAST');
  for (const [name, sql] of [
    ['page', page],
    ['count: newest row up to `to`', upTo],
    ['count: oldest row from `from`', from],
  ] as const) {
    if (!sql) continue;
    const detail = plan(rec.db, sql).join('\n');
    t.match(
      detail,
      /SEARCH ais_transactions USING INDEX ais_transactions_by_date \(account_id=\? AND booking_date[<>]/,
      `${name}: ${detail}`,
    );
    t.notMatch(detail, /TEMP B-TREE/, `${name}: the index order is the ORDER BY (no sort step)`);
  }
  t.notOk(
    rec.sql.some((s) => /count\(\*\)\s+FROM ais_transactions/i.test(s)),
    'no count(*) over a window of transactions (cost would grow with the account)',
  );
});

t.test('the delivery log: newest first by an index of the partner (by state when filtered by state), counted with a cap', async (t) => {
  const rec = await recordedApp(t, async (app) => {
    for (const query of ['', '?state=failed', '?outcome=timeout&event=payment.completed']) {
      const r = await app.inject({ url: `/_sandbox/deliveries${query}`, headers: PARTNER });
      if (r.statusCode !== 200) throw new Error(r.body);
    }
  });
  const lists = rec.sql.filter((s) =>
    /FROM deliveries d JOIN events e .* ORDER BY d\.id DESC LIMIT CAST\(@limit AS INTEGER\)/i.test(norm(s)),
  );
  const counts = rec.sql.filter((s) => /^SELECT count\(\*\) FROM \(SELECT 1 FROM deliveries d/i.test(norm(s)));
  t.equal(lists.length, 3, 'one list statement per combination of filters');
  t.equal(counts.length, 3);
  for (const sql of [...lists, ...counts]) {
    const detail = plan(rec.db, sql).join(' | ');
    const byState = /d\.state = @state/.test(sql);
    t.match(
      detail,
      byState
        ? /SEARCH d USING (COVERING )?INDEX deliveries_partner_state \(partner_id=\? AND state=\?\)/
        : /SEARCH d USING (COVERING )?INDEX deliveries_partner \(partner_id=\?\)/,
      `${norm(sql).slice(0, 80)}…: ${detail}`,
    );
    t.notMatch(detail, /TEMP B-TREE/, 'no sort step');
  }
  for (const sql of counts) t.match(norm(sql), /LIMIT @cap\)$/, 'the count stops at its cap');
});

const RESET_STATEMENTS = new Set([...RESET_STEPS, ...SNAPSHOT_READS].map(([, sql]) => sql));

t.test('no statement the app prepares scans a growing table', async (t) => {
  const rec = await recordedApp(t);
  // tables that grow with use; small configuration tables may be scanned
  const growing = ['merchants', 'payments', 'events', 'deliveries', 'timers', 'consents', 'ais_transactions', 'ais_accounts', 'stores'];
  const offenders: string[] = [];
  for (const sql of rec.sql) {
    if (/^\s*(INSERT|CREATE|PRAGMA|BEGIN|COMMIT|ROLLBACK|DROP|ALTER)/i.test(sql)) continue;
    // the per-partner reset (src/store/reset.ts) and snapshot (src/store/snapshots.ts) may scan:
    // they are rare, and an index kept only for them would cost every payment insert (migration
    // 092 dropped payments_partner for that reason)
    if (RESET_STATEMENTS.has(sql)) continue;
    let detail: string[];
    try {
      detail = plan(rec.db, sql);
    } catch {
      continue; // statements that need real values to plan (none today) are skipped
    }
    // plan lines name a table by its alias when the query gives one (FROM deliveries d)
    const alias = new Map<string, string>();
    for (const m of sql.matchAll(/\b(?:FROM|JOIN|UPDATE)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
      alias.set(m[1], m[1]);
      if (m[2] && !/^(WHERE|SET|ON|JOIN|LEFT|INNER|ORDER|GROUP|LIMIT|USING)$/i.test(m[2])) alias.set(m[2], m[1]);
    }
    for (const line of detail) {
      const m = /^SCAN (\w+)( USING (?:COVERING )?INDEX \w+)?/.exec(line);
      // a scan in the order of an index (list pages with LIMIT, partial indexes) does not read every row
      const table = m ? (alias.get(m[1]) ?? m[1]) : undefined;
      if (m && table && growing.includes(table) && !m[2]) offenders.push(`${norm(sql)}  ->  ${line}`);
    }
  }
  t.same(offenders, [], 'full table scans on growing tables');
});
