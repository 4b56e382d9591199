/**
 * The reset deletes every row a partner owns, in every table: a table added later without a line
 * in src/store/reset.ts fails here. Other partners keep theirs.
 */
import t from 'tap';
import { aisApp, createMerchant } from '../helpers/ais.js';
import { PARTNER } from '../helpers/app.js';
import { call, storedJournal, testMerchant } from '../helpers/partner.js';

t.test('after a reset no table holds a row of the partner; the other partner keeps its rows', async (t) => {
  const ctx = await aisApp(t);
  const { app } = ctx;
  const other = createMerchant(app, 'activated', 'other-partner');
  await call(app, 'POST', '/v1/partner/webhooks', { url: 'http://127.0.0.1:9/h', events: ['payment.completed', 'merchant.activated'] });
  const m = await testMerchant(app);
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'r' });
  await call(app, 'POST', `/v1/partner/merchants/${m.merchantId}/stores`, { name: 'S' });
  await ctx.authorizedConsent('u1');
  app.db
    .prepare(
      "INSERT INTO consents (request_id, merchant_id, user_id, permissions, expiration_date_time, transaction_from_date_time, status, auth_token, created_at, updated_at) VALUES ('other-c', ?, 'u', '[]', 'x', 'x', 'pending', 'tok-other', 'x', 'x')",
    )
    .run(other);

  const tables = (
    app.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[]
  )
    // sandboxes: one row per created sandbox (its id is its partner's), kept as a tombstone when deleted;
    // journal: the request journal outlives a reset (it records the reset; checked below);
    // fault_profiles, bank_profiles: by sandbox, how it behaves, not its data (test/routes/sandbox/faults.test.ts, test/banks/api.test.ts);
    // state_counts: every sandbox's rows counted by state, kept by triggers (checked below)
    .filter(
      (name) =>
        !['meta', 'schema_migrations', 'sandboxes', 'journal_pages', 'fault_profiles', 'bank_profiles', 'state_counts'].includes(name) &&
        !name.startsWith('ais_'),
    );
  const owned = (partnerId: string) => {
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const columns = (app.db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
      const where = columns.includes('partner_id')
        ? 'partner_id = ?'
        : columns.includes('merchant_id')
          ? 'merchant_id IN (SELECT id FROM merchants WHERE partner_id = ?)'
          : undefined;
      if (!where) throw new Error(`table ${table} has neither partner_id nor merchant_id: who owns its rows? (src/store/reset.ts)`);
      counts[table] = app.db.prepare(`SELECT count(*) FROM "${table}" WHERE ${where}`).pluck().get(partnerId) as number;
    }
    return counts;
  };
  const before = owned('sandbox-partner');
  for (const table of ['merchants', 'payments', 'stores', 'webhooks', 'events', 'deliveries', 'consents', 'timers', 'transitions'])
    t.ok(before[table] > 0, `${table}: rows to delete`);
  const otherBefore = owned('other-partner');

  const r = await call(app, 'POST', '/_sandbox/reset', undefined, PARTNER);
  t.equal(r.status, 200);
  const after = owned('sandbox-partner');
  // the re-seeded default merchant, and its creation (a transition)
  const reseeded = new Set(['merchants', 'transitions']);
  for (const table of tables)
    t.equal(
      after[table],
      reseeded.has(table) ? 1 : 0,
      `${table}: none left${reseeded.has(table) ? ' (but the re-seeded default merchant)' : ''}`,
    );
  t.same(owned('other-partner'), otherBefore, 'the other partner keeps every row');
  const counted = app.db.prepare('SELECT resource, state, n FROM state_counts WHERE n <> 0 ORDER BY resource, state').all();
  const actual = app.db
    .prepare(
      `SELECT 'consent' AS resource, status AS state, count(*) AS n FROM consents GROUP BY status
       UNION ALL SELECT 'merchant', status, count(*) FROM merchants GROUP BY status
       UNION ALL SELECT 'payment', status, count(*) FROM payments GROUP BY status ORDER BY resource, state`,
    )
    .all();
  t.same(counted, actual, 'the counts by state (GET /metrics) follow the rows the reset deleted');
  const journal = storedJournal(app, 'sandbox-partner').map((e) => e.path);
  t.equal(journal.at(-1), '/_sandbox/reset', 'the journal is kept, the reset recorded last');
  t.ok(journal.includes('/v1/partner/payments'), 'with the requests before it');
});
