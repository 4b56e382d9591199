/**
 * Route areas, each an encapsulated plugin with its own prefix and hooks. A new area: a folder
 * under src/routes with an index.ts, registered here.
 */
import type { FastifyInstance } from 'fastify';
import { aisRoutes } from './ais/index.js';
import { authRoutes } from './auth/index.js';
import { consoleRoutes } from './console/index.js';
import { hostedRoutes } from './hosted/index.js';
import { partnerRoutes } from './partner/index.js';
import { readinessRoutes } from './readiness/index.js';
import { recordingRoutes } from './recording/index.js';
import { contractImpactRoutes } from './sandbox/contract.js';
import { sandboxRoutes } from './sandbox/index.js';
import { sandboxesRoutes } from './sandboxes/index.js';
import { systemRoutes } from './system/index.js';

export async function routes(app: FastifyInstance): Promise<void> {
  await app.register(systemRoutes);
  await app.register(partnerRoutes, { prefix: '/v1/partner' });
  await app.register(authRoutes, { prefix: '/v1/auth' });
  await app.register(aisRoutes, { prefix: '/v1/ais' });
  await app.register(hostedRoutes);
  await app.register(sandboxRoutes, { prefix: '/_sandbox' });
  await app.register(sandboxesRoutes, { prefix: '/_sandbox/sandboxes' });
  await app.register(readinessRoutes, { prefix: '/_sandbox' });
  await app.register(contractImpactRoutes, { prefix: '/_sandbox' });
  await app.register(recordingRoutes, { prefix: '/_sandbox' });
  await app.register(consoleRoutes);
}
