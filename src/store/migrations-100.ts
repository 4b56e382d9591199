/**
 * Schema migrations 100 and later (src/store/migrations.ts has the ones before, and the rules):
 * applied after them, in array order, each once. Append new migrations; never edit one that has
 * shipped in a release.
 */
export const MIGRATIONS_FROM_100: { name: string; sql: string }[] = [
  {
    // check-receiver runs made from the server against a sandbox's registered webhooks: the
    // readiness report's evidence that its receiver verifies signatures (src/store/readiness.ts)
    name: '100_receiver_checks',
    sql: `
      CREATE TABLE receiver_checks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        partner_id TEXT NOT NULL,
        webhook_id TEXT NOT NULL,
        url TEXT NOT NULL,
        passed INTEGER NOT NULL,
        forged_accepted INTEGER NOT NULL,
        checked_at TEXT NOT NULL,
        report TEXT NOT NULL
      );
      CREATE INDEX receiver_checks_partner ON receiver_checks (partner_id, id);
    `,
  },
  {
    // seeded chaos (src/domain/chaos.ts): the fault profile in force per sandbox ('default' for
    // the configured partners'), and the fault a delivery was given (JSON {rule, kind}; null: none)
    name: '101_fault_profiles',
    sql: `
      CREATE TABLE fault_profiles (
        sandbox_id TEXT PRIMARY KEY,
        profile TEXT NOT NULL,
        set_at TEXT NOT NULL
      );
      ALTER TABLE deliveries ADD COLUMN fault TEXT;
    `,
  },
  {
    // Transitions (src/store/transitions.ts): every state change of a payment, merchant or
    // consent, with its cause and the trace it belongs to; the trace context also travels on the
    // timers a change schedules and the events it emits, and each delivery attempt keeps the
    // traceparent it sent and when it was queued (wall clock, for the delivery lag metric)
    // (docs/operations.md). A resource that
    // exists already gets one transition into its current state (cause kind 'migration'), so the
    // readiness report still counts what it reached.
    name: '102_transitions',
    sql: `
      CREATE TABLE transitions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        partner_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        resource_id TEXT NOT NULL,
        from_state TEXT,
        to_state TEXT NOT NULL,
        reason TEXT,
        at TEXT NOT NULL,
        cause_kind TEXT NOT NULL,
        cause_name TEXT NOT NULL,
        request_id TEXT,
        traceparent TEXT
      );
      CREATE INDEX transitions_partner ON transitions (partner_id, id);
      ALTER TABLE events ADD COLUMN traceparent TEXT;
      ALTER TABLE timers ADD COLUMN traceparent TEXT;
      ALTER TABLE deliveries ADD COLUMN traceparent TEXT;
      ALTER TABLE deliveries ADD COLUMN queued_at_ms INTEGER;
      INSERT INTO transitions (partner_id, resource, resource_id, from_state, to_state, reason, at, cause_kind, cause_name)
        SELECT partner_id, 'merchant', CAST(id AS TEXT), NULL, status, NULL, updated_at, 'migration', 'state when transitions began to be recorded'
        FROM merchants ORDER BY id;
      INSERT INTO transitions (partner_id, resource, resource_id, from_state, to_state, reason, at, cause_kind, cause_name)
        SELECT partner_id, 'payment', CAST(id AS TEXT), NULL, status, failure_reason, updated_at, 'migration', 'state when transitions began to be recorded'
        FROM payments ORDER BY id;
      INSERT INTO transitions (partner_id, resource, resource_id, from_state, to_state, reason, at, cause_kind, cause_name)
        SELECT m.partner_id, 'consent', c.request_id, NULL, c.status, NULL, c.updated_at, 'migration', 'state when transitions began to be recorded'
        FROM consents c JOIN merchants m ON m.id = c.merchant_id ORDER BY c.id;
    `,
  },
  {
    // Payments, merchants and consents counted by state (GET /metrics, src/store/metrics.ts),
    // kept by triggers in the transaction of every write, rolled back with it: a scrape reads a
    // few rows instead of scanning the tables.
    name: '103_state_counts',
    sql: `
      CREATE TABLE state_counts (
        resource TEXT NOT NULL,
        state TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (resource, state)
      ) WITHOUT ROWID;
      INSERT INTO state_counts (resource, state, n) SELECT 'payment', status, count(*) FROM payments GROUP BY status;
      CREATE TRIGGER payments_counted_insert AFTER INSERT ON payments BEGIN
        INSERT INTO state_counts (resource, state, n) VALUES ('payment', NEW.status, 1)
          ON CONFLICT (resource, state) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER payments_counted_update AFTER UPDATE OF status ON payments WHEN OLD.status IS NOT NEW.status BEGIN
        UPDATE state_counts SET n = n - 1 WHERE resource = 'payment' AND state = OLD.status;
        INSERT INTO state_counts (resource, state, n) VALUES ('payment', NEW.status, 1)
          ON CONFLICT (resource, state) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER payments_counted_delete AFTER DELETE ON payments BEGIN
        UPDATE state_counts SET n = n - 1 WHERE resource = 'payment' AND state = OLD.status;
      END;
      INSERT INTO state_counts (resource, state, n) SELECT 'merchant', status, count(*) FROM merchants GROUP BY status;
      CREATE TRIGGER merchants_counted_insert AFTER INSERT ON merchants BEGIN
        INSERT INTO state_counts (resource, state, n) VALUES ('merchant', NEW.status, 1)
          ON CONFLICT (resource, state) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER merchants_counted_update AFTER UPDATE OF status ON merchants WHEN OLD.status IS NOT NEW.status BEGIN
        UPDATE state_counts SET n = n - 1 WHERE resource = 'merchant' AND state = OLD.status;
        INSERT INTO state_counts (resource, state, n) VALUES ('merchant', NEW.status, 1)
          ON CONFLICT (resource, state) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER merchants_counted_delete AFTER DELETE ON merchants BEGIN
        UPDATE state_counts SET n = n - 1 WHERE resource = 'merchant' AND state = OLD.status;
      END;
      INSERT INTO state_counts (resource, state, n) SELECT 'consent', status, count(*) FROM consents GROUP BY status;
      CREATE TRIGGER consents_counted_insert AFTER INSERT ON consents BEGIN
        INSERT INTO state_counts (resource, state, n) VALUES ('consent', NEW.status, 1)
          ON CONFLICT (resource, state) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER consents_counted_update AFTER UPDATE OF status ON consents WHEN OLD.status IS NOT NEW.status BEGIN
        UPDATE state_counts SET n = n - 1 WHERE resource = 'consent' AND state = OLD.status;
        INSERT INTO state_counts (resource, state, n) VALUES ('consent', NEW.status, 1)
          ON CONFLICT (resource, state) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER consents_counted_delete AFTER DELETE ON consents BEGIN
        UPDATE state_counts SET n = n - 1 WHERE resource = 'consent' AND state = OLD.status;
      END;
    `,
  },
  {
    // The W3C tracestate a traced request carried travels with its trace: on the events and
    // timers its changes made, so every delivery they cause sends it on (docs/operations.md).
    name: '104_tracestate',
    sql: `
      ALTER TABLE events ADD COLUMN tracestate TEXT;
      ALTER TABLE timers ADD COLUMN tracestate TEXT;
    `,
  },
  {
    // Bank profiles (src/domain/bank-profiles.ts): how a sandbox bank behaves in one sandbox; a
    // payment waiting for the payer's approval in the bank app, or whose payer last tried a bank
    // that was down; the bank and the profile rule behind a transition (docs/banks.md)
    name: '105_bank_profiles',
    sql: `
      CREATE TABLE bank_profiles (
        sandbox_id TEXT NOT NULL,
        bank_id TEXT NOT NULL,
        profile TEXT NOT NULL,
        set_at TEXT NOT NULL,
        PRIMARY KEY (sandbox_id, bank_id)
      ) WITHOUT ROWID;
      ALTER TABLE payments ADD COLUMN app_approval_requested_at TEXT;
      ALTER TABLE payments ADD COLUMN bank_rule TEXT;
      ALTER TABLE payments ADD COLUMN bank_unavailable_id TEXT;
      ALTER TABLE payments ADD COLUMN bank_unavailable_at TEXT;
      ALTER TABLE transitions ADD COLUMN bank_id TEXT;
      ALTER TABLE transitions ADD COLUMN bank_rule TEXT;
      ALTER TABLE events ADD COLUMN bank TEXT;
    `,
  },
  {
    // Seeded draws kept with the state they belong to: how many draws a degraded bank's stream
    // and each fault rule's stream have given, written in the transaction of the change that drew,
    // so a rolled-back request gives its draw back and a restart goes on where it stood
    name: '106_seeded_draws',
    sql: `
      ALTER TABLE bank_profiles ADD COLUMN draws INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE fault_profiles ADD COLUMN draws TEXT NOT NULL DEFAULT '[]';
    `,
  },
  {
    // Contract versions (docs/contract-versions.md): a webhook keeps the version it was registered
    // under, and a delivery to it the body that version shapes (null: the event's own body)
    name: '107_contract_versions',
    sql: `
      ALTER TABLE webhooks ADD COLUMN contract_version TEXT;
      ALTER TABLE deliveries ADD COLUMN versioned_body TEXT;
    `,
  },
];
