/**
 * Schema migrations, applied in array order, each once (tracked by name in schema_migrations).
 * Append new migrations; never edit one that has shipped in a release.
 *
 * Conventions: ids of partner-visible numeric resources are INTEGER PRIMARY KEY AUTOINCREMENT
 * (never reused, so a deleted id never points at someone else's row); timestamps are ISO 8601
 * TEXT with milliseconds from the virtual clock; times the scheduler compares are INTEGER ms.
 * Every partner-owned row carries partner_id and every query filters on it. Migrations 100 and
 * later are in ./migrations-100.ts (this file had grown past the size a file may have); new ones
 * go there.
 */
import { MIGRATIONS_FROM_100 } from './migrations-100.js';

export interface Migration {
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  {
    name: '001_core',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE merchants (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        partner_id TEXT NOT NULL,
        client_id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('standard', 'fast_track', 'test')),
        status TEXT NOT NULL,
        company_name TEXT NOT NULL,
        contact_email TEXT,
        contact_phone TEXT,
        partner_ref_id TEXT,
        details TEXT NOT NULL DEFAULT '{}',
        sub_tpp_id TEXT,
        sub_tpp_status TEXT,
        sub_tpp_message TEXT,
        onboarding_token TEXT UNIQUE,
        onboarding_expires_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX merchants_partner ON merchants (partner_id, id);
      -- merchant ids start at 100001 so they never look like list positions
      INSERT INTO sqlite_sequence (name, seq) VALUES ('merchants', 100000);

      CREATE TABLE stores (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        partner_id TEXT NOT NULL,
        merchant_id INTEGER NOT NULL REFERENCES merchants (id),
        name TEXT NOT NULL,
        details TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL
      );
      CREATE INDEX stores_merchant ON stores (merchant_id, id);

      CREATE TABLE payments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        partner_id TEXT NOT NULL,
        merchant_id INTEGER NOT NULL REFERENCES merchants (id),
        merchant_client_id TEXT NOT NULL,
        amount_minor INTEGER NOT NULL,
        currency TEXT NOT NULL,
        reference_number TEXT NOT NULL,
        status TEXT NOT NULL,
        bank_payment_status TEXT,
        failure_reason TEXT,
        bank_id TEXT,
        payment_token TEXT NOT NULL UNIQUE,
        expires_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX payments_partner ON payments (partner_id, id);
      INSERT INTO sqlite_sequence (name, seq) VALUES ('payments', 5000000);

      CREATE TABLE webhooks (
        id TEXT PRIMARY KEY,
        partner_id TEXT NOT NULL,
        url TEXT NOT NULL,
        events TEXT NOT NULL,
        secret TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX webhooks_partner ON webhooks (partner_id);

      -- The outbox. An event row is written in the same transaction as the state change that
      -- caused it, with one delivery row per subscribed webhook; the worker sends after commit.
      CREATE TABLE events (
        id TEXT PRIMARY KEY,
        partner_id TEXT NOT NULL,
        name TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX events_partner ON events (partner_id, created_at);

      CREATE TABLE deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL REFERENCES events (id),
        webhook_id TEXT NOT NULL,
        partner_id TEXT NOT NULL,
        url TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'delivering', 'delivered', 'failed')),
        status_code INTEGER,
        outcome TEXT,
        error TEXT,
        duration_ms INTEGER,
        attempted_at TEXT,
        redelivery_of INTEGER,
        created_at TEXT NOT NULL
      );
      CREATE INDEX deliveries_partner ON deliveries (partner_id, id);
      CREATE INDEX deliveries_open ON deliveries (state) WHERE state IN ('pending', 'delivering');

