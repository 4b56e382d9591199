/**
 * When the database itself fails: the disk is full, the file or its directory became read-only,
 * another process holds the lock, an I/O error, a damaged file. SQLite reports these with its
 * result codes (better-sqlite3's SqliteError `code`); this is the one place that reads them.
 * Callers answer 503 `storage_unavailable` while such a fault lasts (nothing was changed; the
 * client may retry) and a start-up refuses with one configuration line.
 */
export type StorageFaultKind = 'disk_full' | 'read_only' | 'locked' | 'io_error' | 'damaged' | 'cannot_open';

export interface StorageFault {
  kind: StorageFaultKind;
  /** What a person reads: the cause, in words, and SQLite's own code. */
  message: string;
}

const WORDS: Record<StorageFaultKind, string> = {
  disk_full: 'the disk holding the database is full',
  read_only: 'the database file or its directory is read-only',
  locked: 'another process holds a lock on the database file',
  io_error: 'the database file could not be read or written (I/O error)',
  damaged: 'the database file is damaged or is not an SQLite database',
  cannot_open: 'the database file cannot be opened',
};

function kindOf(code: string): StorageFaultKind | undefined {
  if (code === 'SQLITE_FULL') return 'disk_full';
  if (code.startsWith('SQLITE_READONLY')) return 'read_only';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'locked';
  if (code.startsWith('SQLITE_IOERR')) return 'io_error';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'damaged';
  if (code.startsWith('SQLITE_CANTOPEN')) return 'cannot_open';
  return undefined;
}

/** The storage fault `err` reports, or undefined for any other error (a defect, bad SQL, …). */
export function storageFault(err: unknown): StorageFault | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const kind = kindOf(code);
  return kind ? { kind, message: `${WORDS[kind]} (${code})` } : undefined;
}
