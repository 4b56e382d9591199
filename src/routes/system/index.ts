/** GET /healthz and GET /openapi.json (the browsable reference at /docs comes from swagger-ui). */
import type { FastifyInstance } from 'fastify';
import { commonResponseHeaders } from '../../../schemas/common.js';
import { storageUnavailable } from '../../domain/errors.js';

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
        summary: 'Health: 200 when the database answers and takes writes; 503 storage_unavailable while it does not',
        response: { 200: { ...Health, headers: commonResponseHeaders }, 503: { $ref: 'ErrorBody#', headers: commonResponseHeaders } },
      },
    },
    async () => {
      const fault = app.store.health();
      if (fault) throw storageUnavailable(fault.message);
      return { status: 'ok' as const, environment: app.config.environment, time: app.clock.iso() };
    },
  );
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