      -- Due transitions (settlement, expiry, approval). due_at is virtual-clock ms.
      CREATE TABLE timers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        partner_id TEXT NOT NULL,
        due_at INTEGER NOT NULL,
        aggregate TEXT NOT NULL,
        aggregate_id TEXT NOT NULL,
        trigger TEXT NOT NULL
      );
      CREATE INDEX timers_due ON timers (due_at, id);
      CREATE INDEX timers_aggregate ON timers (aggregate, aggregate_id);
    `,
  },
  {
    // webhook worker: the signature sent with each attempt (hex HMAC-SHA256 of the event body)
    name: '040_delivery_signature',
    sql: `
      ALTER TABLE deliveries ADD COLUMN signature TEXT;
      CREATE INDEX deliveries_event ON deliveries (event_id);
    `,
  },
  {
    // AIS (account information): consents, and the sandbox bank data materialized per user on
    // first access (fixtures/generate.ts). Consents belong to a merchant; the partner is the
    // merchant's (join on merchants). Transactions are read by (account, booking date) ranges.
    name: '010_ais',
    sql: `
      CREATE TABLE consents (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        request_id TEXT NOT NULL UNIQUE,
        merchant_id INTEGER NOT NULL REFERENCES merchants (id),
        user_id TEXT NOT NULL,
        permissions TEXT NOT NULL,
        expiration_date_time TEXT NOT NULL,
        transaction_from_date_time TEXT NOT NULL,
        callback_url TEXT,
        status TEXT NOT NULL CHECK (status IN ('pending', 'authorized', 'expired', 'revoked', 'failed')),
        consent_id TEXT UNIQUE,
        error_message TEXT,
        bank_id TEXT,
        auth_token TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX consents_user ON consents (user_id, merchant_id, id);
      CREATE INDEX consents_merchant ON consents (merchant_id);

      CREATE TABLE ais_users (
        user_id TEXT PRIMARY KEY,
        anchor_at TEXT NOT NULL,
        materialized_at TEXT NOT NULL
      );

      CREATE TABLE ais_accounts (
        account_id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES ais_users (user_id),
        position INTEGER NOT NULL,
        bank_id TEXT NOT NULL,
        account_holder_name TEXT NOT NULL,
        iban TEXT NOT NULL,
        currency TEXT NOT NULL,
        balance TEXT NOT NULL,
        account_type TEXT NOT NULL,
        details TEXT NOT NULL,
        last_updated TEXT NOT NULL
      );
      CREATE INDEX ais_accounts_user ON ais_accounts (user_id, position);

      CREATE TABLE ais_transactions (
        account_id TEXT NOT NULL,
        transaction_id TEXT NOT NULL,
        amount TEXT NOT NULL,
        currency TEXT NOT NULL,
        description TEXT NOT NULL,
        booking_date TEXT NOT NULL,
        value_date TEXT NOT NULL,
        counterparty_name TEXT NOT NULL,
        counterparty_iban TEXT NOT NULL,
        reference TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('debit', 'credit')),
        status TEXT NOT NULL CHECK (status IN ('booked', 'pending'))
      );
      CREATE INDEX ais_transactions_by_date ON ais_transactions (account_id, booking_date DESC, transaction_id);
    `,
  },
  {
    // performance: the webhook worker claims `state = 'pending' ORDER BY id` after every commit and
    // resumes `state = 'delivering'` at start. SQLite cannot use deliveries_open (a partial index on
    // `state IN (...)`) for `state = 'pending'`, so both were full scans of a table that only grows.
    // Partial indexes on each open state hold only the open rows (cheap to maintain) and serve both
    // queries; the unused deliveries_open is dropped. Checked by test/perf/query-plans.test.ts.
    name: '090_perf_delivery_indexes',
    sql: `
      CREATE INDEX deliveries_pending ON deliveries (id) WHERE state = 'pending';
      CREATE INDEX deliveries_delivering ON deliveries (id) WHERE state = 'delivering';
      DROP INDEX deliveries_open;
    `,
  },
  {
    // performance: totalTransactions was count(*) over the window, a walk over every matching
    // index entry (100,000 for the large sandbox user) on each page request. `seq` is the row's
    // position in the page order per account, set when a user is materialized, so a window's
    // count is two index seeks (src/store/accounts.ts countTransactions). Existing rows are ranked here.
    name: '091_perf_transaction_seq',
    sql: `
      ALTER TABLE ais_transactions ADD COLUMN seq INTEGER;
      UPDATE ais_transactions SET seq = r.rn
        FROM (SELECT rowid AS rid, row_number() OVER (PARTITION BY account_id ORDER BY booking_date DESC, transaction_id) - 1 AS rn
                FROM ais_transactions) AS r
       WHERE ais_transactions.rowid = r.rid;
    `,
  },
  {
    // Transactions of an account are generated on its first transaction read, not with the
    // accounts (listing the 100,000-transaction user's accounts stays instant). Rows written
    // before this migration already have their transactions: default 1.
    name: '011_ais_lazy_transactions',
    sql: `ALTER TABLE ais_accounts ADD COLUMN transactions_ready INTEGER NOT NULL DEFAULT 1;`,
  },
  {
    // performance: a payment insert maintained three B-trees (the row, payments_partner and the
    // UNIQUE payment_token index, a random key and so a random leaf page per insert), and each
    // dirty page is a WAL frame written at commit. The hosted-page token is now derived from the
    // id (HMAC with a per-database secret, src/store/payments.ts), so it needs no column and no
    // index; payments_partner only served the per-partner reset, which may scan. SQLite cannot
    // drop a UNIQUE constraint, hence the rebuild. Links handed out before it stop working.
    name: '092_perf_payment_writes',
    sql: `
      CREATE TABLE payments_v2 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        partner_id TEXT NOT NULL,
        merchant_id INTEGER NOT NULL REFERENCES merchants (id),
        merchant_client_id TEXT NOT NULL,
        amount_minor INTEGER NOT NULL,
        currency TEXT NOT NULL,
        reference_number TEXT NOT NULL,
        status TEXT NOT NULL,
        bank_payment_status TEXT,
        failure_reason TEXT,
        bank_id TEXT,
        expires_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      INSERT INTO payments_v2 (id, partner_id, merchant_id, merchant_client_id, amount_minor, currency, reference_number,
          status, bank_payment_status, failure_reason, bank_id, expires_at, created_at, updated_at)
        SELECT id, partner_id, merchant_id, merchant_client_id, amount_minor, currency, reference_number,
          status, bank_payment_status, failure_reason, bank_id, expires_at, created_at, updated_at FROM payments;
      -- keep the id sequence (ids start at 5000001 and are never reused)
      DELETE FROM sqlite_sequence WHERE name = 'payments_v2';
      INSERT INTO sqlite_sequence (name, seq) SELECT 'payments_v2', seq FROM sqlite_sequence WHERE name = 'payments';
      DROP TABLE payments;
      ALTER TABLE payments_v2 RENAME TO payments;
    `,
  },
  {
    // The payer in control: the instant the hosted payment page was first opened while the payment
    // was pending. From then on the sandbox's automatic outcome no longer applies; the payment
    // waits for the payer's decision or its expiry (src/domain/payment.ts paymentTimer).
    name: '093_payment_page_opened',
    sql: `ALTER TABLE payments ADD COLUMN page_opened_at TEXT;`,
  },
  {
    // Sandboxes: isolated worlds, each with one partner credential (client id = sandbox id), its
    // own virtual clock and settings overrides. The configured partners live in the sandbox
    // 'default' (no row: its clock stays in meta clock.state). A deleted or expired sandbox keeps
    // its row as a tombstone (deleted_at) so its credentials answer 401 sandbox_gone. Timers run
    // on their sandbox's clock: sandbox_id leads the due index.
    name: '094_sandboxes',
    sql: `
      CREATE TABLE sandboxes (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        secret_digest TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_used_ms INTEGER NOT NULL,
        ttl_ms INTEGER NOT NULL,
        clock_offset_ms REAL NOT NULL DEFAULT 0,
        clock_frozen_at_ms REAL,
        settings TEXT NOT NULL DEFAULT '{}',
        deleted_at TEXT,
        deleted_reason TEXT
      );
      ALTER TABLE timers ADD COLUMN sandbox_id TEXT NOT NULL DEFAULT 'default';
      DROP INDEX timers_due;
      CREATE INDEX timers_due ON timers (sandbox_id, due_at, id);
    `,
  },
  {
    // Snapshots of a sandbox (src/store/snapshots.ts): its rows as JSON and its clock's instant.
    // Names are unique in the process: a sandbox can be started from any snapshot by name.
    name: '095_snapshots',
    sql: `
      CREATE TABLE snapshots (
        name TEXT PRIMARY KEY,
        partner_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        clock_now_ms REAL NOT NULL,
        clock_frozen INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX snapshots_partner ON snapshots (partner_id);
    `,
  },
  {
    // The request journal (src/store/journal.ts): one row per answered request, per partner.
    // journal_scan holds every column a list filter (and the trim of the oldest) reads, so a filtered page walks the index
    // only (no row, with its bodies, is read until it is on the page).
    name: '096_journal',
    sql: `
      CREATE TABLE journal (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        partner_id TEXT NOT NULL,
        at TEXT NOT NULL,
        wall_at TEXT NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        status INTEGER NOT NULL,
        error_code TEXT,
        error_field TEXT,
        duration_ms REAL NOT NULL,
        request_id TEXT NOT NULL,
        size INTEGER NOT NULL,
        query TEXT NOT NULL,
        headers TEXT NOT NULL,
        resources TEXT NOT NULL,
        request_body TEXT,
        request_body_truncated INTEGER NOT NULL,
        response_body TEXT,
        response_body_truncated INTEGER NOT NULL
      );
      CREATE INDEX journal_scan ON journal (partner_id, id, method, status, error_code, at, size, path);
    `,
  },
  {
    // The delivery log filtered by state (GET /_sandbox/deliveries?state=failed) walks this index
    // newest first instead of every delivery of the partner (store/deliveries.ts list).
    name: '097_deliveries_by_state',
    sql: 'CREATE INDEX deliveries_partner_state ON deliveries (partner_id, state, id)',
  },
  {
    // A sandbox's payments, newest first (GET /_sandbox/payments, the overview's counts, reset and
    // sandbox deletion) read only that sandbox's rows instead of every payment of the file. 092
    // dropped it when only reset used it; it costs about 2 us of a payment insert's ~150.
    name: '098_payments_by_partner',
    sql: 'CREATE INDEX payments_partner ON payments (partner_id, id)',
  },
  {
    // The journal in pages (src/store/journal.ts): the entries of one write of a partner's journal
    // in one row, found through the index the journal keeps in memory (a row per entry with its
    // covering index cost three times as much per request). Each old row becomes a page of one
    // entry (the tuple of src/journal/pages.ts); the highest id handed out is kept in meta.
    name: '099_journal_pages',
    sql: `
      CREATE TABLE journal_pages (
        first_id INTEGER PRIMARY KEY,
        partner_id TEXT NOT NULL,
        last_id INTEGER NOT NULL,
        entries INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        data TEXT NOT NULL,
        answers TEXT NOT NULL
      );
      CREATE INDEX journal_pages_partner ON journal_pages (partner_id, last_id);
      INSERT INTO journal_pages (first_id, partner_id, last_id, entries, bytes, data, answers)
        SELECT id, partner_id, id, 1, size,
          json_array(json_array(id, at, wall_at, method, path, status, error_code, error_field, duration_ms, request_id, size,
            json(query), json(headers), json(resources), NULL, request_body, request_body_truncated, response_body_truncated)),
          json_array(response_body)
        FROM journal;
      INSERT OR REPLACE INTO meta (key, value)
        VALUES ('journal_last_id', CAST(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'journal'), 0) AS TEXT));
      DROP TABLE journal;
    `,
  },
  ...MIGRATIONS_FROM_100,
];
