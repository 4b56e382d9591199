/**
 * Response serializers: Fastify's own (fast-json-stringify, compiled from the response schemas),
 * built once per distinct schema (and process) instead of once per route and status code.
 *
 * Every route documents `4xx`/`5xx` as `{ $ref: 'ErrorBody#' }` and many share a 200 schema
 * (`Payment#`, `Consent#`, …): without this, start-up compiled ~130 serializers of which ~28
 * differ, a third of the time to the first 200. Same compiler, same options, same external
 * schemas, so the output bytes are identical; only the duplicates are gone.
 */
import type { FastifyServerOptions } from 'fastify';
import { createRequire } from 'node:module';
import { compiledGeneration, compiledOnce, isRecording, precompiledKey, record } from './precompiled.js';

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
 * Contexts that see the same schema objects under the same ids, with the same options, share
 * their serializers: within an app (one per encapsulated context that added schemas) and across
 * the apps of one process (the shared schemas are module constants, so every app sees the same
 * objects). Objects are told apart by identity, not content: hashing every external schema's JSON
 * for each context was most of the time an app spent on its serializers.
 */
const objectIds = new WeakMap<object, number>();
let lastObjectId = 0;
function identity(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  let id = objectIds.get(value);
  if (id === undefined) objectIds.set(value, (id = ++lastObjectId));
  return `#${id}`;
}
const builtHere = new Map<string, Serializer>();
let builtFrom = compiledGeneration();

/**
 * `schemaController.compilersFactory.buildSerializer` for the Fastify constructor. Fastify calls
 * the factory once per encapsulated context that added schemas.
 */
export function dedupedSerializerFactory(): SerializerFactory {
  let selected: SerializerFactory | undefined;
  const defaultFactory: SerializerFactory = (externalSchemas, serializerOpts) =>
    (selected ??= serializerSelector()())(externalSchemas, serializerOpts);
  const recording = isRecording();
  // while recording (the build), each app compiles its own, so the recorder sees every one
  const built = recording ? new Map<string, Serializer>() : builtHere;
  if (builtFrom !== compiledGeneration()) {
    // the precompiled file changed (tests): start again from it
    builtHere.clear();
    builtFrom = compiledGeneration();
  }
  return (externalSchemas, serializerOpts) => {
    // the compiler for every external schema of this context, made on first need
    let compileWithAll: ReturnType<SerializerFactory> | undefined;
    const compile: ReturnType<SerializerFactory> = (info) => (compileWithAll ??= defaultFactory(externalSchemas, serializerOpts))(info);
    const ext = (externalSchemas ?? {}) as Record<string, unknown>;
    const signature = `${JSON.stringify(serializerOpts ?? null)}|${Object.keys(ext)
      .sort()
      .map((k) => `${k}=${identity(ext[k])}`)
      .join(',')}`;
    return (info) => {
      const key = `${signature}\n${JSON.stringify(info.schema)}`;
      let serializer = built.get(key);
      if (!serializer) {
        // fast-json-stringify checks and indexes every external schema it is given, for each
        // build: give it only the ones this schema reaches through $ref (the same resolution,
        // a fraction of the work); fall back to all of them if that set is somehow not enough
        const reached = reachableSchemas(info.schema, ext);
        // compiled at build time (src/compilers/precompiled.ts) when this exact schema was seen there
        const pkey = reached ? precompiledKey('serializers', FJS_VERSION, serializerOpts ?? null, info.schema, reached) : undefined;
        const compileHere = (): Serializer => {
          let fresh: Serializer;
          try {
            fresh = reached ? defaultFactory(reached, serializerOpts)(info) : compile(info);
          } catch {
            fresh = compile(info);
          }
          if (recording && pkey && reached) {
            const standalone = { ...serializerOpts, mode: 'standalone', inlineValidators: true } as typeof serializerOpts;
            record('serializers', pkey, defaultFactory(reached, standalone)(info) as unknown as string);
          }
          return fresh;
        };
        serializer = pkey ? compiledOnce('serializers', pkey, compileHere) : compileHere();
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
