/**
 * One partner's journal index, held in memory: for every entry the journal keeps, what a list
 * filter reads (id, instant, method, path, status, code), its size, and where the entry is (held
 * encoded until it is written, then the page that holds it). Oldest first; the bounds drop from the
 * front as entries are added.
 */
import type { MatchableEntry, RequestMatcher } from '../domain/journal.js';
import type { EncodedEntry, StoredEntry } from './pages.js';

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

/**
 * An entry of the index as a query reads it: made when a list, a verification or a lookup asks,
 * never kept (the index itself is columns, see PartnerIndex).
 */
export interface Indexed {
  id: number;
  method: string;
  path: string;
  status: number;
  code: string | null;
  /** The id of the first entry of the page that holds it (0: not written yet). */
  page: number;
  /** The entry itself, until it is written. */
  held: EncodedEntry | undefined;
}

export interface IndexBounds {
  maxEntries: number;
  maxBytes: number;
}

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

/**
 * Strings many entries repeat (a path polled, a refusal's code) kept once: an index entry then
 * holds no string of its own to keep alive. Bounded: emptied when full.
 */
class Interned {
  private readonly seen = new Map<string, string>();
  constructor(private readonly max: number) {}
  of(s: string): string {
    const known = this.seen.get(s);
    if (known !== undefined) return known;
    if (this.seen.size >= this.max) this.seen.clear();
    this.seen.set(s, s);
    return s;
  }
}
const shared = new Interned(4096);

const INITIAL_CAPACITY = 64;

/** A filter with its instants as milliseconds, as the index keeps them. */
interface Criteria {
  method?: string;
  path?: string;
  pathPrefix?: string;
  status?: number;
  code?: string;
  sinceMs?: number;
  untilMs?: number;
}

/**
 * One partner's index, oldest first, held as columns (numbers in typed arrays, and arrays of
 * shared strings) rather than an object per entry: every request adds an entry that lives as long as the journal
 * keeps it, and an object per entry (with its own strings) was the garbage collector's work on
 * every request, about a tenth of a GET's CPU (docs/performance.md, "The request journal's cost").
 * The bounds drop from the front (`start`); the columns are compacted or grown when the back
 * reaches their end.
 */
export class PartnerIndex {
  private capacity = INITIAL_CAPACITY;
  private ids = new Float64Array(INITIAL_CAPACITY);
  private atMs = new Float64Array(INITIAL_CAPACITY);
  private statuses = new Float64Array(INITIAL_CAPACITY);
  private sizes = new Float64Array(INITIAL_CAPACITY);
  private pages = new Float64Array(INITIAL_CAPACITY);
  private methods: string[] = [];
  private paths: string[] = [];
  private codes: (string | null)[] = [];
  private held: (EncodedEntry | undefined)[] = [];
  /** Kept entries are at positions start..end-1. */
  private start = 0;
  private end = 0;
  bytes = 0;
  /** Pages holding only entries older than this id have been deleted. */
  deletedBelow = 0;
  /** Entries the bounds dropped since the index was loaded. */
  dropped = 0;

  constructor(private readonly bounds: IndexBounds) {}

  /** Entries kept. */
  get count(): number {
    return this.end - this.start;
  }

  /** Add an entry read back from its page (`page`: the id of the page's first entry). */
  addWritten(e: StoredEntry, page: number): void {
    this.add(e, Date.parse(e.at), page, undefined);
  }

  /** Add the entry just recorded, held (encoded) until it is written. */
  addHeld(e: StoredEntry, atMs: number, held: EncodedEntry): void {
    this.add(e, atMs, 0, held);
  }

  /** Add the newest entry and drop the oldest until both bounds hold. */
  private add(e: StoredEntry, atMs: number, page: number, held: EncodedEntry | undefined): void {
    if (this.end === this.capacity) this.makeRoom();
    const i = this.end++;
    this.ids[i] = e.id;
    this.atMs[i] = atMs;
    this.statuses[i] = e.status;
    this.sizes[i] = e.size;
    this.pages[i] = page;
    this.methods[i] = e.method;
    this.paths[i] = shared.of(e.path);
    this.codes[i] = e.code === null ? null : shared.of(e.code);
    this.held[i] = held;
    this.bytes += e.size;
    while (this.count > this.bounds.maxEntries || this.bytes > this.bounds.maxBytes) {
      const d = this.start++;
      this.held[d] = undefined;
      this.dropped++;
      this.bytes -= this.sizes[d];
    }
  }

