/** /v1/partner/*: every route here requires the partner credential headers. */
import type { FastifyInstance } from 'fastify';
import { requirePartner } from '../../plugins/partner-auth.js';
import { merchantRoutes } from './merchants.js';
import { paymentRoutes } from './payments.js';
import { webhookRoutes } from './webhooks.js';

export async function partnerRoutes(app: FastifyInstance): Promise<void> {
  requirePartner(app);
  await app.register(merchantRoutes);
  await app.register(paymentRoutes);
  await app.register(webhookRoutes);
}
