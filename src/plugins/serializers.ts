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

type SerializerFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

// Fastify's default serializer compiler, resolved from Fastify itself (the exact version it uses)
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
const { SerializerSelector } = fastifyRequire('@fastify/fast-json-stringify-compiler') as { SerializerSelector: () => SerializerFactory };

/**
 * `schemaController.compilersFactory.buildSerializer` for the Fastify constructor. Fastify calls
 * the factory once per encapsulated context that added schemas; serializers are shared between
 * contexts whose external schemas are the same objects (one cache per app).
 */
export function dedupedSerializerFactory(): SerializerFactory {
  const defaultFactory = SerializerSelector();
  const built = new Map<string, Serializer>();
  const contextIds = new Map<string, number>();
  return (externalSchemas, serializerOpts) => {
    const compile = defaultFactory(externalSchemas, serializerOpts);
    const ext = (externalSchemas ?? {}) as Record<string, unknown>;
    // contexts that see the same schema objects under the same ids share one id
    const signature = JSON.stringify([serializerOpts ?? null, Object.keys(ext).sort().map((k) => [k, ext[k]])]);
    let id = contextIds.get(signature);
    if (id === undefined) contextIds.set(signature, (id = contextIds.size));
    return (info) => {
      const key = `${id}\n${JSON.stringify(info.schema)}`;
      let serializer = built.get(key);
      if (!serializer) {
        serializer = compile(info);
        built.set(key, serializer);
      }
      return serializer;
    };
  };
}
