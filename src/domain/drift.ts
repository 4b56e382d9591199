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
  /** The obsim id an upstream id under `key` stands for, when the id map knows it. */
  mapped(key: string, upstream: string): string | undefined;
  /** Whether obsim's id under `key` was made through the shadow (the map knows it). */
  knownObsim(key: string, obsim: string): boolean;
  /** Property names the provider's document gives an enum. */
  enumKeys: ReadonlySet<string>;
  /** The values the document lists for each enum property (all its schemas' lists merged). */
  enumValues?: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * The answer carries the bank's data (a user's accounts, balances, transactions): its values
   * are the sandbox bank's, not the contract's, so only their shape is compared, enums against
   * the document's lists and ids through the map.
   */
  bankData?: boolean;
  /**
   * The document lets the answer's field at this pointer be absent (a property its object schema
   * does not require; list indexes read as any item). Two items compared by shape are two
   * resources: one made without an optional field is not a drift; a required field absent is.
   */
  optional?(pointer: string): boolean;
}

/** An enum value the document does not list, wherever it stands (paired or not). */
function unlisted(ctx: Pick<CompareContext, 'enumValues'>, key: string, value: unknown, pointer: string): Drift[] {
  const listed = ctx.enumValues?.get(key);
  return listed && typeof value === 'string' && !listed.has(value) ? [{ kind: 'enum_value', pointer, upstream: value }] : [];
}

/** What a comparison counted besides its drifts. */
export interface CompareStats {
  /** List items the shadow never saw made (the account's earlier ones): compared by shape only. */
  preExisting: number;
}

/** Property names that hold ids: compared through the id map, learned from create answers. */
export function isIdKey(key: string): boolean {
  return /^(id|.+Id|.+_id|token|.+Token|accessToken|eventId)$/.test(key);
}

