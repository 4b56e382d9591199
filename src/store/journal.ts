/**
 * The request journal table: one row per answered request, owned by a partner (for a created
 * sandbox, its one partner). Bounded per partner (entries and bytes, oldest dropped first) by the
 * journal plugin through `stats`/`oldest`/`deleteThrough`. A list walks the covering index
 * journal_scan newest first and reads only the rows of its page.
 */
import type { Db } from './db.js';

export interface JournalRow {
  id: number;
  partner_id: string;
  at: string;
  wall_at: string;
  method: string;
  path: string;
  status: number;
  error_code: string | null;
  error_field: string | null;
  duration_ms: number;
  request_id: string;
  size: number;
  /** JSON object. */
  query: string;
  /** JSON object (credentials redacted before they get here). */
  headers: string;
  /** JSON object (JournalResources). */
  resources: string;
  request_body: string | null;
  request_body_truncated: number;
  response_body: string | null;
  response_body_truncated: number;
}

export type NewJournalRow = Omit<JournalRow, 'id'>;

/** The columns a matcher reads (src/domain/journal.ts differences). */
export type MatchableRow = Pick<
  JournalRow,
  'id' | 'method' | 'path' | 'status' | 'error_code' | 'query' | 'headers' | 'request_body' | 'request_body_truncated'
>;

export interface JournalFilter {
  method?: string;
  path?: string;
  pathPrefix?: string;
  status?: number;
  code?: string;
  /** Virtual-clock instants (ISO), inclusive. */
  since?: string;
  until?: string;
  /** Only entries older than this id (the cursor). */
  beforeId?: number;
  /** Only entries newer than this id. */
  afterId?: number;
}

const FILTER = `partner_id = @partner AND id < @before AND id > @after
  AND (@method IS NULL OR method = @method) AND (@path IS NULL OR path = @path)
  AND (@prefix IS NULL OR substr(path, 1, length(@prefix)) = @prefix)
  AND (@status IS NULL OR status = @status) AND (@code IS NULL OR error_code = @code)
  AND (@since IS NULL OR at >= @since) AND (@until IS NULL OR at <= @until)`;

export function journalStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO journal (partner_id, at, wall_at, method, path, status, error_code, error_field, duration_ms, request_id, size,
       query, headers, resources, request_body, request_body_truncated, response_body, response_body_truncated)
     VALUES (@partner_id, @at, @wall_at, @method, @path, @status, @error_code, @error_field, @duration_ms, @request_id, @size,
       @query, @headers, @resources, @request_body, @request_body_truncated, @response_body, @response_body_truncated)`,
  );
  const ids = db.prepare(`SELECT id FROM journal INDEXED BY journal_scan WHERE ${FILTER} ORDER BY id DESC LIMIT @limit`).pluck();
  const byId = db.prepare('SELECT * FROM journal WHERE id = ?');
  const one = db.prepare('SELECT * FROM journal WHERE id = ? AND partner_id = ?');
  const clear = db.prepare('DELETE FROM journal WHERE partner_id = ?');
  const stats = db.prepare('SELECT count(*) AS count, coalesce(sum(size), 0) AS bytes FROM journal WHERE partner_id = ?');
  const oldest = db.prepare('SELECT id, size FROM journal INDEXED BY journal_scan WHERE partner_id = ? ORDER BY id LIMIT ?');
  const deleteThrough = db.prepare('DELETE FROM journal WHERE partner_id = ? AND id <= ?');
  const matchable = db.prepare(
    `SELECT id, method, path, status, error_code, query, headers, request_body, request_body_truncated
       FROM journal WHERE partner_id = ? AND id > ? ORDER BY id DESC LIMIT ?`,
  );

  const params = (partnerId: string, f: JournalFilter, limit: number) => ({
    partner: partnerId,
    before: f.beforeId ?? Number.MAX_SAFE_INTEGER,
    after: f.afterId ?? 0,
    method: f.method ?? null,
    path: f.path ?? null,
    prefix: f.pathPrefix ?? null,
    status: f.status ?? null,
    code: f.code ?? null,
    since: f.since ?? null,
    until: f.until ?? null,
    limit,
  });

  return {
    /** Append an entry (call inside a transaction); its id. */
    insert: (row: NewJournalRow): number => Number(insert.run(row).lastInsertRowid),
    /** Newest first, at most `limit`, only the partner's. */
    list(partnerId: string, filter: JournalFilter, limit: number): JournalRow[] {
      return (ids.all(params(partnerId, filter, limit)) as number[]).map((id) => byId.get(id) as JournalRow);
    },
    get: (partnerId: string, id: number): JournalRow | undefined => one.get(id, partnerId) as JournalRow | undefined,
    /** Delete every entry of the partner; how many. */
    clear: (partnerId: string): number => clear.run(partnerId).changes,
    stats: (partnerId: string): { count: number; bytes: number } => stats.get(partnerId) as { count: number; bytes: number },
    /** The `n` oldest entries' ids and sizes, oldest first. */
    oldest: (partnerId: string, n: number): { id: number; size: number }[] => oldest.all(partnerId, n) as { id: number; size: number }[],
    /** Delete the partner's entries up to and including `id`; how many. */
    deleteThrough: (partnerId: string, id: number): number => deleteThrough.run(partnerId, id).changes,
    /** Newest first, the columns a matcher reads, only entries with a greater id than `afterId`. */
    matchable: (partnerId: string, afterId: number, limit: number): MatchableRow[] =>
      matchable.all(partnerId, afterId, limit) as MatchableRow[],
  };
}
