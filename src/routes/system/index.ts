/**
 * GET /healthz and the two OpenAPI documents: GET /openapi.json (the provider API) and GET
 * /_sandbox/openapi.json (obsim's controls); the browsable reference at /docs comes from swagger-ui.
 */
import type { FastifyInstance } from 'fastify';
import { commonResponseHeaders } from '../../../schemas/common.js';
import { storageUnavailable } from '../../domain/errors.js';
import { DOCUMENT_KINDS, DOCUMENTS } from '../../openapi/documents.js';

const Health = {
  type: 'object',
  required: ['status', 'environment', 'time'],
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: ['ok'] },
    environment: { type: 'string', enum: ['sandbox', 'production'] },
    time: { type: 'string', format: 'date-time', description: 'Now on the virtual clock' },
  },
} as const;

export async function systemRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['system'],
        operationId: 'getHealth',
        summary: 'Health: 200 when the database answers and takes writes; 503 storage_unavailable while it does not',
        description:
          "For load balancers, container health checks and test set-ups waiting for obsim to be ready: no credentials, never journaled. 200 with the environment and the default sandbox's clock; 503 storage_unavailable while the database refuses writes (a full disk, a lock held elsewhere).",
        security: [],
        response: {
          200: { ...Health, headers: commonResponseHeaders },
          // ambiguous headers (two Content-Type or Authorization headers) are refused on every route
          '4xx': { $ref: 'ErrorBody#', headers: commonResponseHeaders },
          503: { $ref: 'ErrorBody#', headers: commonResponseHeaders },
        },
      },
    },
    async () => {
      const fault = app.store.health();
      if (fault) throw storageUnavailable(fault.message);
      return { status: 'ok' as const, environment: app.config.environment, time: app.clock.iso() };
    },
  );
  for (const kind of DOCUMENT_KINDS) {
    if (kind !== 'provider') {
      app.get(DOCUMENTS[kind].url, { schema: { hide: true } }, async () => app.openapiDocument(kind));
      continue;
    }
    // the provider's document as a contract version serves it: ?version=NAME (docs/contract-versions.md)
    app.get<{ Querystring: { version?: string } }>(
      DOCUMENTS[kind].url,
      {
        schema: {
          hide: true,
          querystring: { type: 'object', properties: { version: { type: 'string', maxLength: 64 } } },
        },
      },
      async (request) => {
        const asked = request.query.version;
        const version = asked === undefined ? undefined : app.contracts.get(asked, '/version', 'query');
        return version ? version.document : app.openapiDocument(kind);
      },
    );
  }
}
