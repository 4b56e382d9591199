/**
 * Sandbox bank fixtures: deterministic per user id, valid IBANs, the special users table, and
 * the 100,000-transaction user materialized and read through SQL on the date index.
 */
import { createHash } from 'node:crypto';
import t from 'tap';
import { SANDBOX_BANKS } from '../../fixtures/banks.js';
import { accountSpecs, anchorFor, formatMinor, generateUser, type GeneratedTransaction } from '../../fixtures/generate.js';
import { ibanValid, makeIban } from '../../src/domain/iban.js';
import { SPECIAL_USERS } from '../../fixtures/users.js';
import { accountStore } from '../../src/store/accounts.js';
import { openDatabase } from '../../src/store/db.js';

t.setTimeout(120_000);

const ANCHOR = Date.parse('2026-01-15T00:00:00.000Z');

function fingerprint(userId: string, anchor = ANCHOR) {
  const h = createHash('sha256');
  let count = 0;
  const accounts = generateUser(userId, anchor, (tx) => {
    count++;
    h.update(JSON.stringify(tx));
  });
  return { accounts, count, digest: h.digest('hex') };
}

t.test('IBAN builder: known vectors and mod-97 on everything generated', async (t) => {
  t.equal(makeIban('GB', 'WEST12345698765432'), 'GB82WEST12345698765432', 'ISO 13616 example');
  t.equal(makeIban('DE', '370400440532013000'), 'DE89370400440532013000');
  t.equal(makeIban('DK', '00400440116243'), 'DK5000400440116243');
  t.notOk(ibanValid('GB83WEST12345698765432'));
  for (const userId of ['user-typical', 'user-multi-currency', 'partner-user-1', 'partner-user-2']) {
    const ibans: string[] = [];
    const accounts = generateUser(userId, ANCHOR, (tx) => ibans.push(tx.counterpartyIban));
    ibans.push(...accounts.map((a) => a.iban));
    t.ok(ibans.length > 0);
    t.same(
      ibans.filter((i) => !ibanValid(i)),
      [],
      `${userId}: every IBAN passes mod-97 and the country length`,
    );
  }
});

t.test('same user id, same data: ids, IBANs, balances, transactions', async (t) => {
  for (const userId of ['user-typical', 'someone@idp.example']) {
    const a = fingerprint(userId);
    const b = fingerprint(userId);
    t.same(a, b, userId);
  }
  t.not(fingerprint('user-a').digest, fingerprint('user-b').digest, 'different users differ');
  // fixed values every machine must reproduce (faker 10.6.0, sha256 seeds)
  const typical = fingerprint('user-typical');
  t.matchSnapshot(
    {
      count: typical.count,
      digest: typical.digest,
      accounts: typical.accounts.map((x) => ({
        id: x.accountId,
        iban: x.iban,
        balance: formatMinor(x.balanceMinor),
        holder: x.accountHolderName,
      })),
    },
    'user-typical fingerprint',
  );
  // another anchor day shifts the dates only
  const shifted: GeneratedTransaction[] = [];
  const base: GeneratedTransaction[] = [];
  generateUser('user-typical', ANCHOR, (tx) => base.push(tx));
  generateUser('user-typical', ANCHOR + 10 * 86_400_000, (tx) => shifted.push(tx));
  t.same(
    shifted
      .map((x) => ({ ...x, bookingMs: x.bookingMs - 10 * 86_400_000, valueMs: x.valueMs - 10 * 86_400_000 }))
      .map(({ reference: _reference, ...rest }) => rest),
    base.map(({ reference: _reference, ...rest }) => rest),
    'only dates (and month-stamped references) move with the anchor',
  );
  t.equal(anchorFor(Date.parse('2026-01-15T23:59:59.999Z')), ANCHOR);
});

