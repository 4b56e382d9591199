/**
 * The request journal (docs/journal.md): records answered requests per partner (a created
 * sandbox has one), keeps each partner's journal within its bounds (entries and bytes, oldest
 * dropped first), answers queries and verifications, and tells live subscribers (the SSE stream)
 * of new entries and finished webhook deliveries.
 *
 * Each partner's journal is indexed in memory (id, instants, method, path, status, code and size
 * of every entry it keeps, in columns: about 100 bytes an entry), loaded from its pages the first
 * time the partner is seen after a start. An entry is held encoded (pages.ts EncodedEntry) until
 * it is written: the entries of the last FLUSH_MS are written together, one page per partner
 * (src/store/journal.ts), through the group commit. Lists, counts and the live stream read the
 * index and the held entries; an entry already written is read back from its page (the last pages
 * read are kept).
 * Bounds are kept on the index when an entry is recorded; the pages they leave behind are deleted
 * with the next write.
 */
import {
  countMet,
  differences,
  expectation,
  journalHeaders,
  isWrite,
  nearMisses,
  refusal,
  type CountExpectation,
  type MatchableEntry,
  type RequestMatcher,
} from '../domain/journal.js';
import type { Traffic } from '../engine/traffic.js';
import { isoFormatter } from '../clock.js';
import type { Store } from '../store/index.js';
import {
  bodyLength,
  decodeEntry,
  decodePage,
  encodeEntry,
  encodePage,
  journalView,
  kept,
  matchableView,
  resourcesNow,
  type EncodedEntry,
  type JournalEntry,
  type StoredBody,
  type StoredEntry,
} from './pages.js';
import type { AnsweredRequest, LiveEvent } from './events.js';
import { indexedView, needsWholeEntry, PartnerIndex, type Indexed, type JournalFilter } from './partner-index.js';

export type { JournalFilter } from './partner-index.js';
export type { JournalEntry, StoredBody } from './pages.js';
export type { AnsweredRequest, LiveEvent } from './events.js';

/** An entry waiting to be written. */
interface Pending {
  partnerId: string;
  id: number;
  size: number;
  encoded: EncodedEntry;
}

export interface JournalLimits {
  maxEntries: number;
  maxBytes: number;
  bodyLimit: number;
}

/** Pending entries are written at most this long after their answer… */
const FLUSH_MS = 20;
/** …or start as soon as this many are waiting… */
const FLUSH_ENTRIES = 256;
/** …this many per turn of the event loop, each chunk one transaction. */
const FLUSH_CHUNK = 64;
/**
 * While a client waits on each answer (engine/traffic.ts), the timed write waits too, up to this
 * many entries or this long, and then writes them all in one transaction: one call of a hundred
 * or more is held once (a few ms), instead of one call in fifty by a chunk each.
 */
const INTERACTIVE_MAX_PENDING = 1_000;
const INTERACTIVE_MAX_DELAY_MS = 250;
/** Pages kept decoded for reads (a list of the newest entries reads one or two). */
const PAGE_CACHE = 16;

