/**
 * Partner authentication for /v1/partner/* and /_sandbox/*: X-Partner-Client-Id and
 * X-Partner-Client-Secret. Runs onRequest, before the body is parsed, so a caller without
 * credentials learns nothing about validation. Sets request.partner and request.sandbox (the
 * world of the partner's sandbox: its clock, settings and lifecycle).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { World } from '../engine/index.js';
import type { Partner } from '../partners.js';

declare module 'fastify' {
  interface FastifyRequest {
    partner: Partner;
    /** The caller's sandbox (set with `partner`; by the bearer token's merchant on AIS routes; by the page's row on hosted pages). */
    sandbox: World;
  }
}

/** Declares `request.partner` and `request.sandbox` (set by the hook below on partner routes, null elsewhere). */
export const partnerRequestPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('partner', null as unknown as Partner);
    app.decorateRequest('sandbox', null as unknown as World);
  },
  { name: 'obsim-partner-request' },
);

/** Add the partner-auth hook to the encapsulated scope `app` (call inside a route plugin). */
export function requirePartner(app: FastifyInstance): void {
  // callback style: no promise per request
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    try {
      request.partner = app.partners.authenticate(request.headers['x-partner-client-id'], request.headers['x-partner-client-secret']);
      request.sandbox = app.engine.world(request.partner.sandboxId);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}

/** OpenAPI security requirement for partner routes. */
export const partnerSecurity = [{ partnerClientId: [], partnerClientSecret: [] }];