t.test('special users table and generated profiles', async (t) => {
  const counts = Object.fromEntries(SPECIAL_USERS.map((u) => [u.userId, u.accounts.reduce((n, a) => n + a.transactions, 0)]));
  t.same(counts, { 'user-typical': 416, 'user-no-accounts': 0, 'user-multi-currency': 300, 'user-100k': 100_000 });
  t.same(
    generateUser('user-no-accounts', ANCHOR, () => t.fail('no transactions')),
    [],
  );
  for (const u of SPECIAL_USERS)
    for (const a of u.accounts)
      t.ok(
        SANDBOX_BANKS.some((b) => b.bankId === a.bankId),
        `${u.userId} ${a.bankId}`,
      );
  for (let i = 0; i < 20; i++) {
    const specs = accountSpecs(`generated-${i}`);
    t.ok(specs.length >= 2 && specs.length <= 3, `generated-${i}: ${specs.length} accounts`);
    const total = specs.reduce((n, s) => n + s.transactions, 0);
    t.ok(total >= 230 && total <= 490, `generated-${i}: ${total} transactions (a few hundred)`);
  }
  // transactions span the past year, end before the anchor, unique instants per account
  const seen = new Map<string, number[]>();
  generateUser('user-typical', ANCHOR, (tx) => {
    const list = seen.get(tx.accountId) ?? [];
    list.push(tx.bookingMs);
    seen.set(tx.accountId, list);
  });
  for (const [, times] of seen) {
    t.ok(times.every((x) => x < ANCHOR && x > ANCHOR - 366 * 86_400_000));
    t.equal(new Set(times).size, times.length);
  }
});

t.test('the 100,000-transaction user: fast materialization, SQL paging on the index', async (t) => {
  const db = openDatabase(':memory:');
  t.teardown(() => db.close());
  const store = accountStore(db);
  // CPU time, not wall time: the suite shares a small machine with other work
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const started = performance.now();
  const cpuStart = cpu();
  store.ensureUser('user-100k', ANCHOR + 9 * 3600_000);
  const [account] = store.listAccounts('user-100k', ANCHOR);
  t.equal(db.prepare('SELECT count(*) FROM ais_transactions').pluck().get(), 0, 'accounts first: transactions wait for their first read');
  store.ensureTransactions(account.account_id);
  const cpuMs = cpu() - cpuStart;
  t.ok(cpuMs < 2_000, `materialized with ${Math.round(cpuMs)} ms of CPU (${Math.round(performance.now() - started)} ms wall)`);
  t.equal(db.prepare('SELECT count(*) FROM ais_transactions').pluck().get(), 100_000);
  store.ensureUser('user-100k', ANCHOR + 86_400_000 * 30);
  store.ensureTransactions(account.account_id);
  t.equal(db.prepare('SELECT count(*) FROM ais_transactions').pluck().get(), 100_000, 'materialized once');
  t.equal(
    db.prepare("SELECT anchor_at FROM ais_users WHERE user_id = 'user-100k'").pluck().get(),
    '2026-01-15T00:00:00.000Z',
    'anchor kept',
  );

  const plan = store.explainTransactionPage().join(' | ');
  t.match(plan, /USING (COVERING )?INDEX ais_transactions_by_date/, plan);
  t.notMatch(plan, /TEMP B-TREE/, 'no sort step: the index gives the order');
  const countPlan = (
    db
      .prepare('EXPLAIN QUERY PLAN SELECT count(*) FROM ais_transactions WHERE account_id = ? AND booking_date >= ? AND booking_date <= ?')
      .all('a', 'b', 'c') as { detail: string }[]
  )
    .map((r) => r.detail)
    .join(' ');
  t.match(countPlan, /INDEX ais_transactions_by_date/);

  const window = { from: '2025-01-01T00:00:00.000Z', to: '9999-12-31T23:59:59.999Z' };
  const readStart = cpu();
  const page = store.listTransactions(account.account_id, window, 1000);
  const total = store.countTransactions(account.account_id, window);
  const june = store.countTransactions(account.account_id, { from: '2025-06-01T00:00:00.000Z', to: '2025-06-30T23:59:59.999Z' });
  const readMs = cpu() - readStart;
  t.equal(page.length, 1000);
  t.equal(total, 100_000);
  t.ok(june > 7_000 && june < 9_500, `${june} in June`);
  t.ok(readMs < 500, `page + counts in ${Math.round(readMs)} ms`);
  t.same(
    page.map((p) => p.booking_date),
    page
      .map((p) => p.booking_date)
      .slice()
      .sort()
      .reverse(),
  );
});
