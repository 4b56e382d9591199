/**
 * Sandbox bank data (migration 010_ais): a user's accounts and transactions are generated from
 * fixtures/ on first access and stored in one transaction, so every later read is plain SQL on
 * an index: transactions by (account_id, booking_date DESC, transaction_id) for paging and date
 * windows, never a scan in JavaScript. The 100,000-transaction user materializes in well under
 * a second.
 */
import { anchorFor, formatMinor, generateUser } from '../../fixtures/generate.js';
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

export function accountStore(db: Db) {
  const userRow = db.prepare('SELECT anchor_at FROM ais_users WHERE user_id = ?').pluck();
  const insertUser = db.prepare('INSERT INTO ais_users (user_id, anchor_at, materialized_at) VALUES (?, ?, ?)');
  const insertAccount = db.prepare(
    `INSERT INTO ais_accounts (account_id, user_id, position, bank_id, account_holder_name, iban, currency, balance, account_type, details, last_updated)
     VALUES (@account_id, @user_id, @position, @bank_id, @account_holder_name, @iban, @currency, @balance, @account_type, @details, @last_updated)`,
  );
  const TX_COLUMNS = `(account_id, transaction_id, amount, currency, description, booking_date, value_date,
       counterparty_name, counterparty_iban, reference, type, status)`;
  const ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
  /** Multi-row insert: one statement per BATCH rows is several times faster than one per row. */
  const BATCH = 100;
  const insertTx = db.prepare(`INSERT INTO ais_transactions ${TX_COLUMNS} VALUES ${ROW}`);
  const insertTxBatch = db.prepare(`INSERT INTO ais_transactions ${TX_COLUMNS} VALUES ${Array(BATCH).fill(ROW).join(', ')}`);
  const accountsOf = db.prepare('SELECT * FROM ais_accounts WHERE user_id = ? ORDER BY position');
  const accountById = db.prepare('SELECT * FROM ais_accounts WHERE account_id = ?');
  // totalTransactions in O(log n): `seq` is each row's position in the page order (booking_date
  // DESC, transaction_id), so the rows of a window are the seq range from the newest row at or
  // before `to` to the oldest row at or after `from` (two index seeks, whatever the account size).
  const newestSeqUpTo = db
    .prepare('SELECT seq FROM ais_transactions WHERE account_id = ? AND booking_date <= ? ORDER BY booking_date DESC, transaction_id LIMIT 1')
    .pluck();
  const oldestSeqFrom = db
    .prepare('SELECT seq FROM ais_transactions WHERE account_id = ? AND booking_date >= ? ORDER BY booking_date ASC, transaction_id DESC LIMIT 1')
    .pluck();
  const rankAccount = db.prepare(
    `UPDATE ais_transactions SET seq = r.rn
       FROM (SELECT rowid AS rid, row_number() OVER (ORDER BY booking_date DESC, transaction_id) - 1 AS rn
               FROM ais_transactions WHERE account_id = ?) AS r
      WHERE ais_transactions.rowid = r.rid`,
  );
  /** Users known to be materialized (rows are never deleted), so reads skip the check. */
  const materialized = new Set<string>();
  const pageTx = db.prepare(
    `SELECT * FROM ais_transactions WHERE account_id = ? AND booking_date >= ? AND booking_date <= ?
     ORDER BY booking_date DESC, transaction_id LIMIT ?`,
  );

  const materializeTx = db.transaction((userId: string, nowMs: number) => {
    if (userRow.get(userId) !== undefined) return;
    const anchorMs = anchorFor(nowMs);
    insertUser.run(userId, iso(anchorMs), iso(nowMs));
    let params: unknown[] = [];
    const accounts = generateUser(userId, anchorMs, (t) => {
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
      );
      if (params.length === BATCH * 12) {
        insertTxBatch.run(params);
        params = [];
      }
    });
    for (let i = 0; i < params.length; i += 12) insertTx.run(params.slice(i, i + 12));
    for (const a of accounts) {
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
      rankAccount.run(a.accountId);
    }
  });
  const materialize = (userId: string, nowMs: number): void => {
    if (materialized.has(userId)) return;
    materializeTx(userId, nowMs);
    // inside an enclosing transaction the rows could still be rolled back: remember only committed work
    if (!db.inTransaction) materialized.add(userId);
  };

  return {
    /** Generate and store the user's bank data unless it is there already (one transaction). */
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
    countTransactions(accountId: string, window: DateWindow): number {
      const first = newestSeqUpTo.get(accountId, window.to) as number | undefined;
      const last = oldestSeqFrom.get(accountId, window.from) as number | undefined;
      return first === undefined || last === undefined || last < first ? 0 : last - first + 1;
    },
    /** Newest first, at most `limit`. */
    listTransactions(accountId: string, window: DateWindow, limit: number): TransactionRow[] {
      return pageTx.all(accountId, window.from, window.to, limit) as TransactionRow[];
    },
    /** For tests and docs: the plan SQLite uses for the transaction page query. */
    explainTransactionPage(): string[] {
      return (db.prepare(`EXPLAIN QUERY PLAN ${pageTx.source}`).all('a', 'b', 'c', 1) as { detail: string }[]).map((r) => r.detail);
    },
  };
}
export type AccountStore = ReturnType<typeof accountStore>;