  /** Move the kept entries to the front when that frees at least half the columns, else double them. */
  private makeRoom(): void {
    const keep = this.end - this.start;
    const capacity = keep * 2 <= this.capacity ? this.capacity : this.capacity * 2;
    const moved = (a: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> => {
      if (capacity === this.capacity) return a.copyWithin(0, this.start, this.end);
      const out = new Float64Array(capacity);
      out.set(a.subarray(this.start, this.end));
      return out;
    };
    this.ids = moved(this.ids);
    this.atMs = moved(this.atMs);
    this.statuses = moved(this.statuses);
    this.sizes = moved(this.sizes);
    this.pages = moved(this.pages);
    this.methods = this.methods.slice(this.start, this.end);
    this.paths = this.paths.slice(this.start, this.end);
    this.codes = this.codes.slice(this.start, this.end);
    this.held = this.held.slice(this.start, this.end);
    this.capacity = capacity;
    this.start = 0;
    this.end = keep;
  }

  /** The id of the oldest entry kept (`next`, the id the next entry will have, when none is). */
  oldestKept(next: number): number {
    return this.start < this.end ? this.ids[this.start] : next;
  }

  /** Position of the newest kept entry whose id is below `id` (start - 1: none). */
  private below(id: number): number {
    let lo = this.start;
    let hi = this.end - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.ids[mid] < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi;
  }

  private at(i: number): Indexed {
    return {
      id: this.ids[i],
      method: this.methods[i],
      path: this.paths[i],
      status: this.statuses[i],
      code: this.codes[i],
      page: this.pages[i],
      held: this.held[i],
    };
  }

  get(id: number): Indexed | undefined {
    const i = this.below(id + 1);
    return i >= this.start && this.ids[i] === id ? this.at(i) : undefined;
  }

  /** The kept entries with ids first..last were written in one page (named by its first entry's id). */
  written(first: number, last: number): void {
    for (let i = Math.max(this.below(first) + 1, this.start); i < this.end && this.ids[i] <= last; i++) {
      this.pages[i] = first;
      this.held[i] = undefined;
    }
  }

  private listed(i: number, c: Criteria): boolean {
    return (
      (c.method === undefined || this.methods[i] === c.method) &&
      (c.path === undefined || this.paths[i] === c.path) &&
      (c.pathPrefix === undefined || this.paths[i].startsWith(c.pathPrefix)) &&
      (c.status === undefined || this.statuses[i] === c.status) &&
      (c.code === undefined || this.codes[i] === c.code) &&
      (c.sinceMs === undefined || this.atMs[i] >= c.sinceMs) &&
      (c.untilMs === undefined || this.atMs[i] <= c.untilMs)
    );
  }

  /** The kept entries the filter lets through, newest first, at most `limit`. */
  list(filter: JournalFilter, limit: number): Indexed[] {
    const criteria: Criteria = {
      ...filter,
      sinceMs: filter.since === undefined ? undefined : Date.parse(filter.since),
      untilMs: filter.until === undefined ? undefined : Date.parse(filter.until),
    };
    const out: Indexed[] = [];
    let i = filter.beforeId === undefined ? this.end - 1 : this.below(filter.beforeId);
    for (; i >= this.start && out.length < limit; i--) {
      if (filter.afterId !== undefined && this.ids[i] <= filter.afterId) break;
      if (this.listed(i, criteria)) out.push(this.at(i));
    }
    return out;
  }

  /** The kept entries newer than `afterId`, newest first. */
  newerThan(afterId: number): Indexed[] {
    const out: Indexed[] = [];
    for (let i = this.end - 1; i >= this.start && this.ids[i] > afterId; i--) out.push(this.at(i));
    return out;
  }
}
