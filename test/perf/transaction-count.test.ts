/**
 * totalTransactions comes from the per-account `seq` rank (two index seeks) instead of
 * count(*) over the window: it must equal the brute-force count for every window, including
 * empty ones, windows beyond either end and single instants.
 */
import t from 'tap';
import { build } from '../helpers/app.js';

t.test('countTransactions equals count(*) over the window, for any window', async (t) => {
  const app = await build(t);
  const now = app.clock.nowMs();
  const accounts = app.store.accounts.listAccounts('user-typical', now);
  t.ok(accounts.length > 0);
  for (const a of accounts) app.store.accounts.ensureTransactions(a.account_id); // generated on first transaction read
  const brute = app.db
    .prepare('SELECT count(*) FROM ais_transactions WHERE account_id = ? AND booking_date >= ? AND booking_date <= ?')
    .pluck();
  const dates = app.db.prepare('SELECT booking_date FROM ais_transactions WHERE account_id = ? ORDER BY booking_date').pluck();
  let checked = 0;
  for (const a of accounts) {
    const all = dates.all(a.account_id) as string[];
    t.ok(all.length > 0, `${a.account_id} has transactions`);
    const iso = (ms: number) => new Date(ms).toISOString();
    const first = Date.parse(all[0]);
    const last = Date.parse(all[all.length - 1]);
    // edges: exact booking instants (inclusive both ends), one ms either side, outside the range
    const points = new Set<string>(['0000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', iso(first - 1), iso(last + 1)]);
    for (let i = 0; i < all.length; i += Math.max(1, Math.floor(all.length / 25))) {
      points.add(all[i]);
      points.add(iso(Date.parse(all[i]) + 1));
      points.add(iso(Date.parse(all[i]) - 1));
    }
    const list = [...points].sort();
    for (const from of list) {
      for (const to of list) {
        const window = { from, to };
        const expected = brute.get(a.account_id, from, to) as number;
        if (app.store.accounts.countTransactions(a.account_id, window) !== expected) {
          t.fail(`${a.account_id} [${from}, ${to}]: expected ${expected}`);
        }
        checked++;
      }
    }
  }
  t.ok(checked > 1000, `${checked} windows agree with count(*)`);
  t.equal(app.store.accounts.countTransactions('no-such-account', { from: '0000-01-01T00:00:00.000Z', to: '9999-12-31T23:59:59.999Z' }), 0);
});

t.test('every materialized row is ranked, 0..n-1 in page order', async (t) => {
  const app = await build(t);
  for (const a of app.store.accounts.listAccounts('user-multi-currency', app.clock.nowMs()))
    app.store.accounts.ensureTransactions(a.account_id);
  const bad = app.db
    .prepare(
      `SELECT count(*) FROM (SELECT seq, row_number() OVER (PARTITION BY account_id ORDER BY booking_date DESC, transaction_id) - 1 AS rn
         FROM ais_transactions) WHERE seq IS NULL OR seq <> rn`,
    )
    .pluck()
    .get();
  t.equal(bad, 0);
});
