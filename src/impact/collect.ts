/**
 * What a sandbox's traffic touched (src/domain/contract-traffic.ts), read from its journal's
 * pages (answers included) and its attempted webhook deliveries, for the impact report
 * (docs/contract-versions.md, "Impact"). It reads the database only, so the same code runs on the
 * serving connection or on the readiness worker's own (src/readiness/worker.ts): a report of a
 * file database never takes the serving thread's time.
 *
 * Facts are kept per partner in chunks of about CHUNK_ENTRIES entries, added to as new pages are
 * written: a report reads only the pages written since the last one, and merges the chunks. When
 * the journal's bounds drop old entries, the chunks wholly older go and the oldest left is read
 * again from the entries still kept. Deliveries are added up the same way, from the last one read.
 */
import { routeKey } from '../contracts/walk.js';
import { addDelivery, addEntry, emptyFacts, mergeFacts, type TrafficFacts } from '../domain/contract-traffic.js';
import { decodePage, type KeptBody, type StoredEntry } from '../journal/pages.js';
import type { impactStore } from '../store/impact.js';

/** Entries a chunk of facts holds before the next begins. */
const CHUNK_ENTRIES = 2_000;
const BASE = 'base';

/** An operation template of the documents: `POST /v1/partner/payments/{paymentId}/status`. */
export interface RouteTemplate {
  method: string;
  path: string;
}

/** The sandbox a report is of, and its journal as the serving thread knows it (src/readiness/collect.ts ReportSubject). */
export interface TrafficSubject {
  partnerId: string;
  upTo: number;
  oldestKept: number;
}

interface Chunk {
  firstId: number;
  lastId: number;
  facts: TrafficFacts;
}

/** A concrete path's operation: static segments first (`/merchants/test` before `/merchants/{merchantId}`). */
function routeMatcher(templates: readonly RouteTemplate[]): (method: string, path: string) => string | undefined {
  const compiled = templates
    .map((t) => ({
      method: t.method.toUpperCase(),
      key: routeKey(t.method, t.path),
      params: (t.path.match(/\{/g) ?? []).length,
      re: new RegExp(`^${t.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }))
    .sort((a, b) => a.params - b.params);
  const cache = new Map<string, string | null>();
  return (method, path) => {
    const k = `${method} ${path}`;
    let found = cache.get(k);
    if (found === undefined) {
      found = compiled.find((c) => c.method === method && c.re.test(path))?.key ?? null;
      if (cache.size < 10_000) cache.set(k, found);
    }
    return found ?? undefined;
  };
}

const json = (b: KeptBody): unknown => {
  if (b === null) return undefined;
  if ('value' in b) return b.value;
  if (!b.json) return undefined;
  try {
    return JSON.parse(b.text) as unknown;
  } catch {
    return undefined;
  }
};
const structured = (v: unknown) => (v !== null && typeof v === 'object' ? v : undefined);

export function createTrafficReader(
  reads: { impact: ReturnType<typeof impactStore> },
  onUnreadablePage?: (err: unknown) => void,
  chunkEntries = CHUNK_ENTRIES,
) {
  const byPartner = new Map<string, { chunks: Chunk[]; lastId: number; deliveries: { facts: TrafficFacts; lastId: number; n: number } }>();
  let matcher: { key: string; match: ReturnType<typeof routeMatcher> } | undefined;

  function add(chunk: Chunk, e: StoredEntry, match: ReturnType<typeof routeMatcher>): void {
    const route = e.path.startsWith('/v1/') ? match(e.method, e.path) : undefined;
    if (route === undefined) return;
    addEntry(chunk.facts, {
      id: e.id,
      version: e.contractVersion ?? BASE,
      route,
      status: e.status,
      query: e.query,
      headers: e.headers,
      requestBody: e.requestBodyTruncated ? undefined : structured(json(e.requestBody)),
      responseBody: e.responseBodyTruncated ? undefined : structured(json(e.responseBody)),
      truncated: e.requestBodyTruncated || e.responseBodyTruncated,
    });
  }

  /** Read the pages holding entries in (after, upTo], from `from` on, into the chunks. */
  function read(
    partnerId: string,
    chunks: Chunk[],
    after: number,
    from: number,
    upTo: number,
    match: ReturnType<typeof routeMatcher>,
  ): number {
    let last = after;
    for (const page of reads.impact.pages(partnerId, after)) {
      if (page.first_id > upTo) break;
      let entries: StoredEntry[];
      try {
        entries = decodePage(page.data, page.answers);
      } catch (err) {
        onUnreadablePage?.(err);
        continue;
      }
      for (const e of entries) {
        if (e.id <= after || e.id < from || e.id > upTo) continue;
        let chunk = chunks.at(-1);
        if (!chunk || chunk.facts.entries >= chunkEntries) chunks.push((chunk = { firstId: e.id, lastId: e.id, facts: emptyFacts() }));
        add(chunk, e, match);
        chunk.lastId = e.id;
        last = e.id;
      }
    }
    return last;
  }

  return {
    /** What the partner's traffic touched, up to `subject.upTo`, for the operations of `templates`. */
    facts(subject: TrafficSubject, templates: readonly RouteTemplate[]): TrafficFacts {
      const key = JSON.stringify(templates);
      if (matcher?.key !== key) {
        // other operations: what was read is read again
        matcher = { key, match: routeMatcher(templates) };
        byPartner.clear();
      }
      const { partnerId, upTo, oldestKept } = subject;
      let state = byPartner.get(partnerId);
      if (!state) byPartner.set(partnerId, (state = { chunks: [], lastId: 0, deliveries: { facts: emptyFacts(), lastId: 0, n: 0 } }));
      // entries the journal dropped: whole chunks go, the oldest one left is read again from what is kept
      state.chunks = state.chunks.filter((c) => c.lastId >= oldestKept);
      const oldest = state.chunks[0];
      if (oldest && oldest.firstId < oldestKept) {
        const again: Chunk[] = [];
        read(partnerId, again, oldestKept - 1, oldestKept, oldest.lastId, matcher.match);
        state.chunks.splice(0, 1, ...again);
      }
      state.lastId = Math.max(state.lastId, read(partnerId, state.chunks, state.lastId, oldestKept, upTo, matcher.match));
      // deliveries: added to in id order up to the first not yet attempted, unless a reset removed some
      const mark = reads.impact.deliveryMark(partnerId);
      const d = state.deliveries;
      if (mark.n < d.n || mark.last < d.lastId) Object.assign(d, { facts: emptyFacts(), lastId: 0, n: 0 });
      for (const row of reads.impact.deliveries(partnerId, d.lastId)) {
        if (row.state === 'pending' || row.state === 'delivering') break;
        let body: unknown;
        try {
          body = JSON.parse(row.body) as unknown;
        } catch {
          body = undefined;
        }
        addDelivery(d.facts, { id: row.id, version: row.contract_version ?? BASE, event: row.event, body });
        d.lastId = row.id;
        d.n++;
      }
      return mergeFacts([...state.chunks.map((c) => c.facts), d.facts]);
    },
    forget: (partnerId: string): void => void byPartner.delete(partnerId),
  };
}
export type TrafficReader = ReturnType<typeof createTrafficReader>;
