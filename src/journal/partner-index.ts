/**
 * One partner's journal index, held in memory: for every entry the journal keeps, what a list
 * filter reads (id, instant, method, path, status, code), its size, and where the entry is (held
 * whole until it is written, then the page that holds it). Oldest first; the bounds drop from the
 * front as entries are added.
 */
import type { MatchableEntry, RequestMatcher } from '../domain/journal.js';
import type { StoredEntry } from './pages.js';

/** The filters of a list (GET /_sandbox/requests). */
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

export interface Indexed {
  id: number;
  at: string;
  method: string;
  path: string;
  status: number;
  code: string | null;
  size: number;
  /** The id of the first entry of the page that holds it (0: not written yet). */
  page: number;
  /** The entry itself, until it is written. */
  held: StoredEntry | undefined;
}

export interface IndexBounds {
  maxEntries: number;
  maxBytes: number;
}

/** An index entry of a stored entry (`page`: the page it is in, 0 while it is held). */
export const indexed = (e: StoredEntry, page: number): Indexed => ({
  id: e.id,
  at: e.at,
  method: e.method,
  path: e.path,
  status: e.status,
  code: e.code,
  size: e.size,
  page,
  held: page === 0 ? e : undefined,
});

/** An index entry as a matcher that reads only method, path, status and code sees it. */
export function indexedView(ix: Indexed): MatchableEntry {
  const e: MatchableEntry = { id: ix.id, method: ix.method, path: ix.path, query: {}, headers: {}, status: ix.status };
  if (ix.code !== null) e.code = ix.code;
  return e;
}

/** The criteria of a matcher that need more of an entry than its index holds. */
export const needsWholeEntry = (m: RequestMatcher): boolean =>
  m.query !== undefined ||
  m.body !== undefined ||
  m.jsonPath !== undefined ||
  m.headerPresent !== undefined ||
  m.headerAbsent !== undefined;

function listed(ix: Indexed, f: JournalFilter): boolean {
  return (
    (f.method === undefined || ix.method === f.method) &&
    (f.path === undefined || ix.path === f.path) &&
    (f.pathPrefix === undefined || ix.path.startsWith(f.pathPrefix)) &&
    (f.status === undefined || ix.status === f.status) &&
    (f.code === undefined || ix.code === f.code) &&
    (f.since === undefined || ix.at >= f.since) &&
    (f.until === undefined || ix.at <= f.until)
  );
}

export class PartnerIndex {
  /** Oldest first; those before `start` were dropped by the bounds. */
  private entries: Indexed[] = [];
  private start = 0;
  count = 0;
  bytes = 0;
  /** Pages holding only entries older than this id have been deleted. */
  deletedBelow = 0;
  /** Entries the bounds dropped since the index was loaded. */
  dropped = 0;

  constructor(private readonly bounds: IndexBounds) {}

  /** Add the newest entry and drop the oldest until both bounds hold. */
  add(ix: Indexed): void {
    this.entries.push(ix);
    this.count++;
    this.bytes += ix.size;
    this.keepWithinBounds();
  }

  keepWithinBounds(): void {
    while (this.count > this.bounds.maxEntries || this.bytes > this.bounds.maxBytes) {
      const dropped = this.entries[this.start++];
      this.dropped++;
      this.count--;
      this.bytes -= dropped.size;
    }
    if (this.start > 1024 && this.start * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.start);
      this.start = 0;
    }
  }

  /** The id of the oldest entry kept (`next`, the id the next entry will have, when none is). */
  oldestKept(next: number): number {
    return this.start < this.entries.length ? this.entries[this.start].id : next;
  }

  /** Position of the newest kept entry whose id is below `id` (start - 1: none). */
  private below(id: number): number {
    let lo = this.start;
    let hi = this.entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.entries[mid].id < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi;
  }

  get(id: number): Indexed | undefined {
    const at = this.below(id + 1);
    return at >= this.start && this.entries[at].id === id ? this.entries[at] : undefined;
  }

  /** The kept entries the filter lets through, newest first, at most `limit`. */
  list(filter: JournalFilter, limit: number): Indexed[] {
    const out: Indexed[] = [];
    let i = filter.beforeId === undefined ? this.entries.length - 1 : this.below(filter.beforeId);
    for (; i >= this.start && out.length < limit; i--) {
      const ix = this.entries[i];
      if (filter.afterId !== undefined && ix.id <= filter.afterId) break;
      if (listed(ix, filter)) out.push(ix);
    }
    return out;
  }

  /** The kept entries newer than `afterId`, newest first. */
  newerThan(afterId: number): Indexed[] {
    const out: Indexed[] = [];
    for (let i = this.entries.length - 1; i >= this.start && this.entries[i].id > afterId; i--) out.push(this.entries[i]);
    return out;
  }
}
