/**
 * The request journal (docs/journal.md): records answered requests per partner (a created
 * sandbox has one), keeps each partner's journal within its bounds (entries and bytes, oldest
 * dropped first), answers queries and verifications, and tells live subscribers (the SSE stream)
 * of new entries and finished webhook deliveries.
 *
 * Writes go through the group commit (store.tx) like every other write; the bounds are kept with
 * a per-partner count and byte total held in memory, read from the table on first use.
 */
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
  type RequestMatcher,
} from '../domain/journal.js';
import type { Store } from '../store/index.js';
import type { JournalFilter, JournalRow } from '../store/journal.js';

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

export interface JournalEntry {
  id: number;
  at: string;
  wallAt: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  requestBody?: unknown;
  requestBodyTruncated: boolean;
  status: number;
  code?: string;
  field?: string;
  responseBody?: unknown;
  responseBodyTruncated: boolean;
  durationMs: number;
  requestId: string;
  resources: Record<string, unknown>;
}

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

/** Entries a verification looks at (the newest; at most the journal's bound). */
const VERIFY_WINDOW = 10_000;

export function createJournal(store: Store, limits: JournalLimits) {
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
      for (const row of store.journal.oldest(partnerId, Math.max(t.count - limits.maxEntries, 0) + 16)) {
        if (t.count <= limits.maxEntries && t.bytes <= limits.maxBytes) break;
        through = row.id;
        t.count--;
        t.bytes -= row.size;
      }
      if (through === 0) return;
      store.journal.deleteThrough(partnerId, through);
    }
  }

  function publish(partnerId: string, event: LiveEvent): void {
    const set = subscribers.get(partnerId);
    if (set) for (const listener of set) listener(event);
  }

  return {
    limits,

    /** Record an answered request in its partner's journal; its id. */
    /** A request body as sent (redacted, capped): take it before validation strips or coerces it. */
    requestBody: (body: unknown): StoredBody => journalBody(body, limits.bodyLimit),

    record(r: AnsweredRequest): number {
      const request = r.body;
      const response = journalBody(r.payload, limits.bodyLimit);
      const { code, field } = refusal(r.status, response.text);
      let responseJson: unknown;
      if (r.method !== 'GET' && r.status < 400 && response.text?.startsWith('{') && !response.truncated) {
        responseJson = JSON.parse(response.text) as unknown;
      }
      const row = {
        partner_id: r.partnerId,
        at: r.at,
        wall_at: new Date().toISOString(),
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
      const id = store.tx(() => {
        const t = totalsOf(r.partnerId); // read before the insert, which it would count
        const inserted = store.journal.insert(row);
        t.count++;
        t.bytes += row.size;
        trim(r.partnerId);
        return inserted;
      });
      if (subscribers.has(r.partnerId)) publish(r.partnerId, { type: 'request', entry: journalView({ id, ...row }) });
      return id;
    },

    list(partnerId: string, filter: JournalFilter, limit: number): JournalEntry[] {
      return store.journal.list(partnerId, filter, limit).map(journalView);
    },

    get(partnerId: string, id: number): JournalEntry | undefined {
      const row = store.journal.get(partnerId, id);
      return row && journalView(row);
    },

    /** Delete the partner's journal; how many entries. */
    clear(partnerId: string): number {
      const n = store.tx(() => store.journal.clear(partnerId));
      totals.set(partnerId, { count: 0, bytes: 0 });
      return n;
    },

    /** A removed sandbox's journal is gone with its rows: forget its totals. */
    forget(partnerId: string): void {
      totals.delete(partnerId);
    },

    /** The newest entry's id (0: none). */
    newestId: (partnerId: string): number => store.journal.newestId(partnerId),

    /** Entries matching `m` (newest first), among the newest VERIFY_WINDOW after `afterId`. */
    matching(partnerId: string, m: RequestMatcher, afterId = 0): { matched: JournalEntry[]; window: JournalEntry[] } {
      // the window is read whole: the entries that miss are the near misses of a failed verification
      const window = store.journal.list(partnerId, { afterId }, VERIFY_WINDOW).map(journalView);
      const matched = window.filter((e) => differences(m, e).length === 0);
      return { matched, window };
    },

    /** Verify a count of matching requests; near misses explain a shortfall. */
    verify(partnerId: string, m: RequestMatcher, expected: CountExpectation, afterId = 0) {
      const { matched, window } = this.matching(partnerId, m, afterId);
      const actual = matched.length;
      if (countMet(expected, actual)) return { verified: true as const, actual };
      const x = expectation(expected);
      const tooMany = (x.count !== undefined && actual > x.count) || (x.atMost !== undefined && actual > x.atMost);
      return {
        verified: false as const,
        expected: x,
        actual,
        // too many: the matching entries are the explanation; too few: the closest that missed
        matched: tooMany ? matched.slice(0, 10) : undefined,
        nearMisses: tooMany
          ? []
          : nearMisses(m, window).map((n) => ({
              entry: n.entry,
              distance: n.distance,
              differences: n.differences,
            })),
      };
    },

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

    /** Tell the partner's subscribers of a finished delivery attempt. */
    delivered(partnerId: string, delivery: Extract<LiveEvent, { type: 'delivery' }>['delivery']): void {
      publish(partnerId, { type: 'delivery', delivery });
    },

    /** Someone is listening to the partner's stream (the delivery is worth describing). */
    watched: (partnerId: string): boolean => subscribers.has(partnerId),
  };
}
export type Journal = ReturnType<typeof createJournal>;
