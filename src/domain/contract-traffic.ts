/**
 * What a sandbox's traffic touched, as the impact report joins it with a changelog
 * (src/domain/contract-impact.ts): per contract version and operation, the calls and the statuses
 * answered, the request fields, query parameters and kept headers sent (with their values) and
 * the shapes of the requests, the answer fields received (with their values) per status; per
 * version and webhook event, the deliveries and their payload fields. Each fact names its
 * evidence: how many journal entries (or deliveries) and the ids of the first few.
 *
 * Facts add up: a page of entries makes its facts and the report merges them (src/impact/
 * collect.ts keeps them in chunks, so a report reads only what was written since the last).
 * Values are kept per field up to VALUES_KEPT distinct ones (every enum of the provider's API has
 * fewer); a field of more (an id, an amount) keeps none, and is said to have too many.
 */
import { pointerToken } from './drift.js';

/** How many entry or delivery ids a fact names (the count is whole). */
export const FIRST_IDS = 5;
export const VALUES_KEPT = 32;
const SHAPES_KEPT = 64;

export interface Evidence {
  count: number;
  /** The first ids, ascending. */
  first: number[];
  /** While facts are made: the last id noted (an array's items hold a field again in one entry). Not in a report. */
  lastId?: number;
}

export interface FieldSeen {
  seen: Evidence;
  /** Evidence by value (JSON text); null: more distinct values than VALUES_KEPT. */
  values: Record<string, Evidence> | null;
}

export interface CallsSeen {
  calls: Evidence;
  /** By the status answered (`200`, `400`). */
  statuses: Record<string, Evidence>;
  /** Body fields sent (pointers, `*` for items). */
  request: Record<string, FieldSeen>;
  query: Record<string, FieldSeen>;
  /** Request headers the journal keeps, by lower-case name. */
  headers: Record<string, Evidence>;
  /** What each request carried (its body's fields, `?name` for a query parameter, `header:name`), for "the calls that did not send X"; null: too many shapes. */
  shapes: { carried: string[]; key: string; seen: Evidence }[] | null;
  /** Answer fields received, by status answered. */
  answers: Record<string, Record<string, FieldSeen>>;
}

export interface EventsSeen {
  deliveries: Evidence;
  fields: Record<string, FieldSeen>;
}

export interface TrafficFacts {
  /** version → route key (`GET /v1/partner/payments/:paymentId/status`) → what was seen. */
  operations: Record<string, Record<string, CallsSeen>>;
  /** version → event → what was delivered. */
  webhooks: Record<string, Record<string, EventsSeen>>;
  entries: number;
  deliveries: number;
  /** Entries whose request or answer body the journal kept only in part (over its body limit): their fields are not read. */
  unreadBodies: number;
}

export const emptyFacts = (): TrafficFacts => ({ operations: {}, webhooks: {}, entries: 0, deliveries: 0, unreadBodies: 0 });
const noEvidence = (): Evidence => ({ count: 0, first: [] });

function note(e: Evidence, id: number): void {
  e.count++;
  if (e.first.length < FIRST_IDS) e.first.push(id);
}

/** `a` and `b` together (the first ids of both, in order). */
export function mergeEvidence(a: Evidence, b: Evidence): Evidence {
  const first =
    a.first.length === 0 ? b.first : b.first.length === 0 ? a.first : [...new Set([...a.first, ...b.first])].sort((x, y) => x - y);
  return { count: a.count + b.count, first: first.slice(0, FIRST_IDS) };
}

/** An RFC 6901 token; most keys need no escaping, and this runs for every key of every body read. */
const token = (key: string): string => (key.includes('~') || key.includes('/') ? pointerToken(key) : key);

/** One value seen at a field in the body of entry `id` (once an entry, however many items held it). */
function noteValue(f: FieldSeen, value: string, id: number): void {
  if (f.values === null) return;
  let e = f.values[value];
  if (!e) {
    if (Object.keys(f.values).length >= VALUES_KEPT) {
      f.values = null;
      return;
    }
    f.values[value] = e = noEvidence();
  }
  if (e.lastId !== id) {
    note(e, id);
    e.lastId = id;
  }
}

/**
 * Every field of a body noted in `into` for entry `id`, walked once; `pointers`, when given,
 * collects each field's pointer (a request's shape).
 */
function noteBody(into: Record<string, FieldSeen>, body: object, id: number, pointers?: Set<string>): void {
  const visit = (node: unknown, pointer: string, depth: number): void => {
    let f = into[pointer];
    if (!f) into[pointer] = f = { seen: noEvidence(), values: {} };
    if (f.seen.lastId !== id) {
      note(f.seen, id);
      f.seen.lastId = id;
    }
    pointers?.add(pointer);
    if (node === null || typeof node !== 'object') noteValue(f, JSON.stringify(node), id);
    else walk(node, pointer, depth);
  };
  const walk = (node: object, pointer: string, depth: number): void => {
    if (depth > 16) return;
    if (Array.isArray(node)) {
      const items = `${pointer}/*`;
      for (const item of node) visit(item, items, depth + 1);
    } else {
      const o = node as Record<string, unknown>;
      for (const key in o) visit(o[key], `${pointer}/${token(key)}`, depth + 1);
    }
  };
  walk(body, '', 0);
}

