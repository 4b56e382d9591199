/** Reading an OpenAPI document: its operations, and the schema a pointer reaches inside an answer. */
import { pointerToken } from '../domain/drift.js';
import type { OpenApiDocument } from '../openapi/documents.js';

type Json = Record<string, unknown>;
interface MediaType {
  schema?: unknown;
}
export interface OperationObject extends Json {
  operationId?: string;
  deprecated?: boolean;
  parameters?: { name: string; in: string; required?: boolean; deprecated?: boolean; schema?: unknown }[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}

export interface Operation {
  id: string;
  method: string;
  /** The path as the document writes it (`/v1/partner/payments/{paymentId}/status`). */
  path: string;
  operation: OperationObject;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export function* operationsOf(doc: Pick<OpenApiDocument, 'paths'>): Generator<Operation> {
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const [method, operation] of Object.entries(item as Record<string, OperationObject>))
      if (METHODS.includes(method) && typeof operation.operationId === 'string')
        yield { id: operation.operationId, method: method.toUpperCase(), path, operation };
}

/** The route key a Fastify route and a document operation share: `GET /v1/partner/payments/:paymentId/status`. */
export const routeKey = (method: string, path: string): string => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;

const REF = '#/components/schemas/';

/** A schema with its local `$ref` followed (once, and again while it is another `$ref`). */
export function deref(doc: Pick<OpenApiDocument, 'components'>, schema: unknown): Json | undefined {
  let node = schema as Json | undefined;
  for (let i = 0; i < 32 && node && typeof node.$ref === 'string' && node.$ref.startsWith(REF); i++)
    node = (doc.components.schemas ?? {})[node.$ref.slice(REF.length)] as Json | undefined;
  return node && typeof node === 'object' ? node : undefined;
}

/**
 * The schema the pointer's tokens reach from `schema` (`*` and digits step into an array's items),
 * through `$ref`, `allOf`, `anyOf` and `oneOf`; undefined when the schema has no such field.
 */
export function schemaAt(doc: Pick<OpenApiDocument, 'components'>, schema: unknown, tokens: readonly string[]): Json | undefined {
  const node = deref(doc, schema);
  if (!node) return undefined;
  if (tokens.length === 0) return node;
  const [head, ...rest] = tokens;
  for (const branch of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const sub of (node[branch] as unknown[] | undefined) ?? []) {
      const found = schemaAt(doc, sub, tokens);
      if (found) return found;
    }
  }
  if ((head === '*' || /^\d+$/.test(head)) && node.items !== undefined) return schemaAt(doc, node.items, rest);
  const properties = node.properties as Json | undefined;
  if (properties && head in properties) return schemaAt(doc, properties[head], rest);
  return undefined;
}

/** Pointers (with `*` for array items) of every property marked `deprecated: true` under `schema`. */
export function deprecatedFields(doc: Pick<OpenApiDocument, 'components'>, schema: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const walk = (s: unknown, at: string): void => {
    const node = deref(doc, s);
    if (!node || seen.has(node)) return;
    seen.add(node);
    for (const branch of ['allOf', 'anyOf', 'oneOf'] as const)
      for (const sub of (node[branch] as unknown[] | undefined) ?? []) walk(sub, at);
    if (node.items !== undefined) walk(node.items, `${at}/*`);
    for (const [name, prop] of Object.entries((node.properties as Json | undefined) ?? {})) {
      const field = `${at}/${pointerToken(name)}`;
      if ((deref(doc, prop) ?? (prop as Json)).deprecated === true || (prop as Json).deprecated === true) out.push(field);
      walk(prop, field);
    }
    seen.delete(node);
  };
  walk(schema, '');
  return out;
}

/** The answer headers the document gives an operation's successful answers, lower case. */
export function successHeaders(op: Operation): Set<string> {
  return new Set(
    Object.entries(op.operation.responses ?? {})
      .filter(([status]) => status.startsWith('2'))
      .flatMap(([, r]) => Object.keys((r as { headers?: object }).headers ?? {}).map((n) => n.toLowerCase())),
  );
}