export function createJournal(
  store: Store,
  limits: JournalLimits,
  onError?: (err: unknown) => void,
  traffic?: Pick<Traffic, 'yieldToRequests'>,
) {
  const journals = new Map<string, PartnerIndex>();
  /** Entries the bounds dropped since start, every journal's (metrics). */
  let droppedTotal = 0;
  const subscribers = new Map<string, Set<(event: LiveEvent) => void>>();
  const pageCache = new Map<number, Map<number, StoredEntry>>();
  let lastId = store.journal.lastId();
  const answeredIso = isoFormatter();
  const wallIso = isoFormatter();

  /** A page's entries (without answers); a page that does not read back loses its own entries, never the journal. */
  function entriesIn(data: string): StoredEntry[] {
    try {
      return decodePage(data);
    } catch (err) {
      onError?.(err);
      return [];
    }
  }

  /** The partner's journal index, read from its pages the first time it is asked for. */
  function journalOf(partnerId: string): PartnerIndex {
    let j = journals.get(partnerId);
    if (j) return j;
    j = new PartnerIndex(limits);
    for (const row of store.journal.pages(partnerId)) for (const e of entriesIn(row.data)) j.addWritten(e, row.first_id);
    journals.set(partnerId, j);
    return j;
  }

  /** The entries behind index entries (held, or read from their pages). */
  function entriesOf(partnerId: string, kept: readonly Indexed[]): StoredEntry[] {
    return kept.map((ix) => {
      if (ix.held) return decodeEntry(ix.held);
      let page = pageCache.get(ix.page);
      if (!page) {
        const row = store.journal.page(partnerId, ix.page);
        page = new Map((row === undefined ? [] : decodePage(row.data, row.answers)).map((e) => [e.id, e]));
        if (pageCache.size >= PAGE_CACHE) pageCache.delete(pageCache.keys().next().value!);
        pageCache.set(ix.page, page);
      }
      const e = page.get(ix.id);
      if (!e) throw new Error(`journal entry ${ix.id} is missing from its page ${ix.page}`);
      return e;
    });
  }

  /** Every entry behind `kept` in one read of their pages (a verify reads every entry). */
  function wholeEntries(partnerId: string, kept: readonly Indexed[], afterId: number): StoredEntry[] {
    const written = new Map<number, StoredEntry>();
    if (kept.some((ix) => !ix.held)) {
      for (const row of store.journal.pages(partnerId, afterId)) for (const e of entriesIn(row.data)) written.set(e.id, e);
    }
    // an entry of a page that did not read back is lost with its page (entriesIn)
    return kept.flatMap((ix) => (ix.held ? decodeEntry(ix.held) : (written.get(ix.id) ?? [])));
  }

  /** Entries waiting to be written, oldest first. */
  let pending: Pending[] = [];
  /** When the oldest pending entry was recorded (performance.now()). */
  let pendingSince = 0;
  let flushTimer: NodeJS.Timeout | undefined;
  let chunkQueued = false;

  /** Write every pending entry now (shutdown, tests). */
  function flush(): void {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    write(batch);
  }

  /**
   * The timed write: FLUSH_CHUNK entries per turn of the event loop, each chunk its own
   * transaction, so a request never waits behind more than one chunk.
   */
  function flushSome(): void {
    flushTimer = undefined;
    chunkQueued = false;
    if (pending.length === 0) return;
    const interactive = traffic?.yieldToRequests() ?? false;
    if (interactive && pending.length < INTERACTIVE_MAX_PENDING && performance.now() - pendingSince < INTERACTIVE_MAX_DELAY_MS) {
      flushTimer = setTimeout(flushSome, FLUSH_MS).unref();
      return;
    }
    try {
      write(pending.splice(0, interactive ? pending.length : FLUSH_CHUNK));
    } catch (err) {
      // the database refused (full disk, closed): these entries stay in memory only, the answers were sent
      onError?.(err);
    }
    if (pending.length > 0) queueChunk();
  }

  function queueChunk(): void {
    if (chunkQueued) return;
    chunkQueued = true;
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    setImmediate(flushSome);
  }

  /** One page per partner of the entries given that are still kept, and the pages the bounds left behind deleted. */
  function write(batch: Pending[]): void {
    const byPartner = new Map<string, Pending[]>();
    for (const p of batch) {
      const list = byPartner.get(p.partnerId);
      if (list) list.push(p);
      else byPartner.set(p.partnerId, [p]);
    }
    const pages: { index: PartnerIndex; first: number; last: number }[] = [];
    store.tx(() => {
      for (const [partnerId, recorded] of byPartner) {
        const j = journals.get(partnerId);
        if (!j) continue; // forgotten (its sandbox was removed) since
        const floor = j.oldestKept(lastId + 1);
        const kept = recorded.filter((e) => e.id >= floor);
        if (kept.length > 0) {
          const first = kept[0].id;
          const last = kept[kept.length - 1].id;
          store.journal.insert({
            partner_id: partnerId,
            first_id: first,
            last_id: last,
            entries: kept.length,
            bytes: kept.reduce((n, e) => n + e.size, 0),
            ...encodePage(kept.map((p) => p.encoded)),
          });
          pages.push({ index: j, first, last });
        }
        if (floor > j.deletedBelow) {
          store.journal.deleteBelow(partnerId, floor);
          j.deletedBelow = floor;
        }
      }
    });
    for (const { index, first, last } of pages) index.written(first, last);
  }

  function publish(partnerId: string, event: LiveEvent): void {
    const set = subscribers.get(partnerId);
    if (set) for (const listener of set) listener(event);
  }

  /** The partner's entries after `afterId` as a matcher sees them (newest first), and those `m` matches. */
  function matching(partnerId: string, m: RequestMatcher, afterId: number) {
    const kept = journalOf(partnerId).newerThan(afterId);
    const window = needsWholeEntry(m)
      ? wholeEntries(partnerId, kept, afterId).map((e) => matchableView(e, m.body !== undefined || m.jsonPath !== undefined))
      : kept.map(indexedView);
    return { kept, window, matched: window.filter((e) => differences(m, e).length === 0) };
  }

  return {
    limits,

    /**
     * A request body as sent (redacted, capped): take it before validation strips or coerces it.
     * `json`: the body is JSON text that parsed (a parsed body, a form, is serialized: JSON too).
     */
    requestBody: (body: unknown, json = typeof body === 'object' && body !== null && !Buffer.isBuffer(body)): StoredBody =>
      kept(body, limits.bodyLimit, json),

    /**
     * Record an answered request in its partner's journal: indexed and held in memory now (a
     * list sees it at once), written with the others of the last FLUSH_MS.
     */
    record(r: AnsweredRequest): void {
      const request = r.body;
      const response = kept(r.payload, limits.bodyLimit, r.payloadIsJson);
      const responseText = response.body !== null && 'text' in response.body ? response.body.text : null;
      const { code, field } = refusal(r.status, responseText);
      const write = isWrite(r.method, r.path) && r.status < 400;
      const query = (r.query ?? {}) as Record<string, unknown>;
      const headers = journalHeaders(r.headers);
      const e: StoredEntry = {
        id: ++lastId,
        at: answeredIso(r.atMs),
        wallAt: wallIso(Date.now()),
        method: r.method,
        path: r.path,
        status: r.status,
        code,
        field,
        durationMs: Math.round(r.durationMs * 1000) / 1000,
        requestId: r.requestId,
        size: 0,
        query,
        headers,
        resources: null,
        params: write ? ((r.params ?? {}) as Record<string, unknown>) : null,
        requestBody: request.body,
        requestBodyTruncated: request.truncated,
        responseBody: response.body,
        responseBodyTruncated: response.truncated,
        fault: r.fault ? { rule: r.fault.rule, kind: r.fault.kind } : null,
        // a trace id is 32 lowercase hex digits (domain/trace-context.ts): written into the page as it is
        traceId: r.traceId ?? null,
        contractVersion: r.contractVersion ?? null,
      };
      // an answer kept cut cannot be read for the ids it names later: read them now
      if (write && response.truncated) {
        e.resources = resourcesNow(r.method, r.path, r.params, r.payload, r.status);
        e.params = null;
      }
      e.size = 300 + r.path.length + bodyLength(request.body) + bodyLength(response.body);
      const encoded = encodeEntry(e);
      const j = journalOf(r.partnerId);
      const droppedBefore = j.dropped;
      j.addHeld(e, r.atMs, encoded);
      droppedTotal += j.dropped - droppedBefore;
      if (pending.length === 0) pendingSince = performance.now();
      pending.push({ partnerId: r.partnerId, id: e.id, size: e.size, encoded });
      if (pending.length >= FLUSH_ENTRIES) queueChunk();
      else if (!chunkQueued) flushTimer ??= setTimeout(flushSome, FLUSH_MS).unref();
      if (subscribers.has(r.partnerId)) publish(r.partnerId, { type: 'request', entry: journalView(e) });
    },

    flush,

    list(partnerId: string, filter: JournalFilter, limit: number): JournalEntry[] {
      const out = journalOf(partnerId).list(filter, limit);
      return entriesOf(partnerId, out).map(journalView);
    },

    get(partnerId: string, id: number): JournalEntry | undefined {
      const ix = journalOf(partnerId).get(id);
      return ix && journalView(entriesOf(partnerId, [ix])[0]);
    },

    /** The newest id handed out, the partner's oldest kept, whether the bounds dropped some (or may have: full). */
    position(partnerId: string): { upTo: number; oldestKept: number; truncated: boolean } {
      const j = journalOf(partnerId);
      return { upTo: lastId, oldestKept: j.oldestKept(lastId + 1), truncated: j.dropped > 0 || j.count >= limits.maxEntries };
    },

    /**
     * Across the journals loaded in this process: the entries kept, and how many the bounds have
     * dropped since start (metrics).
     */
    totals(): { entries: number; dropped: number } {
      let entries = 0;
      for (const j of journals.values()) entries += j.count;
      return { entries, dropped: droppedTotal };
    },

    /** Entries kept, and their size for --journal-max-bytes. */
    stats(partnerId: string): { count: number; bytes: number } {
      const j = journalOf(partnerId);
      return { count: j.count, bytes: j.bytes };
    },

    /** Delete the partner's journal; how many entries. */
    clear(partnerId: string): number {
      const n = journalOf(partnerId).count;
      pending = pending.filter((p) => p.partnerId !== partnerId);
      store.tx(() => store.journal.clear(partnerId));
      const emptied = new PartnerIndex(limits);
      emptied.deletedBelow = lastId + 1;
      journals.set(partnerId, emptied);
      return n;
    },

    /** A removed sandbox's journal is gone with its rows: drop what is pending of it, forget its index. */
    forget(partnerId: string): void {
      pending = pending.filter((p) => p.partnerId !== partnerId);
      journals.delete(partnerId);
    },

    /**
     * Verify how many entries after `afterId` match `m`, over the whole journal: on the index
     * alone when the matcher asks only what it holds (method, path, status, code), else on the
     * entries read whole (no answer bodies parsed).
     */
    verify(partnerId: string, m: RequestMatcher, expected: CountExpectation, afterId = 0) {
      const { kept, window, matched } = matching(partnerId, m, afterId);
      const actual = matched.length;
      const byId = new Map(kept.map((ix) => [ix.id, ix]));
      const whole = (e: MatchableEntry) => journalView(entriesOf(partnerId, [byId.get(e.id)!])[0]);
      if (countMet(expected, actual)) return { verified: true as const, actual };
      const x = expectation(expected);
      const tooMany = (x.count !== undefined && actual > x.count) || (x.atMost !== undefined && actual > x.atMost);
      return {
        verified: false as const,
        expected: x,
        actual,
        // too many: the matching entries are the explanation; too few: the closest that missed
        matched: tooMany ? matched.slice(0, 10).map(whole) : undefined,
        nearMisses: tooMany
          ? []
          : nearMisses(m, window).map((n) => ({ entry: whole(n.entry), distance: n.distance, differences: n.differences })),
      };
    },

    /** How many entries after `afterId` match `m`. */
    count: (partnerId: string, m: RequestMatcher, afterId = 0): number => matching(partnerId, m, afterId).matched.length,

    /** Listen to the partner's new entries and finished deliveries; returns the unsubscribe. */
    subscribe(partnerId: string, listener: (event: LiveEvent) => void): () => void {
      let set = subscribers.get(partnerId);
      if (!set) subscribers.set(partnerId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) subscribers.delete(partnerId);
      };
    },

    /**
     * Tell the partner's subscribers of a finished delivery attempt (the requests answered so far
     * were told as they were recorded, so the stream never shows a delivery before the request
     * that caused it).
     */
    delivered(partnerId: string, delivery: Extract<LiveEvent, { type: 'delivery' }>['delivery']): void {
      publish(partnerId, { type: 'delivery', delivery });
    },

    /** Someone is listening to the partner's stream (the delivery is worth describing). */
    watched: (partnerId: string): boolean => subscribers.has(partnerId),
  };
}
export type Journal = ReturnType<typeof createJournal>;
