/**
 * The two OpenAPI documents as the MCP server uses them: read from the package (the committed
 * files, the same as obsim serves), their component schemas made self-contained for a tool's
 * output schema, and the provider's operations by operationId for `call_operation`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCUMENTS, type DocumentKind } from '../openapi/documents.js';
import { packageRoot } from '../package-root.js';

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Json;
}
interface Operation {
  operationId: string;
  summary: string;
  description: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
  security?: Record<string, string[]>[];
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

const texts = new Map<DocumentKind, string>();

/** The committed document's text (what GET /openapi.json and /_sandbox/openapi.json serve). */
export function documentText(kind: DocumentKind): string {
  let text = texts.get(kind);
  if (!text) texts.set(kind, (text = readFileSync(join(packageRoot(), DOCUMENTS[kind].file), 'utf8')));
  return text;
}

const documents = new Map<DocumentKind, Document>();
function document(kind: DocumentKind): Document {
  let doc = documents.get(kind);
  if (!doc) documents.set(kind, (doc = JSON.parse(documentText(kind)) as Document));
  return doc;
}

const REF = '#/components/schemas/';

/**
 * A JSON Schema standing alone: `schema` with every component it reaches copied into
 * `definitions` and its refs pointed there (a tool's input and output schemas cannot refer into
 * an OpenAPI document).
 */
export function standalone(schema: Json): Json {
  const all = { ...document('provider').components.schemas, ...document('controls').components.schemas };
  const definitions: Record<string, unknown> = {};
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    const out: Json = {};
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && v.startsWith(REF)) {
        const name = v.slice(REF.length);
        if (!(name in definitions)) {
          definitions[name] = {};
          definitions[name] = rewrite(all[name]);
        }
        out.$ref = `#/definitions/${name}`;
      } else out[key] = rewrite(v);
    }
    return out;
  };
  const root = rewrite(schema) as Json;
  return Object.keys(definitions).length ? { ...root, definitions } : root;
}

/** A component schema of either document, standing alone (at its root: an output schema is an object). */
export function component(name: string): Json {
  const schema = document('provider').components.schemas[name] ?? document('controls').components.schemas[name];
  if (!schema) throw new Error(`no component schema ${name}`);
  return standalone(schema);
}

export interface ProviderOperation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  bearer: boolean;
  /** The arguments call_operation takes for it: { path?, query?, body? }, standing alone. */
  input: Json;
}

let operations: Map<string, ProviderOperation> | undefined;

/** The provider API's operations by operationId. */
export function providerOperations(): Map<string, ProviderOperation> {
  if (operations) return operations;
  operations = new Map();
  for (const [path, item] of Object.entries(document('provider').paths)) {
    for (const [method, op] of Object.entries(item)) {
      const group = (where: 'path' | 'query') => {
        const params = (op.parameters ?? []).filter((p) => p.in === where);
        if (params.length === 0) return undefined;
        return {
          type: 'object',
          additionalProperties: false,
          required: params.filter((p) => p.required).map((p) => p.name),
          properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
        };
      };
      const pathParams = group('path');
      const query = group('query');
      const body = op.requestBody?.content['application/json']?.schema;
      const properties: Json = {};
      const required: string[] = [];
      if (pathParams) {
        properties.path = pathParams;
        required.push('path');
      }
      if (query) properties.query = query;
      if (body) {
        properties.body = body;
        if (op.requestBody?.required) required.push('body');
      }
      operations.set(op.operationId, {
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        summary: op.summary,
        bearer: (op.security ?? []).some((s) => 'bearerAuth' in s),
        input: standalone({ type: 'object', additionalProperties: false, required, properties }),
      });
    }
  }
  return operations;
}
