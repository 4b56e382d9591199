/**
 * What the shadow reads in the provider's document (and obsim's controls): which operation a
 * request is, where the contract places an id in its path, query, body and answer, and what kind
 * of id each is: the capture rule shared with the HAR importer (src/contracts/ids.ts). The id map
 * (./id-map.ts) learns and translates there, and nowhere else.
 */
import { pointerTokens } from '../domain/contract-switches.js';
import {
  anyIdKindOf,
  answerSchema,
  deref,
  idKindOf,
  LINK_KINDS,
  operations,
  PATH_FIELDS,
  queryIdKindOf,
  requestSchema,
  shapeOf,
  type Doc,
  type IdKind,
  type Operation,
} from '../contracts/ids.js';
import type { IdMap } from './id-map.js';

export { anyIdKindOf, answerSchema, requestSchema, type Operation };

type Json = Record<string, unknown>;

/** Every property name given an `enum` anywhere in a document, with the values its lists name. */
function enumsOf(node: unknown, out = new Map<string, Set<string>>()): Map<string, Set<string>> {
  if (Array.isArray(node)) for (const v of node) enumsOf(v, out);
  else if (node && typeof node === 'object') {
    const o = node as Json;
    if (o.properties && typeof o.properties === 'object') {
      for (const [name, schema] of Object.entries(o.properties as Json)) {
        const s = schema as { enum?: unknown; items?: { enum?: unknown } } | null;
        const list = Array.isArray(s?.enum) ? s.enum : Array.isArray(s?.items?.enum) ? s.items.enum : undefined;
        if (!list) continue;
        const values = out.get(name) ?? new Set<string>();
        for (const v of list as unknown[]) if (typeof v === 'string') values.add(v);
        out.set(name, values);
      }
    }
    for (const v of Object.values(o)) enumsOf(v, out);
  }
  return out;
}

export interface Contract {
  match(method: string, path: string): Operation | undefined;
  /** Each enum property of the provider's document, with the values it lists. */
  enums: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Whether an operation answers with the bank's data (a user's accounts, balances, transactions). */
export const answersBankData = (op: Operation): boolean => op.kind === 'provider' && op.template.startsWith('/v1/ais/accounts');

/**
 * Kinds of id neither side makes: a bank user's accounts are the sandbox bank's, listed in the
 * bank's order. The first time both sides list a user's accounts, as many on each, the Nth
 * pairs with the Nth (checked against the map like every pair); no other list pairs by position.
 */
const BANK_LISTED: ReadonlySet<IdKind> = new Set(['account']);

/** `provider`: the document obsim answers by (a contract version's, when the shadow's sandbox is pinned to one); default the base. */
export function contract(provider?: Doc): Contract {
  const ops = operations(provider);
  return { match: (method, path) => ops.match(method, path), enums: enumsOf(ops.provider) };
}

/**
 * Whether the answer of `op` (`status`) may lack the field at `pointer`: its object schema there
 * has the property and does not require it. Indexes step into a list's items.
 */
export function optionalInAnswer(op: Operation, status: number, pointer: string): boolean {
  const tokens = pointerTokens(pointer);
  let schema: Json | undefined = answerSchema(op, status);
  for (const [i, token] of tokens.entries()) {
    const shape = shapeOf(op.doc, schema);
    const last = i === tokens.length - 1;
    if (/^\d+$/.test(token) && shape.items) {
      if (last) return false;
      schema = shape.items;
      continue;
    }
    if (!(token in shape.properties)) return false;
    if (last) return !requiredOf(op.doc, schema).has(token);
    schema = shape.properties[token];
  }
  return false;
}

