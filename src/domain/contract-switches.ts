/**
 * Contract versions' behaviour switches: what an OpenAPI Overlay cannot say about a version (the
 * document says what may be sent; these say what obsim sends), kept in the version file under one
 * `x-obsim` extension (docs/contract-versions.md):
 *
 * - a value obsim may now send for an enum-like field, and when (`send` + `when`);
 * - a new answer field and how its value is made (`value`: a constant, a copy of another field, a
 *   template, a UUID derived from the answer, the sandbox's instant);
 * - a field no longer sent (`remove`);
 * - a status code changed (`operations.<operationId>.status`);
 * - an answer header and how its value is made (`operations.<operationId>.headers`: the same makers
 *   as a new field's, reading the answer's body);
 * - an operation's deprecation and sunset instants (`operations.<operationId>.deprecatedAt`, `sunsetAt`).
 *
 * Pure: every value a switch makes is a function of the answer, the version and the instant, so
 * the same answer is shaped the same way every time (a redelivery sends the same bytes).
 */
import { createHash } from 'node:crypto';

/** The version every request gets when nothing names another: the provider's document as it is. */
export const BASE_VERSION = 'base';
/** The header a request names its version with, and every answer of a versioned server names the one that served it. */
export const CONTRACT_VERSION_HEADER = 'obsim-contract-version';

export type ValueSource =
  { const: unknown } | { copy: string } | { template: string } | { generate: 'uuid'; from?: string } | { generate: 'now' };

export interface AnswerSwitch {
  /** An operationId of the version's document, or a webhook event name (`payment.completed`). */
  in: string;
  /** RFC 6901 pointer into the answer (for an event: into the envelope, `/data/…`); `*` stands for every item of an array. */
  field: string;
  remove?: boolean;
  value?: ValueSource;
  send?: string | number | boolean | null;
  when?: { field: string; equals: unknown };
  description?: string;
}

export interface OperationSwitches {
  deprecatedAt?: string;
  sunsetAt?: string;
  /** A status code changed: the base's status → the one this version answers instead. */
  status?: Record<string, number>;
  /** Answer headers the version sends on the operation's successful answers: the name → how its value is made. */
  headers?: Record<string, ValueSource>;
}

export interface ContractSwitches {
  /** When this version's deprecations took effect, for those that name no instant of their own. */
  deprecatedAt?: string;
  /** The page a `Link: <…>; rel="deprecation"` points to (default: the version's document in /docs). */
  docs?: string;
  operations?: Record<string, OperationSwitches>;
  answers?: AnswerSwitch[];
}

/** The answer switches of one operation or event, in file order. */
export type AnswerRules = readonly AnswerSwitch[];

export interface ShapeContext {
  version: string;
  /** The sandbox clock's instant (ISO 8601 with milliseconds), asked only by a switch that makes it. */
  now(): string;
}

