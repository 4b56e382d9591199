/**
 * The one capture rule for ids (DESIGN.md, "Partners' tools shape"): which answer handed out a
 * value, and where a later request uses it, found by the served documents' schemas and nowhere
 * else. The shadow's id map (src/shadow/), the HAR importer (src/har-import/) and the pact
 * exporter ask it the same questions:
 *
 * - `operations().match(method, path)`: which documented operation a request is (provider's
 *   document first, then obsim's controls), with its path template and parameters;
 * - `idsHandedOut(op, status, body)`: the ids (and hosted links) an answer hands out, each with
 *   its kind and RFC 6901 pointer, walked with the answer's documented schema;
 * - `idsUsed(op, path, query, body)`: the ids a request carries, in its path (the template's id
 *   parameters), its query (id-named parameters) and its body (the request schema's id fields).
 *
 * Kinds keep ids apart (merchant 5 and payment 5 are two ids). A value the contract does not
 * place as an id is never one here, whatever it looks like: no guessing by value.
 */
import Router from 'find-my-way';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pointerToken } from '../domain/drift.js';
import { DOCUMENTS } from '../openapi/documents.js';
import { packageRoot } from '../package-root.js';

export type IdKind =
  | 'merchant'
  | 'merchantClient'
  | 'payment'
  | 'consentRequest'
  | 'consent'
  | 'webhook'
  | 'account'
  | 'transaction'
  | 'aisToken'
  | 'onboardingToken'
  | 'subTpp'
  | 'store'
  | 'delivery'
  | 'event'
  | 'paymentLink'
  | 'consentLink';

/** The kind of a hosted link field, and the kind of the token inside it. */
export const LINK_KINDS: Record<string, IdKind> = {
  paymentUrl: 'paymentLink',
  onboardingUrl: 'onboardingToken',
  authorizationUrl: 'consentLink',
};

/** A component of a hosted link that can be its token: long, and not a word. */
export const tokenLike = (s: string): boolean => /^[A-Za-z0-9._~-]+$/.test(s) && (s.length >= 20 || (s.length >= 8 && /\d/.test(s)));

type Json = Record<string, unknown>;

export interface Doc {
  paths: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, Json> };
}

export interface Operation {
  operationId: string;
  /** The document's path template (`/v1/partner/payments/{paymentId}/status`). */
  template: string;
  kind: 'provider' | 'control';
  params: Record<string, string | undefined>;
  /** The operation as the document gives it. */
  spec: Json;
  doc: Doc;
}

/** The kind of id a property holds, by its name; `id`, `requestId` and `token` by the schema they stand in. */
const ID_FIELDS: Record<string, IdKind> = {
  merchantId: 'merchant',
  clientId: 'merchantClient',
  merchantClientId: 'merchantClient',
  paymentId: 'payment',
  consentId: 'consent',
  accountId: 'account',
  transactionId: 'transaction',
  onboardingToken: 'onboardingToken',
  subTppId: 'subTpp',
  storeId: 'store',
  webhookId: 'webhook',
  deliveryId: 'delivery',
  eventId: 'event',
};
const BY_SCHEMA: Record<string, Record<string, IdKind>> = {
  Consent: { requestId: 'consentRequest' },
  WebhookResponse: { id: 'webhook' },
  TokenResponse: { token: 'aisToken' },
  SandboxDelivery: { id: 'delivery' },
};
/** Path parameters by template name; `id` and `requestId` by the path they stand in. */
export const PATH_FIELDS: Record<string, IdKind> = { ...ID_FIELDS, id: 'webhook', requestId: 'consentRequest' };

/** The kind of an id field `key` of the schema `component` (undefined: not an id of the contract). */
export const idKindOf = (key: string, component?: string): IdKind | undefined =>
  (component !== undefined ? BY_SCHEMA[component]?.[key] : undefined) ?? ID_FIELDS[key];

/** The kind an id key names wherever it stands (compare: a key without its schema). */
export const anyIdKindOf = (key: string): IdKind | undefined =>
  ID_FIELDS[key] ?? (key === 'requestId' ? 'consentRequest' : key === 'token' ? 'aisToken' : undefined);

/** The kind of a query parameter's value when its name is an id field's. */
export const queryIdKindOf = (name: string): IdKind | undefined => ID_FIELDS[name];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function readDoc(kind: 'provider' | 'controls'): Doc {
  return JSON.parse(readFileSync(join(packageRoot(), DOCUMENTS[kind].file), 'utf8')) as Doc;
}

export interface Operations {
  match(method: string, path: string): Operation | undefined;
  provider: Doc;
}

/**
 * Every operation of the provider's document and obsim's controls, matched by method and path (no
 * query). `provider`: a contract version's document as the registry serves it (default: the base).
 */
export function operations(provider: Doc = readDoc('provider')): Operations {
  type Store = { operationId: string; template: string; kind: Operation['kind']; spec: Json; doc: Doc };
  const router = Router<Router.HTTPVersion.V1>({ ignoreTrailingSlash: true, maxParamLength: 16_384 });
  const controls = readDoc('controls');
  for (const [doc, kind] of [
    [provider, 'provider'],
    [controls, 'control'],
  ] as const) {
    for (const [template, item] of Object.entries(doc.paths)) {
      const path = template.replace(/\{([^}]+)\}/g, ':$1');
      for (const method of METHODS) {
        const op = item[method] as Json | undefined;
        if (typeof op?.operationId !== 'string') continue;
        const store: Store = { operationId: op.operationId, template, kind, spec: op, doc };
        try {
          router.on(method.toUpperCase() as Router.HTTPMethod, path, () => undefined, store);
        } catch {
          // the same route in both documents: the provider's wins
        }
      }
    }
  }
  return {
    match(method, path) {
      const found = router.find(method.toUpperCase() as Router.HTTPMethod, path.split('?')[0]);
      if (!found) return undefined;
      return { ...(found.store as Store), params: found.params };
    },
    provider,
  };
}

