/**
 * Partner credentials (`partners`) and, in the sandbox, the default partner's activated merchant
 * (seeded at start so payments and AIS calls work right after `npm start`). What the start-up
 * output should say about them goes to `startupNotes`.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { partnerCredentials, PartnerRegistry } from '../partners.js';
import { seedDefaultMerchant } from '../store/seed.js';

declare module 'fastify' {
  interface FastifyInstance {
    partners: PartnerRegistry;
  }
}

export const partnersPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('partners', new PartnerRegistry(partnerCredentials(app.config, app.meta, app.startupNotes)));
    const partner = app.partners.list()[0];
    if (app.config.environment !== 'sandbox' || !partner) return;
    const m = seedDefaultMerchant(app.store, partner.clientId, app.clock.iso());
    app.startupNotes.push(`default merchant: ${m.id} (clientId ${m.client_id}), activated, owned by ${partner.clientId}`);
  },
  { name: 'obsim-partners', dependencies: ['obsim-store', 'obsim-clock'] },
);
