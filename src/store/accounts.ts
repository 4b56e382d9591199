/**
 * Sandbox bank data (migrations 010_ais, 011_ais_lazy_transactions): a user's accounts are
 * generated from fixtures/ on the user's first access, and an account's transactions on the
 * first transaction read of that account, each in one transaction, so every later read is plain
 * SQL on an index: transactions by (account_id, booking_date DESC, transaction_id) for paging
 * and date windows, never a scan in JavaScript. Listing the 100,000-transaction user's accounts
 * is instant; its transactions materialize in well under a second of CPU.
 */
import { anchorFor, formatMinor, generateUser } from '../../fixtures/generate.js';
import { LRUCache } from 'lru-cache';
import type { Db } from './db.js';

export interface AccountRow {
  account_id: string;
  user_id: string;
  position: number;
  bank_id: string;
  account_holder_name: string;
  iban: string;
  currency: string;
  balance: string;
  account_type: string;
  /** JSON object (fixtures AccountDetails). */
  details: string;
  last_updated: string;
}

export interface TransactionRow {
  account_id: string;
  transaction_id: string;
  amount: string;
  currency: string;
  description: string;
  booking_date: string;
  value_date: string;
  counterparty_name: string;
  counterparty_iban: string;
  reference: string;
  type: 'debit' | 'credit';
  status: 'booked' | 'pending';
}

