/**
 * Per-partner rate limiting (config.rateLimit requests per minute; 0 = off, the sandbox default).
 *
 * - Keyed by the AUTHENTICATED caller: the partner (request.partner, set by the partner-auth
 *   onRequest hook) or, on /v1/ais, the bearer token's merchant and subject. The check runs in
 *   preValidation, after authentication, so a caller who merely sends another partner's
 *   X-Partner-Client-Id (without its secret) is rejected with 401 and never spends that
 *   partner's budget. Requests that carry no verified identity (health, docs, hosted pages) are
 *   not limited.
 * - Over the limit: 429 `rate_limited` in the ErrorBody, with `Retry-After` (seconds until the
 *   window resets) and x-ratelimit-limit / -remaining / -reset headers. Other partners are not
 *   affected: every key has its own fixed one-minute window.
 * - Windows run on the wall clock, not the virtual clock: the limit is about real request rates,
 *   and advancing the sandbox clock must not reset it.
 * - The limit is counted per process (in memory); a restart starts fresh.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../domain/errors.js';

/** The verified identity of a request, or undefined when it has none. */
export function rateLimitKey(request: FastifyRequest): string | undefined {
  const partner = request.partner as typeof request.partner | null;
  if (partner) return `partner:${partner.clientId}`;
  const token = request.aisToken as typeof request.aisToken | null;
  if (token) return `token:${token.merchantId}:${token.userId}`;
  return undefined;
}

export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const max = app.config.rateLimit;
    if (!max || max <= 0) return;
    // loaded only when limiting is on (off by default): start-up time
    const { default: rateLimit } = await import('@fastify/rate-limit');
    await app.register(rateLimit, {
      global: true,
      max,
      timeWindow: 60_000,
      hook: 'preValidation',
      keyGenerator: (request) => rateLimitKey(request) ?? 'anonymous',
      allowList: (request) => rateLimitKey(request) === undefined,
      errorResponseBuilder: (_request, context) => {
        const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
        return new ApiError('rate_limited', {
          message: `More than ${context.max} requests per minute; retry after ${seconds} s`,
          headers: { 'retry-after': String(seconds) },
        });
      },
    });
  },
  { name: 'obsim-rate-limit', dependencies: ['obsim-errors'] },
);