/** `schema` with its $ref followed, and the component's name when it was one. */
export function deref(doc: Doc, schema: Json | undefined): { schema: Json | undefined; component?: string } {
  let s = schema;
  let component: string | undefined;
  for (let i = 0; s?.$ref && i < 10; i++) {
    component = String(s.$ref).split('/').pop();
    s = doc.components?.schemas?.[component!];
  }
  return { schema: s, component: component ?? (typeof s?.title === 'string' ? s.title : undefined) };
}

export interface Shape {
  properties: Record<string, Json>;
  items?: Json;
  component?: string;
}

/** The properties (and items) a value may have under `schema`, oneOf/anyOf/allOf branches merged. */
export function shapeOf(doc: Doc, schema: Json | undefined): Shape {
  const { schema: s, component } = deref(doc, schema);
  const out: Shape = { properties: {}, component };
  if (!s) return out;
  Object.assign(out.properties, (s.properties as Record<string, Json> | undefined) ?? {});
  if (s.items) out.items = s.items as Json;
  for (const k of ['oneOf', 'anyOf', 'allOf'] as const) {
    for (const branch of (s[k] as Json[] | undefined) ?? []) {
      const b = shapeOf(doc, branch);
      Object.assign(out.properties, b.properties);
      out.items ??= b.items;
      out.component ??= b.component;
    }
  }
  return out;
}

/** The documented JSON schema of an operation's answer of `status`. */
export function answerSchema(op: Operation, status: number): Json | undefined {
  const responses = op.spec.responses as Record<string, { content?: Record<string, { schema?: Json }> }> | undefined;
  return responses?.[String(status)]?.content?.['application/json']?.schema;
}

export function requestSchema(op: Operation): Json | undefined {
  const body = op.spec.requestBody as { content?: Record<string, { schema?: Json }> } | undefined;
  return body?.content?.['application/json']?.schema;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const scalar = (v: unknown): v is string | number => typeof v === 'string' || typeof v === 'number';

export interface HandedOut {
  /** RFC 6901 pointer into the answer's body. */
  pointer: string;
  /** The property that holds it. */
  key: string;
  kind: IdKind;
  value: string | number;
  /** A hosted link (paymentUrl, onboardingUrl, authorizationUrl): `kind` is the kind of the token inside it. */
  link: boolean;
  /** The pointer of the object that holds it (its siblings name the same thing). */
  holder: string;
}

/**
 * The ids and hosted links an answer hands out, walked with its documented schema (lists item by
 * item). An answer with no documented schema for its status hands out nothing.
 */
export function idsHandedOut(op: Operation, status: number, body: unknown): HandedOut[] {
  const out: HandedOut[] = [];
  const walk = (schema: Json | undefined, value: unknown, pointer: string): void => {
    const shape = shapeOf(op.doc, schema);
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(shape.items, item, `${pointer}/${i}`));
      return;
    }
    if (!isObject(value)) return;
    for (const [key, sub] of Object.entries(shape.properties)) {
      const v = value[key];
      if (v === undefined || v === null) continue;
      const at = `${pointer}/${pointerToken(key)}`;
      const kind = idKindOf(key, shape.component);
      const link = LINK_KINDS[key];
      if (kind && scalar(v)) out.push({ pointer: at, key, kind, value: v, link: false, holder: pointer });
      else if (link && typeof v === 'string') out.push({ pointer: at, key, kind: link, value: v, link: true, holder: pointer });
      else walk(sub, v, at);
    }
  };
  walk(answerSchema(op, status), body, '');
  return out;
}

export interface IdUse {
  where: 'path' | 'query' | 'body';
  /** The path parameter's or query parameter's name, or the pointer into the body. */
  at: string;
  kind: IdKind;
  value: string;
}

/**
 * The ids a request to `op` carries: the path parameters its template names as ids, the id-named
 * parameters of its query, the id fields of its body (walked with the request schema).
 */
export function idsUsed(op: Operation, query: Record<string, unknown>, body: unknown): IdUse[] {
  const out: IdUse[] = [];
  for (const [name, value] of Object.entries(op.params)) {
    const kind = PATH_FIELDS[name];
    if (kind && value !== undefined) out.push({ where: 'path', at: name, kind, value: safeDecode(value) });
  }
  for (const [name, value] of Object.entries(query)) {
    const kind = ID_FIELDS[name];
    for (const v of [value].flat()) if (kind && scalar(v)) out.push({ where: 'query', at: name, kind, value: String(v) });
  }
  const walk = (schema: Json | undefined, value: unknown, pointer: string): void => {
    const shape = shapeOf(op.doc, schema);
    if (Array.isArray(value)) return value.forEach((v, i) => walk(shape.items, v, `${pointer}/${i}`));
    if (!isObject(value)) return;
    for (const [key, v] of Object.entries(value)) {
      const kind = idKindOf(key, shape.component);
      const at = `${pointer}/${pointerToken(key)}`;
      if (kind && scalar(v)) out.push({ where: 'body', at, kind, value: String(v) });
      else if (shape.properties[key]) walk(shape.properties[key], v, at);
    }
  };
  walk(requestSchema(op), body, '');
  return out;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
