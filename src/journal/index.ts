/**
 * The request journal (docs/journal.md): records answered requests per partner (a created
 * sandbox has one), keeps each partner's journal within its bounds (entries and bytes, oldest
 * dropped first), answers queries and verifications, and tells live subscribers (the SSE stream)
 * of new entries and finished webhook deliveries.
 *
 * Entries are written in batches (FLUSH_MS / FLUSH_ENTRIES) through the group commit; every read
 * writes what is pending first. The bounds are kept with a per-partner count and byte total held
 * in memory, read from the table on first use.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { JournalEntry as JournalEntrySchema } from '../../schemas/journal.js';
import {
  changedResources,
  countMet,
  differences,
  expectation,
  journalBody,
  journalHeaders,
  nearMisses,
  refusal,
  type CountExpectation,
  type MatchableEntry,
  type RequestMatcher,
} from '../domain/journal.js';
import type { Traffic } from '../engine/traffic.js';
import { isoOf } from '../clock.js';
import type { Store } from '../store/index.js';
import type { JournalFilter, JournalRow, MatchableRow, NewJournalRow } from '../store/journal.js';

export type StoredBody = ReturnType<typeof journalBody>;

export interface JournalLimits {
  maxEntries: number;
  maxBytes: number;
  bodyLimit: number;
}

/** What the HTTP layer knows of an answered request. */
export interface AnsweredRequest {
  partnerId: string;
  at: string;
  method: string;
  path: string;
  query: unknown;
  params: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** The request body as the journal keeps it (`requestBody()`, taken before validation changed it). */
  body: StoredBody;
  status: number;
  payload: unknown;
  durationMs: number;
  requestId: string;
}

/** What the live stream carries. */
export type LiveEvent =
  | { type: 'request'; entry: JournalEntry }
  | {
      type: 'delivery';
      delivery: {
        id: number;
        eventId: string;
        event: string | null;
        url: string;
        state: string;
        statusCode: number | null;
        outcome: string;
        durationMs: number;
      };
    };