/** The tokens of an RFC 6901 pointer (`*` kept as the wildcard). */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The value at the place `tokens` (an RFC 6901 pointer's, pointerTokens) name in `root`; undefined: none there. */
export function valueAt(root: unknown, tokens: readonly string[]): unknown {
  let node = root;
  for (const t of tokens) {
    if (Array.isArray(node)) node = node[Number(t)];
    else if (isObject(node)) node = node[t];
    else return undefined;
  }
  return node;
}

/** Every object holding the last token of `tokens` (a `*` fans out over an array's items), with that token. */
function holders(root: unknown, tokens: readonly string[]): { holder: Json; key: string }[] {
  // most switches name a field of the answer itself
  if (tokens.length === 1) return isObject(root) ? [{ holder: root, key: tokens[0] }] : [];
  const out: { holder: Json; key: string }[] = [];
  const walk = (node: unknown, i: number): void => {
    if (i === tokens.length - 1) {
      if (isObject(node)) out.push({ holder: node, key: tokens[i] });
      return;
    }
    const t = tokens[i];
    if (t === '*' && Array.isArray(node)) for (const item of node) walk(item, i + 1);
    else if (Array.isArray(node)) walk(node[Number(t)], i + 1);
    else if (isObject(node)) walk(node[t], i + 1);
  };
  if (tokens.length > 0) walk(root, 0);
  return out;
}

/** A UUID (RFC 9562 layout, version 8: made by obsim) derived from what it names: the same input, the same UUID. */
function derivedUuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A pointer's tokens, parsed once per pointer string (switches are read on every answer they shape). */
const parsed = new Map<string, string[]>();
function tokensOf(pointer: string): string[] {
  let tokens = parsed.get(pointer);
  if (tokens === undefined) parsed.set(pointer, (tokens = pointerTokens(pointer)));
  return tokens;
}

type TemplatePart = string | { name: string; pointer: boolean; tokens: string[] };
const templates = new Map<string, TemplatePart[]>();
/** A template's literal parts and `{field}` / `{/pointer}` places, split once. */
function templateOf(template: string): TemplatePart[] {
  let parts = templates.get(template);
  if (parts === undefined) {
    parts = template
      .split(/(\{[^}]+\})/)
      .filter((p) => p !== '')
      .map((p) => {
        if (!p.startsWith('{') || !p.endsWith('}')) return p;
        const name = p.slice(1, -1);
        return { name, pointer: name.startsWith('/'), tokens: name.startsWith('/') ? tokensOf(name) : [] };
      });
    templates.set(template, parts);
  }
  return parts;
}

/** What a made value is made for (a derived UUID differs per field and per header): an operation or event, and a field or header. */
type MadeFor = Pick<AnswerSwitch, 'in' | 'field'>;

function madeValue(source: ValueSource, holder: Json, root: unknown, rule: MadeFor, ctx: ShapeContext): unknown {
  if ('const' in source) return structuredClone(source.const);
  if ('copy' in source) return structuredClone(valueAt(root, tokensOf(source.copy)));
  if ('template' in source) {
    let out = '';
    for (const part of templateOf(source.template)) {
      if (typeof part === 'string') out += part;
      else {
        const v = part.pointer ? valueAt(root, part.tokens) : holder[part.name];
        out += v === undefined || v === null ? '' : String(v);
      }
    }
    return out;
  }
  if (source.generate === 'now') return ctx.now();
  const from = source.from === undefined ? holder : valueAt(root, tokensOf(source.from));
  return derivedUuid(ctx.version, rule.in, rule.field, JSON.stringify(from ?? null));
}

/**
 * `body` shaped by `rules`: first every new field's value is made from the answer as it came,
 * then the values now sent are put (their conditions read the answer with its new fields), then
 * the fields no longer sent are removed; so a value may be made from a field the version removes.
 * `inPlace`: the answer is the caller's own and is changed (an HTTP answer is made per request);
 * otherwise a copy is shaped (an event's envelope, shaped once per webhook version).
 */
export function shapeAnswer(rules: AnswerRules, body: unknown, ctx: ShapeContext, inPlace = false): unknown {
  if (rules.length === 0 || body === null || typeof body !== 'object') return body;
  const out = inPlace ? body : structuredClone(body);
  const made: { holder: Json; key: string; value: unknown }[] = [];
  for (const rule of rules) {
    if (rule.value === undefined) continue;
    for (const { holder, key } of holders(out, tokensOf(rule.field)))
      made.push({ holder, key, value: madeValue(rule.value, holder, out, rule, ctx) });
  }
  for (const { holder, key, value } of made) holder[key] = value;
  for (const rule of rules) {
    if (rule.send === undefined) continue;
    const tokens = tokensOf(rule.field);
    const whenTokens = rule.when ? tokensOf(rule.when.field) : undefined;
    for (const { holder, key } of holders(out, tokens)) {
      if (!(key in holder)) continue;
      if (whenTokens && !sameValue(conditionValue(out, holder, tokens, whenTokens), rule.when!.equals)) continue;
      holder[key] = rule.send;
    }
  }
  for (const rule of rules) if (rule.remove === true) for (const { holder, key } of holders(out, tokensOf(rule.field))) delete holder[key];
  return out;
}

