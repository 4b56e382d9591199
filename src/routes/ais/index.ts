/** /v1/ais/*: every route here requires `Authorization: Bearer <JWT from /v1/auth/generate-token>`. */
import type { FastifyInstance } from 'fastify';
import { requireBearer } from '../../auth/bearer.js';
import { accountRoutes } from './accounts.js';
import { consentRoutes } from './consents.js';

export async function aisRoutes(app: FastifyInstance): Promise<void> {
  requireBearer(app);
  await app.register(consentRoutes);
  await app.register(accountRoutes);
}
