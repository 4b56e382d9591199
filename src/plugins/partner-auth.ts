/**
 * Partner authentication for /v1/partner/* and /_sandbox/*: X-Partner-Client-Id and
 * X-Partner-Client-Secret. Runs onRequest, before the body is parsed, so a caller without
 * credentials learns nothing about validation. Sets request.partner.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Partner } from '../partners.js';

declare module 'fastify' {
  interface FastifyRequest {
    partner: Partner;
  }
}

/** Declares `request.partner` (set by the hook below on partner routes, null elsewhere). */
export const partnerRequestPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('partner', null as unknown as Partner);
  },
  { name: 'obsim-partner-request' },
);

/** Add the partner-auth hook to the encapsulated scope `app` (call inside a route plugin). */
export function requirePartner(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    request.partner = app.partners.authenticate(request.headers['x-partner-client-id'], request.headers['x-partner-client-secret']);
  });
}

/** OpenAPI security requirement for partner routes. */
export const partnerSecurity = [{ partnerClientId: [], partnerClientSecret: [] }];
