/**
 * Response serializers: Fastify's own (fast-json-stringify, compiled from the response schemas),
 * built once per distinct schema instead of once per route and status code.
 *
 * Every route documents `4xx`/`5xx` as `{ $ref: 'ErrorBody#' }` and many share a 200 schema
 * (`Payment#`, `Consent#`, …): without this, start-up compiled ~130 serializers of which ~28
 * differ, a third of the time to the first 200. Same compiler, same options, same external
 * schemas, so the output bytes are identical; only the duplicates are gone.
 */
import type { FastifyServerOptions } from 'fastify';
import { createRequire } from 'node:module';
import { isRecording, precompiledKey, record, takePrecompiled } from './precompiled.js';

type SerializerFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

// Fastify's default serializer compiler, resolved from Fastify itself (the exact version it uses)
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
// loaded only when a serializer must be built (none at all when dist/compiled has them)
const serializerSelector = () =>
  (fastifyRequire('@fastify/fast-json-stringify-compiler') as { SerializerSelector: () => SerializerFactory }).SerializerSelector;
/** Besides the schemas and options, what a compiled serializer depends on. */
const FJS_VERSION = (fastifyRequire('fast-json-stringify/package.json') as { version: string }).version;

/**
 * `schemaController.compilersFactory.buildSerializer` for the Fastify constructor. Fastify calls
 * the factory once per encapsulated context that added schemas; serializers are shared between
 * contexts whose external schemas are the same objects (one cache per app).
 */
export function dedupedSerializerFactory(): SerializerFactory {
  let selected: SerializerFactory | undefined;
  const defaultFactory: SerializerFactory = (externalSchemas, serializerOpts) =>
    (selected ??= serializerSelector()())(externalSchemas, serializerOpts);
  const built = new Map<string, Serializer>();
  const recording = isRecording();
  const contextIds = new Map<string, number>();
  return (externalSchemas, serializerOpts) => {
    // the compiler for every external schema of this context, made on first need
    let compileWithAll: ReturnType<SerializerFactory> | undefined;
    const compile: ReturnType<SerializerFactory> = (info) => (compileWithAll ??= defaultFactory(externalSchemas, serializerOpts))(info);
    const ext = (externalSchemas ?? {}) as Record<string, unknown>;
    // contexts that see the same schema objects under the same ids share one id
    const signature = JSON.stringify([
      serializerOpts ?? null,
      Object.keys(ext)
        .sort()
        .map((k) => [k, ext[k]]),
    ]);
    let id = contextIds.get(signature);
    if (id === undefined) contextIds.set(signature, (id = contextIds.size));
    return (info) => {
      const key = `${id}\n${JSON.stringify(info.schema)}`;
      let serializer = built.get(key);
      if (!serializer) {
        // fast-json-stringify checks and indexes every external schema it is given, for each
        // build: give it only the ones this schema reaches through $ref (the same resolution,
        // a fraction of the work); fall back to all of them if that set is somehow not enough
        const reached = reachableSchemas(info.schema, ext);
        // compiled at build time (src/plugins/precompiled.ts) when this exact schema was seen there
        const pkey = reached ? precompiledKey('serializers', FJS_VERSION, serializerOpts ?? null, info.schema, reached) : undefined;
        serializer = pkey && !recording ? takePrecompiled<Serializer>('serializers', pkey) : undefined;
        if (!serializer) {
          try {
            serializer = reached ? defaultFactory(reached, serializerOpts)(info) : compile(info);
          } catch {
            serializer = compile(info);
          }
          if (recording && pkey && reached) {
            const standalone = { ...serializerOpts, mode: 'standalone', inlineValidators: true } as typeof serializerOpts;
            record('serializers', pkey, defaultFactory(reached, standalone)(info) as unknown as string);
          }
        }
        built.set(key, serializer);
      }
      return serializer;
    };
  };
}

/** The external schemas `schema` refers to, transitively (`{ $ref: 'Id#…' }`), or undefined if a ref is not a plain id. */
function reachableSchemas(schema: unknown, external: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const pending: unknown[] = [schema];
  let plain = true;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        const id = v.split('#')[0];
        if (id === '') continue; // local ref inside the same schema
        if (!(id in external)) plain = false;
        else if (!(id in out)) {
          out[id] = external[id];
          pending.push(external[id]);
        }
      } else visit(v);
    }
  };
  while (pending.length) visit(pending.pop());
  return plain ? out : undefined;
}