function parsed(text: string | null, truncated: number): unknown {
  if (text === null) return null;
  if (truncated || !(text.startsWith('{') || text.startsWith('['))) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A journal entry as the API shows it (typed from its response schema). */
export type JournalEntry = FromSchema<typeof JournalEntrySchema>;

/** An entry as the API shows it: absent rather than null where there is nothing (no body, no refusal). */
export function journalView(r: JournalRow): JournalEntry {
  const e: JournalEntry = {
    id: r.id,
    at: r.at,
    wallAt: r.wall_at,
    method: r.method,
    path: r.path,
    query: JSON.parse(r.query) as Record<string, unknown>,
    headers: JSON.parse(r.headers) as Record<string, string>,
    requestBodyTruncated: r.request_body_truncated === 1,
    status: r.status,
    responseBodyTruncated: r.response_body_truncated === 1,
    durationMs: r.duration_ms,
    requestId: r.request_id,
    resources: JSON.parse(r.resources) as Record<string, unknown>,
  };
  if (r.request_body !== null) e.requestBody = parsed(r.request_body, r.request_body_truncated);
  if (r.error_code !== null) e.code = r.error_code;
  if (r.error_field !== null) e.field = r.error_field;
  if (r.response_body !== null) e.responseBody = parsed(r.response_body, r.response_body_truncated);
  return e;
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

/** An entry as a matcher sees it, from the columns it reads. */
function matchableView(r: MatchableRow): MatchableEntry {
  const e: MatchableEntry = {
    id: r.id,
    method: r.method,
    path: r.path,
    query: JSON.parse(r.query) as Record<string, unknown>,
    headers: JSON.parse(r.headers) as Record<string, string>,
    status: r.status,
  };
  if (r.request_body !== null) e.requestBody = parsed(r.request_body, r.request_body_truncated);
  if (r.error_code !== null) e.code = r.error_code;
  return e;
}

export function createJournal(
  store: Store,
  limits: JournalLimits,
  onError?: (err: unknown) => void,
  traffic?: Pick<Traffic, 'yieldToRequests'>,
) {
  const totals = new Map<string, { count: number; bytes: number }>();
  const subscribers = new Map<string, Set<(event: LiveEvent) => void>>();

  function totalsOf(partnerId: string) {
    let t = totals.get(partnerId);
    if (!t) totals.set(partnerId, (t = store.journal.stats(partnerId)));
    return t;
  }

  /** Drop the oldest entries until the partner's journal is within both bounds (inside a transaction). */
  function trim(partnerId: string): void {
    const t = totalsOf(partnerId);
    while (t.count > limits.maxEntries || t.bytes > limits.maxBytes) {
      let through = 0;
      for (const row of store.journal.oldest(partnerId, Math.max(t.count - limits.maxEntries, 0) + 64)) {
        if (t.count <= limits.maxEntries && t.bytes <= limits.maxBytes) break;
        through = row.id;
        t.count--;
        t.bytes -= row.size;
      }
      if (through === 0) return;
      store.journal.deleteThrough(partnerId, through);
    }
  }

  let pending: NewJournalRow[] = [];
  /** When the oldest pending entry was recorded (performance.now()). */
  let pendingSince = 0;
  let flushTimer: NodeJS.Timeout | undefined;
  let chunkQueued = false;

  /** Write the pending entries (one transaction), keep every journal in its bounds, tell the live stream. */
  /** Write every pending entry now (a read of the journal, shutdown). */
  function flush(): void {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    write(rows);
  }

  /**
   * The timed write: FLUSH_CHUNK entries per turn of the event loop, each chunk its own
   * transaction, so a request never waits behind more than one chunk (about 0.3 ms).
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
      // the database refused (full disk, closed): these entries are lost, the answers were not
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

  function write(rows: NewJournalRow[]): void {
    const written = store.tx(() => {
      const touched = new Set<string>();
      const out = rows.map((row) => {
        const t = totalsOf(row.partner_id); // read before the insert, which it would count
        const id = store.journal.insert(row);
        t.count++;
        t.bytes += row.size;
        touched.add(row.partner_id);
        return { id, ...row };
      });
      // one trim per journal and batch (one DELETE of its oldest), not one per entry
      for (const partnerId of touched) trim(partnerId);
      return out;
    });
    for (const row of written) if (subscribers.has(row.partner_id)) publish(row.partner_id, { type: 'request', entry: journalView(row) });
  }

  /** The partner's entries after `afterId` as a matcher sees them (newest first), and those `m` matches. */
  function matching(partnerId: string, m: RequestMatcher, afterId: number) {
    flush();
    const window = store.journal.matchable(partnerId, afterId, limits.maxEntries).map(matchableView);
    return { window, matched: window.filter((e) => differences(m, e).length === 0) };
  }

  function publish(partnerId: string, event: LiveEvent): void {
    const set = subscribers.get(partnerId);
    if (set) for (const listener of set) listener(event);
  }

  return {
    limits,

    /** A request body as sent (redacted, capped): take it before validation strips or coerces it. */
    requestBody: (body: unknown): StoredBody => journalBody(body, limits.bodyLimit),

    /**
     * Record an answered request in its partner's journal. The entry is kept in memory and
     * written with the others of the last FLUSH_MS, FLUSH_CHUNK per transaction (a commit per
     * request cost more than the rest of the journal); every read of the journal writes what is
     * pending first, so a client always sees its previous requests.
     */
    record(r: AnsweredRequest): void {
      const request = r.body;
      const response = journalBody(r.payload, limits.bodyLimit);
      const { code, field } = refusal(r.status, response.text);
      let responseJson: unknown;
      if (r.method !== 'GET' && r.status < 400 && response.text?.startsWith('{') && !response.truncated) {
        responseJson = JSON.parse(response.text) as unknown;
      }
      const row: NewJournalRow = {
        partner_id: r.partnerId,
        at: r.at,
        wall_at: isoOf(Date.now()),
        method: r.method,
        path: r.path,
        status: r.status,
        error_code: code,
        error_field: field,
        duration_ms: Math.round(r.durationMs * 1000) / 1000,
        request_id: r.requestId,
        size: 0,
        query: JSON.stringify(r.query ?? {}),
        headers: JSON.stringify(journalHeaders(r.headers)),
        resources: JSON.stringify(changedResources(r.method, r.path, r.params, responseJson, r.status)),
        request_body: request.text,
        request_body_truncated: request.truncated ? 1 : 0,
        response_body: response.text,
        response_body_truncated: response.truncated ? 1 : 0,
      };
      row.size =
        200 +
        row.path.length +
        row.query.length +
        row.headers.length +
        row.resources.length +
        (request.text?.length ?? 0) +
        (response.text?.length ?? 0);
      if (pending.length === 0) pendingSince = performance.now();
      pending.push(row);
      if (pending.length >= FLUSH_ENTRIES) queueChunk();
      else if (!chunkQueued) flushTimer ??= setTimeout(flushSome, FLUSH_MS).unref();
    },

    flush,

    list(partnerId: string, filter: JournalFilter, limit: number): JournalEntry[] {
      flush();
      return store.journal.list(partnerId, filter, limit).map(journalView);
    },

    get(partnerId: string, id: number): JournalEntry | undefined {
      flush();
      const row = store.journal.get(partnerId, id);
      return row && journalView(row);
    },

    /** Delete the partner's journal; how many entries. */
    clear(partnerId: string): number {
      flush();
      const n = store.tx(() => store.journal.clear(partnerId));
      totals.set(partnerId, { count: 0, bytes: 0 });
      return n;
    },

    /** A removed sandbox's journal is gone with its rows: drop what is pending of it, forget its totals. */
    forget(partnerId: string): void {
      pending = pending.filter((row) => row.partner_id !== partnerId);
      totals.delete(partnerId);
    },

    /**
     * Verify how many entries after `afterId` match `m`. Matched on the columns a matcher reads
     * (no answer bodies) over the whole journal; the entries returned are read whole.
     */
    verify(partnerId: string, m: RequestMatcher, expected: CountExpectation, afterId = 0) {
      const { window, matched } = matching(partnerId, m, afterId);
      const actual = matched.length;
      const whole = (e: MatchableEntry) => journalView(store.journal.get(partnerId, e.id)!);
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
     * Tell the partner's subscribers of a finished delivery attempt: after the requests answered
     * so far (written first), so the stream never shows a delivery before the request that
     * caused it (a loopback receiver answers well within a batch's 20 ms).
     */
    delivered(partnerId: string, delivery: Extract<LiveEvent, { type: 'delivery' }>['delivery']): void {
      flush();
      publish(partnerId, { type: 'delivery', delivery });
    },

    /** Someone is listening to the partner's stream (the delivery is worth describing). */
    watched: (partnerId: string): boolean => subscribers.has(partnerId),
  };
}
export type Journal = ReturnType<typeof createJournal>;
