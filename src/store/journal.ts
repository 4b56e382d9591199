/**
 * The request journal's pages: the entries of one partner written together (one write of the
 * journal, src/journal/index.ts) as one row holding a JSON array of them, in the order of their
 * ids, and the bodies of their answers apart (a verification and the index read every entry of a
 * journal, and need no answer). A row per entry with its covering index cost about three times as much to write (docs/
 * performance.md, "The request journal's cost"); the journal finds entries through the index it
 * keeps in memory, and reads a page when it shows one of its entries.
 *
 * Entry ids increase across the whole database and are never handed out twice: the highest one
 * handed out is kept in `meta` with each page, since every page of a journal can be deleted.
 */
import type { Db } from './db.js';

export interface JournalPageRow {
  first_id: number;
  last_id: number;
  /** JSON array of entries without their answers' bodies (src/journal/pages.ts). */
  data: string;
  /** JSON array of the answers' bodies, in the same order (null when not read). */
  answers: string | null;
}

export interface NewJournalPage extends JournalPageRow {
  partner_id: string;
  answers: string;
  entries: number;
  bytes: number;
}

const LAST_ID_KEY = 'journal_last_id';

export function journalStore(db: Db) {
  const insert = db.prepare(
    'INSERT INTO journal_pages (partner_id, first_id, last_id, entries, bytes, data, answers) VALUES (@partner_id, @first_id, @last_id, @entries, @bytes, @data, @answers)',
  );
  const keepLastId = db.prepare(
    `INSERT INTO meta (key, value) VALUES ('${LAST_ID_KEY}', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
  );
  const lastId = db
    .prepare(
      `SELECT max(coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '${LAST_ID_KEY}'), 0),
                coalesce((SELECT max(last_id) FROM journal_pages), 0))`,
    )
    .pluck();
  const pages = db.prepare(
    'SELECT first_id, last_id, data, NULL AS answers FROM journal_pages WHERE partner_id = CAST(? AS TEXT) AND last_id > ? ORDER BY first_id',
  );
  const page = db.prepare('SELECT first_id, last_id, data, answers FROM journal_pages WHERE partner_id = ? AND first_id = ?');
  const deleteBelow = db.prepare('DELETE FROM journal_pages WHERE partner_id = ? AND last_id < ?');
  const clear = db.prepare('DELETE FROM journal_pages WHERE partner_id = ?');

  return {
    /** Append a page (call inside a transaction). */
    insert(p: NewJournalPage): void {
      insert.run(p);
      keepLastId.run(String(p.last_id));
    },
    /** The highest entry id ever handed out (0: none). */
    lastId: (): number => Number(lastId.get()),
    /** The partner's pages holding entries newer than `afterId`, oldest first, without the answers. */
    pages: (partnerId: string, afterId = 0): JournalPageRow[] => pages.all(partnerId, afterId) as JournalPageRow[],
    /** One page, answers included, by the id of its first entry. */
    page: (partnerId: string, firstId: number): JournalPageRow | undefined => page.get(partnerId, firstId) as JournalPageRow | undefined,
    /** Delete the partner's pages whose entries are all older than `id`; how many. */
    deleteBelow: (partnerId: string, id: number): number => deleteBelow.run(partnerId, id).changes,
    /** Delete every page of the partner; how many. */
    clear: (partnerId: string): number => clear.run(partnerId).changes,
  };
}
