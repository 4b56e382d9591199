/** Which SQLite result codes are storage faults (src/store/faults.ts), and what they say. */
import Database from 'better-sqlite3';
import t from 'tap';
import { storageFault } from '../../src/store/faults.js';

t.test('SQLite codes of a failing database are storage faults; others are not', async (t) => {
  const fault = (code: string) => storageFault(new Database.SqliteError('x', code))?.kind;
  t.equal(fault('SQLITE_FULL'), 'disk_full');
  t.equal(fault('SQLITE_READONLY'), 'read_only');
  t.equal(fault('SQLITE_READONLY_DBMOVED'), 'read_only');
  t.equal(fault('SQLITE_BUSY'), 'locked');
  t.equal(fault('SQLITE_BUSY_SNAPSHOT'), 'locked');
  t.equal(fault('SQLITE_LOCKED'), 'locked');
  t.equal(fault('SQLITE_IOERR_WRITE'), 'io_error');
  t.equal(fault('SQLITE_IOERR_FSYNC'), 'io_error');
  t.equal(fault('SQLITE_CORRUPT'), 'damaged');
  t.equal(fault('SQLITE_NOTADB'), 'damaged');
  t.equal(fault('SQLITE_CANTOPEN'), 'cannot_open');
  // a defect, not the storage: still a 500
  t.equal(fault('SQLITE_CONSTRAINT_UNIQUE'), undefined);
  t.equal(fault('SQLITE_ERROR'), undefined);
  t.equal(storageFault(new Error('plain')), undefined);
  t.equal(storageFault(undefined), undefined);
  t.match(storageFault(new Database.SqliteError('x', 'SQLITE_FULL'))?.message, /disk .* full \(SQLITE_FULL\)/);
});
