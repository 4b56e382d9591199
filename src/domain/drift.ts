/**
 * Drift: where obsim's answer to a request differs from the real provider's answer to the same
 * request (docs/drift.md). The shadow (src/shadow/) pairs the two answers; these are the rules
 * that compare them, after normalising what must differ between two services that are not the
 * same service: ids (through the id map), instants, tokens, secrets, signatures and links.
 *
 * Kinds, each at an RFC 6901 pointer into the answer body (or a header's name):
 * - `status`: the two answered different status codes;
 * - `field_added`: the upstream answers a field obsim does not; `field_missing`: the reverse;
 * - `type`: the same field holds different JSON types (a number against a string, null against an object);
 * - `enum_value`: a field the document gives an enum (status, bankPaymentStatus, …) holds another value;
 * - `format`: a string of another shape (a date-time against a date, a decimal string against an integer string, a uuid);
 * - `value`: any other scalar that differs once ids are mapped (an amount, a currency, a message);
 * - `header`: a header the document gives (content-type, retry-after, x-request-id) differs or is absent on one side;
 * - webhooks: `event_missing` (obsim sent an event the upstream did not), `event_extra` (the
 *   reverse), `event_order`, `event_payload` (with the payload's drifts at pointers into the
 *   envelope), `event_signature` (a delivery whose signature does not verify with its secret),
 *   `event_late` (the upstream's delivery came later than obsim's by more than the late limit).
 */

export const DRIFT_KINDS = [
  'status',
  'field_added',
  'field_missing',
  'type',
  'enum_value',
  'format',
  'value',
  'header',
  'event_missing',
  'event_extra',
  'event_order',
  'event_late',
  'event_payload',
  'event_signature',
] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

export interface Drift {
  kind: DriftKind;
  /** RFC 6901 pointer into the body (`/data/status`), or the header's name for `header`. */
  pointer: string;
  upstream?: unknown;
  obsim?: unknown;
  /** For `event_payload`: what differs inside the envelope (field_added, type, value, …). */
  detail?: DriftKind;
}

export type Verdict = 'match' | 'drift' | 'uncomparable';

/** How the comparison sees the two sides' ids and the document. */
export interface CompareContext {
  /** The obsim value an upstream id stands for, when the id map knows it. */
  mapped(upstream: string): string | undefined;
  /** Property names the provider's document gives an enum. */
  enumKeys: ReadonlySet<string>;
}

/** Property names that hold ids: compared through the id map, learned from create answers. */
export function isIdKey(key: string): boolean {
  return /^(id|.+Id|.+_id|token|.+Token|accessToken|eventId)$/.test(key);
}

/** Property names whose values differ between any two services by nature: compared by shape only. */
export function isVolatileKey(key: string): boolean {
  return (
    /(^|[a-z])(secret|Secret|signature|Signature|token|Token|Url|url|Link|link|requestId)$/.test(key) ||
    /^(secret|signature|url|message)$/.test(key)
  );
}

