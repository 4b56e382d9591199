/**
 * What the shadow knows of the provider's document: which operation a request is (its
 * operationId, by the paths of openapi.json, matched with Fastify's own router), which calls are
 * obsim's controls (openapi-controls.json: replayed so that obsim's state moves with the
 * upstream's, never compared), and which property names the document gives an enum.
 */
import Router from 'find-my-way';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCUMENTS } from '../openapi/documents.js';
import { packageRoot } from '../package-root.js';

interface Doc {
  paths: Record<string, Record<string, { operationId?: string }>>;
  components?: { schemas?: Record<string, unknown> };
}

export interface Operation {
  operationId: string;
  /** The document's path template (`/v1/partner/payments/{paymentId}/status`). */
  template: string;
  kind: 'provider' | 'control';
  params: Record<string, string | undefined>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function readDoc(kind: 'provider' | 'controls'): Doc {
  return JSON.parse(readFileSync(join(packageRoot(), DOCUMENTS[kind].file), 'utf8')) as Doc;
}

/** Every property name given an `enum` anywhere in a document. */
function enumKeysOf(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const v of node) enumKeysOf(v, out);
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (o.properties && typeof o.properties === 'object') {
      for (const [name, schema] of Object.entries(o.properties as Record<string, unknown>)) {
        const s = schema as { enum?: unknown; items?: { enum?: unknown } } | null;
        if (s && (Array.isArray(s.enum) || Array.isArray(s.items?.enum))) out.add(name);
      }
    }
    for (const v of Object.values(o)) enumKeysOf(v, out);
  }
  return out;
}

export interface OperationIndex {
  match(method: string, path: string): Operation | undefined;
  enumKeys: ReadonlySet<string>;
}

export function operationIndex(): OperationIndex {
  type Store = { operationId: string; template: string; kind: Operation['kind'] };
  const router = Router<Router.HTTPVersion.V1>({ ignoreTrailingSlash: true });
  const provider = readDoc('provider');
  const controls = readDoc('controls');
  for (const [doc, kind] of [
    [provider, 'provider'],
    [controls, 'control'],
  ] as const) {
    for (const [template, item] of Object.entries(doc.paths)) {
      const path = template.replace(/\{([^}]+)\}/g, ':$1');
      for (const method of METHODS) {
        const op = item[method];
        if (!op?.operationId) continue;
        const store: Store = { operationId: op.operationId, template, kind };
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
      const store = found.store as Store;
      return { ...store, params: found.params };
    },
    enumKeys: enumKeysOf(provider),
  };
}
