/**
 * A database as it was before a migration shipped: every earlier migration applied and
 * recorded, so `migrate(db)` then applies the one under test to existing rows.
 */
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/store/migrations.js';

export function databaseBefore(migration: string): Database.Database {
  const before = MIGRATIONS.findIndex((m) => m.name === migration);
  if (before <= 0) throw new Error(`no migration ${migration} with others before it`);
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  for (const m of MIGRATIONS.slice(0, before)) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(m.name, 'then');
  }
  return db;
}