/** Property names whose values differ between any two services by nature (prose too): compared by shape only. */
export function isVolatileKey(key: string): boolean {
  return (
    /(^|[a-z])(secret|Secret|signature|Signature|token|Token|Url|url|Link|link|requestId|Message)$/.test(key) ||
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
 * The drifts between two JSON values at `pointer`. Lists of items with ids are paired by id
 * through the map, never by position: an item the map does not know was made before the shadow
 * watched (on either side) and is compared by shape only, counted in `stats.preExisting`; a count
 * beside such a list (`total…`) is then not compared by value. Other lists item by item.
 */
export function compareJson(
  upstream: unknown,
  obsim: unknown,
  ctx: CompareContext,
  pointer = '',
  key = '',
  stats: CompareStats = { preExisting: 0 },
): Drift[] {
  const tu = typeOf(upstream);
  const to = typeOf(obsim);
  if (tu !== to) return [{ kind: 'type', pointer, upstream, obsim }];
  if (tu === 'object') {
    const u = upstream as Record<string, unknown>;
    const o = obsim as Record<string, unknown>;
    // lists first: whether every item is known decides whether a count beside them is compared
    const before = stats.preExisting;
    const lists = new Map<string, Drift[]>();
    for (const k of Object.keys(u))
      if (Array.isArray(u[k]) && k in o) lists.set(k, compareJson(u[k], o[k], ctx, `${pointer}/${pointerToken(k)}`, k, stats));
    const unpaired = stats.preExisting > before;
    return fieldDrifts(u, o, pointer, (k, p) => {
      if (lists.has(k)) return lists.get(k)!;
      if (COUNT_KEY.test(k) && unpaired) return compareShape(u[k], o[k], p, ctx);
      return compareJson(u[k], o[k], ctx, p, k, stats);
    });
  }
  if (tu === 'array') return compareArrays(upstream as unknown[], obsim as unknown[], ctx, pointer, key, stats);
  if (tu === 'string') return compareStrings(upstream as string, obsim as string, ctx, pointer, key);
  if (upstream === obsim) return [];
  if (tu === 'number' && isIdKey(key)) {
    const mapped = ctx.mapped(key, String(upstream));
    return mapped === undefined || mapped === String(obsim) ? [] : [{ kind: 'value', pointer, upstream, obsim }];
  }
  return ctx.bankData ? [] : [{ kind: 'value', pointer, upstream, obsim }];
}

/** Two objects' fields: one only the upstream has is `field_added`, one only obsim has `field_missing`, the rest as `both` says. */
function fieldDrifts(
  u: Record<string, unknown>,
  o: Record<string, unknown>,
  pointer: string,
  both: (key: string, pointer: string) => Drift[],
  /** A field on one side only that is not a drift (an optional one, between two resources compared by shape). */
  mayLack: (pointer: string) => boolean = () => false,
): Drift[] {
  const drifts: Drift[] = [];
  for (const k of Object.keys(u)) {
    const p = `${pointer}/${pointerToken(k)}`;
    if (k in o) drifts.push(...both(k, p));
    else if (!mayLack(p)) drifts.push({ kind: 'field_added', pointer: p, upstream: u[k] });
  }
  for (const k of Object.keys(o)) {
    const p = `${pointer}/${pointerToken(k)}`;
    if (!(k in u) && !mayLack(p)) drifts.push({ kind: 'field_missing', pointer: p, obsim: o[k] });
  }
  return drifts;
}

/** A count of a list's items (`total`, `totalAccounts`, `totalTransactions`). */
const COUNT_KEY = /^total([A-Z]\w*)?$/;

/**
 * The shape of two values: their types, their fields, the format of their strings; no value but
 * an enum's, against the document's list (`ctx.enumValues`).
 */
export function compareShape(
  upstream: unknown,
  obsim: unknown,
  pointer: string,
  ctx: Pick<CompareContext, 'enumValues' | 'optional'> = {},
  key = '',
): Drift[] {
  const tu = typeOf(upstream);
  const to = typeOf(obsim);
  if (tu !== to) return [{ kind: 'type', pointer, upstream, obsim }];
  if (tu === 'object') {
    const u = upstream as Record<string, unknown>;
    const o = obsim as Record<string, unknown>;
    return fieldDrifts(
      u,
      o,
      pointer,
      (k, p) => compareShape(u[k], o[k], p, ctx, k),
      (p) => ctx.optional?.(p) === true,
    );
  }
  if (tu === 'array') {
    const [a] = upstream as unknown[];
    const [b] = obsim as unknown[];
    if (a === undefined || b === undefined) return [];
    return (upstream as unknown[]).flatMap((item, i) => compareShape(item, b, `${pointer}/${i}`, ctx, key));
  }
  if (tu === 'string' && ctx.enumValues?.has(key)) return unlisted(ctx, key, upstream, pointer);
  if (tu === 'string' && formatOf(upstream as string) !== formatOf(obsim as string)) return [{ kind: 'format', pointer, upstream, obsim }];
  return [];
}

function compareStrings(upstream: string, obsim: string, ctx: CompareContext, pointer: string, key: string): Drift[] {
  if (upstream === obsim) return [];
  const fu = formatOf(upstream);
  const fo = formatOf(obsim);
  // the bank's enums (an account's type) differ from user to user: only the document's list binds them
  if (ctx.enumKeys.has(key))
    return ctx.bankData ? unlisted(ctx, key, upstream, pointer) : [{ kind: 'enum_value', pointer, upstream, obsim }];
  if (fu !== fo) return [{ kind: 'format', pointer, upstream, obsim }];
  if (isIdKey(key)) {
    const mapped = ctx.mapped(key, upstream);
    return mapped === undefined || mapped === obsim ? [] : [{ kind: 'value', pointer, upstream, obsim }];
  }
  // instants, links, tokens and secrets differ between any two services, and the bank's data
  // between any two banks: their shape is compared
  if (fu === 'date-time' || fu === 'date' || fu === 'url' || fu === 'jwt' || fu === 'uuid' || isVolatileKey(key) || ctx.bankData) return [];
  return [{ kind: 'value', pointer, upstream, obsim }];
}

/** The id an array item carries (its first id-like scalar property, with its key), to pair two lists. */
function itemId(item: unknown): [key: string, id: string] | undefined {
  if (typeOf(item) !== 'object') return undefined;
  for (const [k, v] of Object.entries(item as Record<string, unknown>)) {
    if (isIdKey(k) && (typeof v === 'string' || typeof v === 'number')) return [k, String(v)];
  }
  return undefined;
}

/** The item of `items` whose fields are most like `item`'s (optional fields differ from item to item). */
function nearest(item: unknown, items: unknown[]): unknown {
  const keys = (v: unknown) => new Set(typeOf(v) === 'object' ? Object.keys(v as object) : []);
  const mine = keys(item);
  let best = items[0];
  let bestDistance = Infinity;
  for (const other of items) {
    const theirs = keys(other);
    const distance = [...mine].filter((k) => !theirs.has(k)).length + [...theirs].filter((k) => !mine.has(k)).length;
    if (distance < bestDistance) [best, bestDistance] = [other, distance];
  }
  return best;
}

function compareArrays(
  upstream: unknown[],
  obsim: unknown[],
  ctx: CompareContext,
  pointer: string,
  key: string,
  stats: CompareStats,
): Drift[] {
  const uIds = upstream.map(itemId);
  const oIds = obsim.map(itemId);
  if (uIds.length + oIds.length > 0 && uIds.every((id) => id !== undefined) && oIds.every((id) => id !== undefined)) {
    const obsimIndex = new Map(oIds.map((id, i) => [`${id[0]} ${id[1]}`, i]));
    const drifts: Drift[] = [];
    const seen = new Set<number>();
    upstream.forEach((item, i) => {
      const [k, id] = uIds[i];
      const mapped = ctx.mapped(k, id);
      if (mapped === undefined) {
        // made before the shadow watched: the two sides cannot be paired, only their shape compared
        stats.preExisting++;
        if (obsim.length > 0) drifts.push(...compareShape(item, nearest(item, obsim), `${pointer}/${i}`, ctx, key));
        return;
      }
      const j = obsimIndex.get(`${k} ${mapped}`);
      if (j === undefined) {
        drifts.push({ kind: 'field_added', pointer: `${pointer}/${i}`, upstream: item });
        return;
      }
      seen.add(j);
      drifts.push(...compareJson(item, obsim[j], ctx, `${pointer}/${i}`, key, stats));
    });
    obsim.forEach((item, j) => {
      if (seen.has(j)) return;
      const [k, id] = oIds[j];
      // obsim's own earlier item (its seeded merchant): not the upstream's to list
      if (!ctx.knownObsim(k, id)) stats.preExisting++;
      else drifts.push({ kind: 'field_missing', pointer: `${pointer}/${j}`, obsim: item });
    });
    return drifts;
  }
  const drifts: Drift[] = [];
  const n = Math.max(upstream.length, obsim.length);
  for (let i = 0; i < n; i++) {
    const p = `${pointer}/${i}`;
    if (i >= obsim.length) drifts.push({ kind: 'field_added', pointer: p, upstream: upstream[i] });
    else if (i >= upstream.length) drifts.push({ kind: 'field_missing', pointer: p, obsim: obsim[i] });
    else drifts.push(...compareJson(upstream[i], obsim[i], ctx, p, key, stats));
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
  /** List items compared by shape only: made before the shadow watched. */
  preExisting: number;
}

/**
 * Compare one exchange's two answers. Uncomparable: the upstream failed (5xx: its trouble, not a
 * difference), obsim refused a step the upstream accepted (its state has left the upstream's: often
 * an id the map does not know), or a body that is not JSON on one side where the other is.
 */
export function compareAnswers({ upstream, obsim }: AnswerPair, ctx: CompareContext): Comparison {
  const stats: CompareStats = { preExisting: 0 };
  if (upstream.status >= 500)
    return { verdict: 'uncomparable', reason: `the upstream answered ${upstream.status}`, drifts: [], preExisting: 0 };
  if (obsim.status >= 400 && upstream.status < 400) {
    const code = (obsim.json as { code?: unknown } | undefined)?.code;
    return {
      verdict: 'uncomparable',
      reason: `obsim refused (${obsim.status}${typeof code === 'string' ? ` ${code}` : ''}) a step the upstream accepted (${upstream.status})`,
      drifts: [],
      preExisting: 0,
    };
  }
  const drifts: Drift[] = [];
  if (upstream.status !== obsim.status) drifts.push({ kind: 'status', pointer: '', upstream: upstream.status, obsim: obsim.status });
  drifts.push(...compareHeaders(upstream.headers, obsim.headers));
  const uJson = upstream.json !== undefined;
  const oJson = obsim.json !== undefined;
  if (uJson && oJson) drifts.push(...compareJson(upstream.json, obsim.json, ctx, '', '', stats));
  else if (uJson !== oJson && (upstream.text !== '' || obsim.text !== '')) {
    return {
      verdict: 'uncomparable',
      reason: uJson
        ? "obsim's answer is not JSON"
        : upstream.text === ''
          ? 'the upstream answered an empty body'
          : "the upstream's answer is not JSON",
      drifts,
      preExisting: stats.preExisting,
    };
  }
  return { verdict: drifts.length ? 'drift' : 'match', drifts, preExisting: stats.preExisting };
}