/** The properties `schema` requires (allOf branches merged; a oneOf/anyOf requires what all its branches do). */
function requiredOf(doc: Doc, schema: Json | undefined): Set<string> {
  const { schema: s } = deref(doc, schema);
  const out = new Set<string>(Array.isArray(s?.required) ? (s.required as string[]) : []);
  for (const branch of (s?.allOf as Json[] | undefined) ?? []) for (const k of requiredOf(doc, branch)) out.add(k);
  for (const k of ['oneOf', 'anyOf'] as const) {
    const branches = ((s?.[k] as Json[] | undefined) ?? []).map((b) => requiredOf(doc, b));
    if (branches.length) for (const key of branches[0]) if (branches.every((b) => b.has(key))) out.add(key);
  }
  return out;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const scalar = (v: unknown): v is string | number => typeof v === 'string' || typeof v === 'number';

export interface LearnOutcome {
  /** Pairs that contradict the map, in words (the exchange is reported uncomparable with them). */
  conflicts: string[];
}

/**
 * Learn the ids two answers to one request hand out, walking both with the answer's schema: an id
 * field at the same place on both sides is a pair; list items are paired through an id the map
 * already knows (never by position), and an item neither side can pair teaches nothing.
 */
export function learnFromAnswers(op: Operation, status: number, upstream: unknown, obsim: unknown, ids: IdMap): LearnOutcome {
  const conflicts: string[] = [];
  const walk = (schema: Json | undefined, u: unknown, o: unknown, pointer: string): void => {
    const shape = shapeOf(op.doc, schema);
    if (Array.isArray(u) && Array.isArray(o)) {
      const itemShape = shapeOf(op.doc, shape.items);
      const byPosition = u.length === o.length && bankListed(itemShape, u, ids);
      for (const [i, item] of u.entries()) {
        const partner = byPosition ? o[i] : pairedItem(item, o, itemShape, ids);
        if (partner !== undefined) walk(shape.items, item, partner, `${pointer}/${i}`);
      }
      return;
    }
    if (!isObject(u) || !isObject(o)) return;
    for (const [key, sub] of Object.entries(shape.properties)) {
      const uv = u[key];
      const ov = o[key];
      if (uv === undefined || ov === undefined) continue;
      const kind = idKindOf(key, shape.component);
      const link = LINK_KINDS[key];
      if (kind && scalar(uv) && scalar(ov)) {
        const learned = ids.learn(kind, String(uv), String(ov));
        if (!learned.ok) conflicts.push(`${pointer}/${key}: ${learned.conflict}`);
      } else if (link && typeof uv === 'string' && typeof ov === 'string') {
        const learned = ids.learnLink(link, uv, ov);
        if (learned && !learned.ok) conflicts.push(`${pointer}/${key}: ${learned.conflict}`);
      } else walk(sub, uv, ov, `${pointer}/${key}`);
    }
  };
  walk(answerSchema(op, status), upstream, obsim, '');
  return { conflicts };
}

/** A list of the bank's items (accounts) none of which the map knows yet: paired by position. */
function bankListed(itemShape: ReturnType<typeof shapeOf>, items: unknown[], ids: IdMap): boolean {
  const kinds = Object.keys(itemShape.properties).map((key) => [key, idKindOf(key, itemShape.component)] as const);
  const listed = kinds.find(([, kind]) => kind !== undefined && BANK_LISTED.has(kind));
  if (!listed) return false;
  const [key, kind] = listed;
  return items.every((item) => isObject(item) && scalar(item[key]) && ids.mapped(kind!, String(item[key])) === undefined);
}

/** The obsim item paired with an upstream list item through an id the map knows. */
function pairedItem(item: unknown, obsimItems: unknown[], itemShape: ReturnType<typeof shapeOf>, ids: IdMap): unknown {
  if (!isObject(item)) return undefined;
  for (const key of Object.keys(itemShape.properties)) {
    const kind = idKindOf(key, itemShape.component);
    const value = item[key];
    if (!kind || !scalar(value)) continue;
    const mapped = ids.mapped(kind, String(value));
    if (mapped === undefined) continue;
    return obsimItems.find((o) => isObject(o) && scalar(o[key]) && String(o[key]) === mapped);
  }
  return undefined;
}

export interface Translated {
  path: string;
  body: unknown;
  /** Upstream ids the request carries that the map does not know (the replay sends them as they are). */
  unknown: string[];
}

/** An id value in obsim's terms, of the JSON type obsim's schema wants there. */
function inObsimTerms(value: string, schema: Json | undefined, doc: Doc): string | number {
  const types = [deref(doc, schema).schema?.type ?? []].flat();
  return (types.includes('integer') || types.includes('number')) && /^-?\d+$/.test(value) ? Number(value) : value;
}

/**
 * A partner's request in obsim's terms: the path parameters the operation's template names as
 * ids, the id fields of its query and body, each through the map; every other segment as sent.
 */
export function translateRequest(op: Operation, pathAndQuery: string, body: unknown, ids: IdMap): Translated {
  const unknown: string[] = [];
  const [path, query] = splitOnce(pathAndQuery, '?');
  const templateSegments = op.template.split('/');
  const segments = path.split('/');
  const out = segments.map((segment, i) => {
    const name = /^\{(.+)\}$/.exec(templateSegments[i] ?? '')?.[1];
    const kind = name ? PATH_FIELDS[name] : undefined;
    if (!kind) return segment;
    const raw = safeDecode(segment);
    const mapped = ids.mapped(kind, raw);
    if (mapped === undefined) {
      unknown.push(`${kind} ${raw}`);
      return segment;
    }
    return encodeURIComponent(mapped);
  });
  let translatedPath = out.join('/');
  if (query !== undefined) {
    const params = new URLSearchParams(query);
    const next = new URLSearchParams();
    for (const [k, v] of params) {
      const kind = queryIdKindOf(k);
      next.append(k, (kind && ids.mapped(kind, v)) || v);
    }
    translatedPath += `?${next.toString()}`;
  }
  return { path: translatedPath, body: translateBody(op, body, ids, unknown), unknown };
}

function translateBody(op: Operation, body: unknown, ids: IdMap, unknown: string[]): unknown {
  const walk = (schema: Json | undefined, value: unknown): unknown => {
    const shape = shapeOf(op.doc, schema);
    if (Array.isArray(value)) return value.map((v) => walk(shape.items, v));
    if (!isObject(value)) return value;
    const out: Json = {};
    for (const [key, v] of Object.entries(value)) {
      const kind = idKindOf(key, shape.component);
      const sub = shape.properties[key];
      if (kind && scalar(v)) {
        const mapped = ids.mapped(kind, String(v));
        if (mapped === undefined) unknown.push(`${kind} ${String(v)}`);
        out[key] = mapped === undefined ? v : inObsimTerms(mapped, sub, op.doc);
      } else out[key] = sub ? walk(sub, v) : v;
    }
    return out;
  };
  return walk(requestSchema(op), body);
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
