/**
 * Decorates `tokens` (the AIS TokenService): sign (generate-token) and verify (/v1/ais/*), and
 * the request's verified `aisToken` (set by the bearer hook of the AIS area).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { resolveSecret, TokenService, type TokenClaims } from './tokens.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** AIS bearer tokens: sign (generate-token) and verify (/v1/ais/*). */
    tokens: TokenService;
  }
}

export const tokensPlugin = fp(
  async (app: FastifyInstance) => {
    const secret = resolveSecret(app.config.jwtSecret, app.config.environment, app.meta);
    app.decorate(
      'tokens',
      new TokenService({
        secret,
        environment: app.config.environment,
        // a token lives on its merchant's sandbox's clock (app.engine exists by the first request)
        clockFor: (merchantId) => {
          const partnerId = merchantId === undefined ? undefined : app.store.merchants.partnerOf(merchantId);
          return partnerId === undefined ? app.clock : app.engine.worldOf(partnerId).clock;
        },
        ttlMs: app.config.tokenTtlMs,
        keyId: app.config.shard,
      }),
    );
    app.decorateRequest('aisToken', null as unknown as TokenClaims);
  },
  { name: 'obsim-tokens', dependencies: ['obsim-store', 'obsim-clock'] },
);
