/**
 * What the pact exporter reads in the served document: which operation a request is (its
 * template and path parameters), and the schema of a request or answer body, walked field by
 * field with references followed.
 */
import type { OpenApiDocument } from '../openapi/documents.js';

type Json = Record<string, unknown>;

export interface DocOperation {
  operationId: string;
  method: string;
  template: string;
  params: Record<string, string>;
  spec: Json;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface ServedDocument {
  readonly doc: OpenApiDocument;
  match(method: string, path: string): DocOperation | undefined;
  /** The schema of the JSON answer of `op` with `status` (an exact code, else its range, else default). */
  answerSchema(op: DocOperation, status: number): Json | undefined;
  requestSchema(op: DocOperation): Json | undefined;
  /** `schema` with its references followed, and the component it names. */
  resolve(schema: Json | undefined): { schema: Json | undefined; component?: string };
  /** The schema of property `key` (or of an item, for a number) under `schema`: anyOf/oneOf/allOf branches merged. */
  child(schema: Json | undefined, key: string | number): Json | undefined;
}

export function servedDocument(doc: OpenApiDocument): ServedDocument {
  const routes: { regex: RegExp; names: string[]; method: string; template: string; spec: Json }[] = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    const names: string[] = [];
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    for (const method of METHODS) {
      const spec = item[method] as Json | undefined;
      if (typeof spec?.operationId === 'string') routes.push({ regex: new RegExp(`^${source}/?$`), names, method, template, spec });
    }
  }
  // a literal segment wins over a parameter (`/merchants/test` is not `/merchants/{merchantId}`)
  routes.sort((a, b) => a.names.length - b.names.length);

  const schemas = (doc.components?.schemas ?? {}) as Record<string, Json>;
  const resolve = (schema: Json | undefined): { schema: Json | undefined; component?: string } => {
    let s = schema;
    let component: string | undefined;
    for (let i = 0; typeof s?.$ref === 'string' && i < 10; i++) {
      component = String(s.$ref).split('/').pop();
      s = schemas[component!];
    }
    return { schema: s, component: component ?? (typeof s?.title === 'string' ? s.title : undefined) };
  };
  const child = (schema: Json | undefined, key: string | number): Json | undefined => {
    const { schema: s } = resolve(schema);
    if (!s) return undefined;
    if (typeof key === 'number') {
      if (s.items) return s.items as Json;
    } else {
      const props = s.properties as Record<string, Json> | undefined;
      if (props?.[key]) return props[key];
    }
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const)
      for (const branch of (s[k] as Json[] | undefined) ?? []) {
        const found = child(branch, key);
        if (found) return found;
      }
    return undefined;
  };
  const jsonOf = (content: unknown) => (content as Record<string, { schema?: Json }> | undefined)?.['application/json']?.schema;
  return {
    doc,
    match(method, path) {
      const m = method.toLowerCase();
      for (const route of routes) {
        if (route.method !== m) continue;
        const found = route.regex.exec(path);
        if (!found) continue;
        const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(found[i + 1])]));
        return { operationId: route.spec.operationId as string, method: m, template: route.template, params, spec: route.spec };
      }
      return undefined;
    },
    answerSchema(op, status) {
      const responses = (op.spec.responses ?? {}) as Record<string, { content?: unknown }>;
      const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
      return key === undefined ? undefined : jsonOf(responses[key].content);
    },
    requestSchema: (op) => jsonOf((op.spec.requestBody as { content?: unknown } | undefined)?.content),
    resolve,
    child,
  };
}