const FORMATS: [string, RegExp][] = [
  ['date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
  ['uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i],
  ['url', /^https?:\/\/\S+$/],
  ['email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/],
  ['jwt', /^[\w-]+\.[\w-]+\.[\w-]*$/],
  ['integer-string', /^-?\d+$/],
  ['decimal-string', /^-?\d+\.\d+$/],
];

/** The shape of a string, as far as two services should agree on it. */
export function formatOf(value: string): string {
  for (const [name, pattern] of FORMATS) if (pattern.test(value)) return name;
  return 'text';
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** RFC 6901: `~` and `/` escaped in a reference token. */
export const pointerToken = (key: string | number): string => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The drifts between two JSON values at `pointer`. Arrays of objects with ids are aligned by id
 * (an upstream item whose id the map does not know was made before the shadow watched and is
 * left out); other arrays item by item.
 */
export function compareJson(upstream: unknown, obsim: unknown, ctx: CompareContext, pointer = '', key = ''): Drift[] {
  const tu = typeOf(upstream);
  const to = typeOf(obsim);
  if (tu !== to) {
    // an id may be a number on one side and a string on the other only if both are the same id
    return [{ kind: 'type', pointer, upstream, obsim }];
  }
  if (tu === 'object') {
    const u = upstream as Record<string, unknown>;
    const o = obsim as Record<string, unknown>;
    const drifts: Drift[] = [];
    for (const k of Object.keys(u)) {
      const p = `${pointer}/${pointerToken(k)}`;
      if (!(k in o)) drifts.push({ kind: 'field_added', pointer: p, upstream: u[k] });
      else drifts.push(...compareJson(u[k], o[k], ctx, p, k));
    }
    for (const k of Object.keys(o))
      if (!(k in u)) drifts.push({ kind: 'field_missing', pointer: `${pointer}/${pointerToken(k)}`, obsim: o[k] });
    return drifts;
  }
  if (tu === 'array') return compareArrays(upstream as unknown[], obsim as unknown[], ctx, pointer, key);
  if (tu === 'string') return compareStrings(upstream as string, obsim as string, ctx, pointer, key);
  if (upstream === obsim) return [];
  if (tu === 'number' && isIdKey(key)) {
    const mapped = ctx.mapped(String(upstream));
    return mapped === undefined || mapped === String(obsim) ? [] : [{ kind: 'value', pointer, upstream, obsim }];
  }
  return [{ kind: 'value', pointer, upstream, obsim }];
}

function compareStrings(upstream: string, obsim: string, ctx: CompareContext, pointer: string, key: string): Drift[] {
  if (upstream === obsim) return [];
  const fu = formatOf(upstream);
  const fo = formatOf(obsim);
  if (ctx.enumKeys.has(key)) return [{ kind: 'enum_value', pointer, upstream, obsim }];
  if (fu !== fo) return [{ kind: 'format', pointer, upstream, obsim }];
  if (isIdKey(key)) {
    const mapped = ctx.mapped(upstream);
    return mapped === undefined || mapped === obsim ? [] : [{ kind: 'value', pointer, upstream, obsim }];
  }
  // instants, links, tokens and secrets differ between any two services: their shape is compared
  if (fu === 'date-time' || fu === 'date' || fu === 'url' || fu === 'jwt' || fu === 'uuid' || isVolatileKey(key)) return [];
  return [{ kind: 'value', pointer, upstream, obsim }];
}

/** The id an array item carries (its first id-like scalar property), to align two lists. */
function itemId(item: unknown): string | undefined {
  if (typeOf(item) !== 'object') return undefined;
  for (const [k, v] of Object.entries(item as Record<string, unknown>)) {
    if (isIdKey(k) && (typeof v === 'string' || typeof v === 'number')) return String(v);
  }
  return undefined;
}

function compareArrays(upstream: unknown[], obsim: unknown[], ctx: CompareContext, pointer: string, key: string): Drift[] {
  const uIds = upstream.map(itemId);
  const oIds = obsim.map(itemId);
  if (uIds.length > 0 && uIds.every((id) => id !== undefined) && oIds.every((id) => id !== undefined)) {
    const obsimIndex = new Map(oIds.map((id, i) => [id, i]));
    const drifts: Drift[] = [];
    const seen = new Set<number>();
    upstream.forEach((item, i) => {
      const mapped = ctx.mapped(uIds[i]);
      if (mapped === undefined) return; // made before the shadow watched: obsim never saw it
      const j = obsimIndex.get(mapped);
      if (j === undefined) {
        drifts.push({ kind: 'field_added', pointer: `${pointer}/${i}`, upstream: item });
        return;
      }
      seen.add(j);
      drifts.push(...compareJson(item, obsim[j], ctx, `${pointer}/${i}`, key));
    });
    obsim.forEach((item, j) => {
      if (!seen.has(j)) drifts.push({ kind: 'field_missing', pointer: `${pointer}/${j}`, obsim: item });
    });
    return drifts;
  }
  const drifts: Drift[] = [];
  const n = Math.max(upstream.length, obsim.length);
  for (let i = 0; i < n; i++) {
    const p = `${pointer}/${i}`;
    if (i >= obsim.length) drifts.push({ kind: 'field_added', pointer: p, upstream: upstream[i] });
    else if (i >= upstream.length) drifts.push({ kind: 'field_missing', pointer: p, obsim: obsim[i] });
    else drifts.push(...compareJson(upstream[i], obsim[i], ctx, p, key));
  }
  return drifts;
}

/** The headers whose presence and value the document gives: compared (the rest are each service's own). */
export const COMPARED_HEADERS = ['content-type', 'retry-after', 'x-request-id'] as const;

/** Header drifts: the media type of content-type, and whether the others are present. */
export function compareHeaders(upstream: Record<string, string>, obsim: Record<string, string>): Drift[] {
  const drifts: Drift[] = [];
  for (const name of COMPARED_HEADERS) {
    const u = upstream[name];
    const o = obsim[name];
    if (u === undefined && o === undefined) continue;
    if (u === undefined || o === undefined) {
      drifts.push({ kind: 'header', pointer: name, ...(u !== undefined ? { upstream: u } : {}), ...(o !== undefined ? { obsim: o } : {}) });
      continue;
    }
    if (name === 'content-type' && mediaType(u) !== mediaType(o)) drifts.push({ kind: 'header', pointer: name, upstream: u, obsim: o });
  }
  return drifts;
}

const mediaType = (v: string): string => v.split(';')[0].trim().toLowerCase();

export interface AnswerPair {
  upstream: { status: number; headers: Record<string, string>; json: unknown; text: string };
  obsim: { status: number; headers: Record<string, string>; json: unknown; text: string };
}

export interface Comparison {
  verdict: Verdict;
  reason?: string;
  drifts: Drift[];
}

/**
 * Compare one exchange's two answers. Uncomparable: the upstream failed (5xx: its trouble, not a
 * difference), obsim refused a step the upstream accepted (its state has left the upstream's: often
 * an id the map does not know), or a body that is not JSON on one side where the other is.
 */
export function compareAnswers({ upstream, obsim }: AnswerPair, ctx: CompareContext): Comparison {
  if (upstream.status >= 500) return { verdict: 'uncomparable', reason: `the upstream answered ${upstream.status}`, drifts: [] };
  if (obsim.status >= 400 && upstream.status < 400) {
    const code = (obsim.json as { code?: unknown } | undefined)?.code;
    return {
      verdict: 'uncomparable',
      reason: `obsim refused (${obsim.status}${typeof code === 'string' ? ` ${code}` : ''}) a step the upstream accepted (${upstream.status})`,
      drifts: [],
    };
  }
  const drifts: Drift[] = [];
  if (upstream.status !== obsim.status) drifts.push({ kind: 'status', pointer: '', upstream: upstream.status, obsim: obsim.status });
  drifts.push(...compareHeaders(upstream.headers, obsim.headers));
  const uJson = upstream.json !== undefined;
  const oJson = obsim.json !== undefined;
  if (uJson && oJson) drifts.push(...compareJson(upstream.json, obsim.json, ctx));
  else if (uJson !== oJson && (upstream.text !== '' || obsim.text !== '')) {
    return {
      verdict: 'uncomparable',
      reason: uJson
        ? "obsim's answer is not JSON"
        : upstream.text === ''
          ? 'the upstream answered an empty body'
          : "the upstream's answer is not JSON",
      drifts,
    };
  }
  return { verdict: drifts.length ? 'drift' : 'match', drifts };
}
