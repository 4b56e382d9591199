/**
 * Decorates `tokens` (the AIS TokenService) on the route scope: registered first in
 * src/routes/index.ts so every route area (auth, ais, sandbox, scenarios) can sign and verify.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { resolveSecret, TokenService } from './tokens.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** AIS bearer tokens: sign (generate-token) and verify (/v1/ais/*). */
    tokens: TokenService;
  }
}

export const tokensPlugin = fp(
  async (app: FastifyInstance) => {
    if (app.hasDecorator('tokens')) return;
    const secret = resolveSecret(app.config.jwtSecret, app.config.environment, app.meta);
    app.decorate('tokens', new TokenService({ secret, environment: app.config.environment, clock: app.clock, ttlMs: app.config.tokenTtlMs }));
  },
  { name: 'obsim-tokens' },
);