/**
 * The value a `when` looks at: from the root, except that a `when` whose `*` stands where the
 * field's does reads the same item (`/items/{*}/status` for `/items/{*}/bankPaymentStatus`, star for {*}).
 */
function conditionValue(root: unknown, holder: Json, fieldTokens: readonly string[], whenTokens: readonly string[]): unknown {
  const star = whenTokens.lastIndexOf('*');
  const sameItem =
    star >= 0 && star === fieldTokens.length - 2 && whenTokens.slice(0, star + 1).join('/') === fieldTokens.slice(0, star + 1).join('/');
  return sameItem ? valueAt(holder, whenTokens.slice(star + 1)) : valueAt(root, whenTokens);
}

const sameValue = (a: unknown, b: unknown): boolean => a === b || (typeof a === 'object' && JSON.stringify(a) === JSON.stringify(b));

/** An operation's answer headers, worked out once from its `headers` switch: the name as sent (lower case) and its maker. */
export type HeaderRules = readonly { name: string; source: ValueSource; for: MadeFor }[];

export function headerRules(operationId: string, headers: Record<string, ValueSource> | undefined): HeaderRules | undefined {
  if (headers === undefined || Object.keys(headers).length === 0) return undefined;
  return Object.entries(headers).map(([name, source]) => {
    const lower = name.toLowerCase();
    return { name: lower, source, for: { in: operationId, field: `header:${lower}` } };
  });
}

/** Headers obsim sets itself on every answer it frames, or for what a version deprecates: no switch makes them. */
const HEADERS_OBSIM_SETS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'date',
  CONTRACT_VERSION_HEADER,
  'deprecation',
  'sunset',
  'link',
]);

/**
 * Why a version cannot make the answer header `name` on `operationId`'s answers (undefined: it
 * can): obsim sets it itself, or already sends it because the provider's document gives it to the
 * operation's successful answers (`documented`, lower case: `x-request-id`).
 */
export function headerNotMakeable(name: string, operationId: string, documented: ReadonlySet<string>): string | undefined {
  const lower = name.toLowerCase();
  if (HEADERS_OBSIM_SETS.has(lower)) return `${lower} is a header obsim sets itself: a version does not make it`;
  if (documented.has(lower)) return `obsim already sends ${lower} on ${operationId}'s answers (the provider's document gives it)`;
  return undefined;
}

/** What a header may hold as obsim sends it: printable ASCII (a made value with a line break in it is not sent). */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * The headers `rules` make for an answer whose body is `body` (as the version sends it): each
 * name with its value as text (a number or boolean as written, an object as JSON). A value that
 * cannot be made (a copy of a field the answer lacks, null) or cannot be a header's is left out.
 */
export function madeHeaders(rules: HeaderRules, body: unknown, ctx: ShapeContext): [string, string][] {
  const out: [string, string][] = [];
  const holder = isObject(body) ? body : {};
  for (const rule of rules) {
    const value = madeValue(rule.source, holder, body, rule.for, ctx);
    if (value === undefined || value === null) continue;
    const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
    if (HEADER_VALUE.test(text)) out.push([rule.name, text]);
  }
  return out;
}

/** The status a version answers instead of `status` (itself when the version changes nothing). */
export const versionedStatus = (ops: OperationSwitches | undefined, status: number): number => ops?.status?.[String(status)] ?? status;

/** RFC 9745 `Deprecation`: a structured-field date, `@` and whole seconds since the epoch. */
export const deprecationHeader = (instantIso: string): string => `@${Math.floor(Date.parse(instantIso) / 1000)}`;

/** RFC 8594 `Sunset`: an HTTP-date (IMF-fixdate). */
export const sunsetHeader = (instantIso: string): string => new Date(instantIso).toUTCString();
