/**
 * /_sandbox/*: obsim's control API (not the provider's). Partner credential headers, scoped to
 * that partner's data, OpenAPI tag `sandbox`. Available in both environments: in production
 * nothing settles or gets approved by itself, so these calls are how a test drives outcomes.
 */
import type { FastifyInstance } from 'fastify';
import { requirePartner } from '../../plugins/partner-auth.js';
import { actionRoutes } from './actions.js';
import { bankRoutes } from './banks.js';
import { clockRoutes } from './clock.js';
import { collectionRoutes } from './collections.js';
import { contractRoutes } from './contract.js';
import { deliveryRoutes } from './deliveries.js';
import { faultRoutes } from './faults.js';
import { pactRoutes } from './pact.js';
import { receiverCheckRoutes } from './receiver-checks.js';
import { requestRoutes } from './requests.js';
import { resetRoutes } from './reset.js';
import { resourceRoutes } from './resources.js';
import { scenarioRoutes } from './scenarios.js';
import { snapshotRoutes } from './snapshots.js';
import { transitionRoutes } from './transitions.js';

export async function sandboxRoutes(app: FastifyInstance): Promise<void> {
  requirePartner(app);
  await app.register(bankRoutes);
  await app.register(clockRoutes);
  await app.register(collectionRoutes);
  await app.register(contractRoutes);
  await app.register(actionRoutes);
  await app.register(deliveryRoutes);
  await app.register(faultRoutes);
  await app.register(pactRoutes);
  await app.register(receiverCheckRoutes);
  await app.register(requestRoutes);
  await app.register(resetRoutes);
  await app.register(resourceRoutes);
  await app.register(scenarioRoutes);
  await app.register(snapshotRoutes);
  await app.register(transitionRoutes);
}
