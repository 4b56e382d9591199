/**
 * Where each delivery goes in a recording: after the request that caused it. Deliveries carry
 * only the sandbox clock's instant, so: the first entry answered at or after it (an advance
 * that fired it answers later), then, among the entries that had arrived by that instant (a
 * frozen clock: all of the same instant; a running one: those in progress, to the
 * millisecond), the last write that names the event's subject — after its webhook's
 * registration and, for a redelivery, after the redeliver call. Placing late is safe (an
 * expectation finds a delivery made earlier); early is not.
 *
 * Indexed and searched by bisection: a 10,000-entry journal with thousands of deliveries on a
 * frozen clock (every entry of one instant) must not cost entries × deliveries.
 */
import { formatDuration, generatedValues, isGeneratedKey, type GeneratedValue } from './scenario-draft-values.js';

export interface DraftEntry {
  id: number;
  at: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  requestBody?: unknown;
  requestBodyTruncated: boolean;
  status: number;
  /** Real time from the request's arrival to its answer (on a running clock, also its span on the sandbox clock). */
  durationMs: number;
  responseBody?: unknown;
  responseBodyTruncated: boolean;
  code?: string;
  fault?: { rule: number; kind: string };
  /**
   * What the answer hands out, when the caller knows it from the document (a HAR import asks the
   * contract's capture rule, src/contracts/ids.ts); otherwise judged by key names (generatedValues).
   */
  handedOut?: GeneratedValue[];
  /** Said in a comment above its step (an importer's reason for a step it inferred). */
  note?: string;
}

export interface DraftDelivery {
  id: number;
  event: string;
  webhookId: string;
  /** The exact body sent (the event envelope, JSON). */
  body: string;
  /** On the sandbox clock. */
  createdAt: string;
  redeliveryOf: number | null;
}

export interface Placed {
  delivery: DraftDelivery;
  /** The event's `data` (its body parsed once, here). */
  data: unknown;
  /** Virtual time to let pass for it (it came from a timer on a running clock, between requests). */
  within?: string;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The first index at or after `from` whose value is >= t (values nondecreasing). */
function lowerBound(values: readonly number[], t: number, from: number): number {
  let lo = from;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The largest value of a sorted list within [lo, hi], or -1. */
function largestWithin(sorted: readonly number[] | undefined, lo: number, hi: number): number {
  if (!sorted) return -1;
  const at = lowerBound(sorted, hi + 1, 0) - 1;
  return at >= 0 && sorted[at] >= lo ? sorted[at] : -1;
}

const isClockMove = (e: DraftEntry) => e.path.startsWith('/_sandbox/clock/');

/** The ids an event is about (`paymentId`, `requestId`, `merchantClientId`…), as text. */
function subjectsOf(data: unknown): string[] {
  if (typeof data !== 'object' || data === null) return [];
  return Object.entries(data)
    .filter(([k, v]) => isGeneratedKey(k) && !k.endsWith('Url') && (typeof v === 'number' || (typeof v === 'string' && v.length >= 4)))
    .map(([, v]) => String(v));
}

/**
 * What else each value an answer handed out stands for: the values of one object name one thing,
 * so a hosted link's token (the last segment of `paymentUrl`, an `onboardingToken`) names the
 * payment or merchant its answer was about, and a write to /pay/<token> names that payment.
 */
function aliasesOf(entries: readonly DraftEntry[]): Map<string, Set<string>> {
  // a set per value, added to in place: a value every answer repeats (a merchant's clientId in each
  // of thousands of status polls) must not copy its growing list once per answer
  const out = new Map<string, Set<string>>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const values: string[] = [];
    for (const [k, v] of Object.entries(node)) {
      if (typeof v === 'object') visit(v);
      else if (isGeneratedKey(k) && (typeof v === 'string' || typeof v === 'number')) {
        values.push(k.endsWith('Url') ? (String(v).split('?')[0].split('/').pop() ?? '') : String(v));
      }
    }
    for (const v of values) {
      if (v === '') continue;
      let aliases = out.get(v);
      if (!aliases) out.set(v, (aliases = new Set()));
      for (const w of values) if (w !== v) aliases.add(w);
    }
  };
  for (const e of entries) visit(e.responseBody);
  return out;
}

export function placeDeliveries(entries: DraftEntry[], deliveries: DraftDelivery[]): Map<number, Placed[]> {
  const placed = new Map<number, Placed[]>();
  // nothing to place (a HAR import has no deliveries): the indexes below would be built for nothing
  if (deliveries.length === 0) return placed;
  const put = (i: number, p: Placed) => {
    const list = placed.get(i);
    if (list) list.push(p);
    else placed.set(i, [p]);
  };
  const registeredAt = new Map<string, number>();
  /** id (a path segment, an id in either body) → the writes that name it, in order. */
  const writesNaming = new Map<string, number[]>();
  const atMs = entries.map((e) => Date.parse(e.at));
  const aliases = aliasesOf(entries);
  entries.forEach((e, j) => {
    const id = (e.responseBody as { id?: unknown } | undefined)?.id;
    if (e.method === 'POST' && e.path === '/v1/partner/webhooks' && typeof id === 'string') registeredAt.set(id, j);
    if (e.method === 'GET') return;
    const names = new Set<string>(e.path.split('/').filter((s) => s !== ''));
    for (const g of generatedValues(e.responseBody, generatedValues(e.requestBody))) names.add(String(g.value));
    for (const n of [...names]) for (const alias of aliases.get(n) ?? []) names.add(alias);
    for (const n of names) {
      const list = writesNaming.get(n);
      if (list) list.push(j);
      else writesNaming.set(n, [j]);
    }
  });
  const last = entries.length - 1;
  for (const d of deliveries) {
    const t = Date.parse(d.createdAt);
    const data = (parseJson(d.body) as { data?: unknown } | undefined)?.data;
    const floor = registeredAt.get(d.webhookId);
    if (floor === undefined) {
      put(last, { delivery: d, data });
      continue;
    }
    let i = lowerBound(atMs, t, floor);
    let within: string | undefined;
    if (i > last) {
      i = last;
      if (t - atMs[i] >= 1000) within = formatDuration(Math.ceil((t - atMs[i]) / 1000) * 1000);
    } else if (i > floor && !isClockMove(entries[i]) && atMs[i] - entries[i].durationMs - t >= 1000 && t - atMs[i - 1] >= 1000) {
      // made well before this request arrived: a timer on a running clock fired between two
      // requests, and the replay lets the same time pass (a replay sends its requests at once)
      i -= 1;
      within = formatDuration(Math.ceil((t - atMs[i]) / 1000) * 1000);
    }
    // the entries that had arrived by then: those answered by t, and those in progress at t
    let upper = lowerBound(atMs, t + 2, i) - 1;
    while (upper < last && atMs[upper + 1] - entries[upper + 1].durationMs <= t + 1) upper++;
    const names = d.redeliveryOf !== null ? [String(d.redeliveryOf)] : subjectsOf(data);
    let cause = -1;
    for (const n of names) {
      for (let k = largestWithin(writesNaming.get(n), i, upper); k >= i; k = largestWithin(writesNaming.get(n), i, k - 1)) {
        // a redelivery: the redeliver call of its original, nothing else naming that id
        if (d.redeliveryOf === null || entries[k].path === `/_sandbox/deliveries/${d.redeliveryOf}/redeliver`) {
          cause = Math.max(cause, k);
          break;
        }
      }
    }
    put(cause >= 0 ? cause : i, { delivery: d, data, within });
  }
  return placed;
}