/** Inclusive booking-date window, ISO 8601 with milliseconds (string comparison = time order). */
export interface DateWindow {
  from: string;
  to: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What the kept pages may hold, in transactions (about 3 MB of rows): a test suite reads a few
 * accounts' first pages again and again; a page counts as its rows.
 */
const KEPT_TRANSACTIONS = 10_000;

export function accountStore(db: Db, options: { pageCache: boolean } = { pageCache: true }) {
  const userRow = db.prepare('SELECT anchor_at FROM ais_users WHERE user_id = ?').pluck();
  const insertUser = db.prepare('INSERT INTO ais_users (user_id, anchor_at, materialized_at) VALUES (?, ?, ?)');
  const insertAccount = db.prepare(
    `INSERT INTO ais_accounts (account_id, user_id, position, bank_id, account_holder_name, iban, currency, balance, account_type, details, last_updated, transactions_ready)
     VALUES (@account_id, @user_id, @position, @bank_id, @account_holder_name, @iban, @currency, @balance, @account_type, @details, @last_updated, 0)`,
  );
  const pendingAccount = db.prepare(
    `SELECT a.user_id, a.position, a.transactions_ready, u.anchor_at FROM ais_accounts a JOIN ais_users u ON u.user_id = a.user_id
      WHERE a.account_id = ?`,
  );
  const markReady = db.prepare('UPDATE ais_accounts SET transactions_ready = 1 WHERE account_id = ?');
  const TX_COLUMNS = `(account_id, transaction_id, amount, currency, description, booking_date, value_date,
       counterparty_name, counterparty_iban, reference, type, status, seq)`;
  const WIDTH = 13;
  const ROW = `(${Array(WIDTH).fill('?').join(', ')})`;
  /** Multi-row insert: one statement per BATCH rows is several times faster than one per row. */
  const BATCH = 100;
  const insertTx = db.prepare(`INSERT INTO ais_transactions ${TX_COLUMNS} VALUES ${ROW}`);
  const insertTxBatch = db.prepare(`INSERT INTO ais_transactions ${TX_COLUMNS} VALUES ${Array(BATCH).fill(ROW).join(', ')}`);
  const accountsOf = db.prepare('SELECT * FROM ais_accounts WHERE user_id = CAST(? AS TEXT) ORDER BY position');
  const accountById = db.prepare('SELECT * FROM ais_accounts WHERE account_id = ?');
  // totalTransactions in O(log n): `seq` is each row's position in the page order (booking_date
  // DESC, transaction_id), so the rows of a window are the seq range from the newest row at or
  // before `to` to the oldest row at or after `from` (two index seeks, whatever the account size).
  const newestSeqUpTo = db
    .prepare(
      'SELECT seq FROM ais_transactions WHERE account_id = CAST(? AS TEXT) AND booking_date <= ? ORDER BY booking_date DESC, transaction_id LIMIT 1',
    )
    .pluck();
  const oldestSeqFrom = db
    .prepare(
      'SELECT seq FROM ais_transactions WHERE account_id = CAST(? AS TEXT) AND booking_date >= ? ORDER BY booking_date ASC, transaction_id DESC LIMIT 1',
    )
    .pluck();
  /** Users / accounts known to be materialized (rows are never deleted), so reads skip the check. */
  const materialized = new Set<string>();
  const readyAccounts = new Set<string>();
  const pageTx = db.prepare(
    `SELECT * FROM ais_transactions WHERE account_id = CAST(? AS TEXT) AND booking_date >= ? AND booking_date <= ?
     ORDER BY booking_date DESC, transaction_id LIMIT CAST(? AS INTEGER)`,
  );
  // a bank that lists no pending transactions (docs/banks.md): pending ones are the newest of an
  // account (fixtures/generate.ts), so the booked ones are those up to the newest booked
  const newestBooked = db
    .prepare(
      "SELECT booking_date FROM ais_transactions WHERE account_id = CAST(? AS TEXT) AND status = 'booked' ORDER BY booking_date DESC, transaction_id LIMIT 1",
    )
    .pluck();

  const materializeTx = db.transaction((userId: string, nowMs: number) => {
    if (userRow.get(userId) !== undefined) return;
    const anchorMs = anchorFor(nowMs);
    insertUser.run(userId, iso(anchorMs), iso(nowMs));
    for (const a of generateUser(userId, anchorMs)) {
      insertAccount.run({
        account_id: a.accountId,
        user_id: userId,
        position: a.position,
        bank_id: a.bankId,
        account_holder_name: a.accountHolderName,
        iban: a.iban,
        currency: a.currency,
        balance: formatMinor(a.balanceMinor),
        account_type: a.accountType,
        details: JSON.stringify(a.details),
        last_updated: iso(anchorMs),
      });
    }
  });
  const materialize = (userId: string, nowMs: number): void => {
    if (materialized.has(userId)) return;
    materializeTx(userId, nowMs);
    // inside an enclosing transaction the rows could still be rolled back: remember only committed work
    if (!db.inTransaction) materialized.add(userId);
  };

  /**
   * Generate and insert one account's transactions (same anchor as its accounts). The generator
   * emits them newest first with unique booking instants, so `seq` (the row's position in the
   * page order, used by countTransactions) is simply the emission index.
   */
  const transactionsTx = db.transaction((accountId: string) => {
    const acc = pendingAccount.get(accountId) as
      { user_id: string; position: number; transactions_ready: number; anchor_at: string } | undefined;
    if (!acc || acc.transactions_ready === 1) return;
    let params: unknown[] = [];
    let seq = 0;
    generateUser(
      acc.user_id,
      Date.parse(acc.anchor_at),
      (t) => {
        params.push(
          t.accountId,
          t.transactionId,
          formatMinor(t.amountMinor),
          t.currency,
          t.description,
          iso(t.bookingMs),
          iso(t.valueMs),
          t.counterpartyName,
          t.counterpartyIban,
          t.reference,
          t.type,
          t.status,
          seq++,
        );
        if (params.length === BATCH * WIDTH) {
          insertTxBatch.run(params);
          params = [];
        }
      },
      acc.position,
    );
    for (let i = 0; i < params.length; i += WIDTH) insertTx.run(params.slice(i, i + WIDTH));
    markReady.run(accountId);
  });
  // An account's transactions never change once stored (generated once, never updated or
  // deleted), so a page and a count are functions of their query's arguments alone: kept, they
  // are answered again without SQLite. Bounded: the least recently used go first.
  const pages = options.pageCache
    ? new LRUCache<string, readonly TransactionRow[]>({ maxSize: KEPT_TRANSACTIONS, sizeCalculation: (rows) => Math.max(rows.length, 1) })
    : undefined;
  const counts = options.pageCache ? new LRUCache<string, number>({ max: KEPT_TRANSACTIONS }) : undefined;
  const ensureTransactions = (accountId: string): void => {
    if (readyAccounts.has(accountId)) return;
    transactionsTx(accountId);
    if (!db.inTransaction) readyAccounts.add(accountId);
  };

  return {
    /** Generate and store the user's accounts unless they are there already (one transaction). */
    ensureUser(userId: string, nowMs: number): void {
      materialize(userId, nowMs);
    },
    /** The user's accounts in a stable order (materializes them first). */
    listAccounts(userId: string, nowMs: number): AccountRow[] {
      materialize(userId, nowMs);
      return accountsOf.all(userId) as AccountRow[];
    },
    /** The account if it belongs to `userId` (materializes that user first), else undefined. */
    getAccount(userId: string, accountId: string, nowMs: number): AccountRow | undefined {
      materialize(userId, nowMs);
      const row = accountById.get(accountId) as AccountRow | undefined;
      return row && row.user_id === userId ? row : undefined;
    },
    /** Generate and store the account's transactions unless they are there already (one transaction). */
    ensureTransactions,
    countTransactions(accountId: string, window: DateWindow): number {
      const key = `${accountId}\n${window.from}\n${window.to}`;
      const kept = counts?.get(key);
      if (kept !== undefined) return kept;
      ensureTransactions(accountId);
      const first = newestSeqUpTo.get(accountId, window.to) as number | undefined;
      const last = oldestSeqFrom.get(accountId, window.from) as number | undefined;
      const count = first === undefined || last === undefined || last < first ? 0 : last - first + 1;
      if (readyAccounts.has(accountId)) counts?.set(key, count);
      return count;
    },
    /** Newest first, at most `limit`. The rows are shared between reads: never change them. */
    listTransactions(accountId: string, window: DateWindow, limit: number): readonly TransactionRow[] {
      const key = `${accountId}\n${window.from}\n${window.to}\n${limit}`;
      const kept = pages?.get(key);
      if (kept !== undefined) return kept;
      ensureTransactions(accountId);
      const rows = pageTx.all(accountId, window.from, window.to, limit) as TransactionRow[];
      if (readyAccounts.has(accountId)) pages?.set(key, Object.freeze(rows));
      return rows;
    },
    /** Drop every kept page and count (a test compares a kept answer with a fresh read). */
    forgetKeptPages(): void {
      pages?.clear();
      counts?.clear();
    },
    /** The booking date of the account's newest booked transaction (none: undefined). */
    newestBookedAt(accountId: string): string | undefined {
      ensureTransactions(accountId);
      return newestBooked.get(accountId) as string | undefined;
    },
    /** For tests and docs: the plan SQLite uses for the transaction page query. */
    explainTransactionPage(): string[] {
      return (db.prepare(`EXPLAIN QUERY PLAN ${pageTx.source}`).all('a', 'b', 'c', 1) as { detail: string }[]).map((r) => r.detail);
    },
  };
}