/** A journal entry as the facts read it (src/impact/collect.ts makes it from a page). */
export interface TrafficEntry {
  id: number;
  /** The version that served it (`base` when none). */
  version: string;
  /** The operation's route key. */
  route: string;
  status: number;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  /** The request body when the journal kept it whole as JSON (undefined: none, or not readable). */
  requestBody?: unknown;
  responseBody?: unknown;
  /** A body kept only in part. */
  truncated: boolean;
}

const emptyCalls = (): CallsSeen => ({ calls: noEvidence(), statuses: {}, request: {}, query: {}, headers: {}, shapes: [], answers: {} });

export function addEntry(facts: TrafficFacts, e: TrafficEntry): void {
  facts.entries++;
  if (e.truncated) facts.unreadBodies++;
  const byRoute = (facts.operations[e.version] ??= {});
  const seen = (byRoute[e.route] ??= emptyCalls());
  note(seen.calls, e.id);
  note((seen.statuses[String(e.status)] ??= noEvidence()), e.id);
  const carried = new Set<string>();
  if (e.requestBody !== null && typeof e.requestBody === 'object') noteBody(seen.request, e.requestBody, e.id, carried);
  for (const [name, value] of Object.entries(e.query)) {
    const f = (seen.query[name] ??= { seen: noEvidence(), values: {} });
    note(f.seen, e.id);
    noteValue(f, JSON.stringify(value), e.id);
    carried.add(`?${name}`);
  }
  for (const name of Object.keys(e.headers)) {
    note((seen.headers[name] ??= noEvidence()), e.id);
    carried.add(`header:${name}`);
  }
  if (seen.shapes !== null) {
    const key = [...carried].sort().join('\n');
    let shape = seen.shapes.find((s) => s.key === key);
    if (!shape) {
      if (seen.shapes.length >= SHAPES_KEPT) seen.shapes = null;
      else seen.shapes.push((shape = { carried: key === '' ? [] : key.split('\n'), key, seen: noEvidence() }));
    }
    if (shape) note(shape.seen, e.id);
  }
  if (e.responseBody !== null && typeof e.responseBody === 'object')
    noteBody((seen.answers[String(e.status)] ??= {}), e.responseBody, e.id);
}

export function addDelivery(facts: TrafficFacts, d: { id: number; version: string; event: string; body: unknown }): void {
  facts.deliveries++;
  const byEvent = (facts.webhooks[d.version] ??= {});
  const seen = (byEvent[d.event] ??= { deliveries: noEvidence(), fields: {} });
  note(seen.deliveries, d.id);
  if (d.body !== null && typeof d.body === 'object') noteBody(seen.fields, d.body, d.id);
}

/** Evidence as a report holds it: its count and first ids (none of what making it kept). */
const plain = (e: Evidence): Evidence => ({ count: e.count, first: e.first.slice() });

function mergeFields(into: Record<string, FieldSeen>, from: Record<string, FieldSeen>): void {
  for (const [pointer, f] of Object.entries(from)) {
    const g = into[pointer];
    if (!g) {
      const values = f.values === null ? null : Object.fromEntries(Object.entries(f.values).map(([v, e]) => [v, plain(e)]));
      into[pointer] = { seen: plain(f.seen), values };
      continue;
    }
    g.seen = mergeEvidence(g.seen, f.seen);
    if (g.values === null || f.values === null) g.values = null;
    else {
      for (const [v, e] of Object.entries(f.values)) g.values[v] = g.values[v] ? mergeEvidence(g.values[v], e) : plain(e);
      if (Object.keys(g.values).length > VALUES_KEPT) g.values = null;
    }
  }
}

const mergeRecord = (into: Record<string, Evidence>, from: Record<string, Evidence>) => {
  for (const [k, e] of Object.entries(from)) into[k] = into[k] ? mergeEvidence(into[k], e) : plain(e);
};

/** `parts` added up into new facts (the parts are not changed). */
export function mergeFacts(parts: readonly TrafficFacts[]): TrafficFacts {
  const out = emptyFacts();
  for (const part of parts) {
    out.entries += part.entries;
    out.deliveries += part.deliveries;
    out.unreadBodies += part.unreadBodies;
    for (const [version, routes] of Object.entries(part.operations)) {
      const byRoute = (out.operations[version] ??= {});
      for (const [route, c] of Object.entries(routes)) {
        const s = (byRoute[route] ??= emptyCalls());
        s.calls = mergeEvidence(s.calls, c.calls);
        mergeRecord(s.statuses, c.statuses);
        mergeRecord(s.headers, c.headers);
        mergeFields(s.request, c.request);
        mergeFields(s.query, c.query);
        for (const [status, fields] of Object.entries(c.answers)) mergeFields((s.answers[status] ??= {}), fields);
        if (s.shapes === null || c.shapes === null) s.shapes = null;
        else
          for (const shape of c.shapes) {
            const same = s.shapes.find((x) => x.key === shape.key);
            if (same) same.seen = mergeEvidence(same.seen, shape.seen);
            else if (s.shapes.length >= SHAPES_KEPT) {
              s.shapes = null;
              break;
            } else s.shapes.push({ carried: shape.carried, key: shape.key, seen: plain(shape.seen) });
          }
      }
    }
    for (const [version, events] of Object.entries(part.webhooks)) {
      const byEvent = (out.webhooks[version] ??= {});
      for (const [event, w] of Object.entries(events)) {
        const s = (byEvent[event] ??= { deliveries: noEvidence(), fields: {} });
        s.deliveries = mergeEvidence(s.deliveries, w.deliveries);
        mergeFields(s.fields, w.fields);
      }
    }
  }
  return out;
}
