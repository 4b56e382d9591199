/**
 * Bearer authentication for /v1/ais/*: an onRequest hook (before the body is parsed, so an
 * unauthenticated caller learns nothing about validation) that verifies the JWT and sets
 * request.aisToken, plus `requireToken()` which the handlers call with the user and merchant
 * the request names and the permission the endpoint needs.
 *
 * Order of checks: 401 (no/malformed/invalid/expired token) -> 400 (request validation) ->
 * 403 token_subject_mismatch (token for another user or merchant) -> 403
 * token_permission_missing -> 403 consent_missing / consent_permission_missing (handlers).
 * 401s carry `WWW-Authenticate: Bearer realm="obsim", error="invalid_token"` (RFC 6750),
 * 403s for a missing permission `error="insufficient_scope"`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, type ErrorPlace } from '../domain/errors.js';
import { DEFAULT_SANDBOX } from '../domain/sandbox.js';
import type { TokenPermission } from '../domain/consent.js';
import { unverifiedMerchantId, type TokenClaims } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    aisToken: TokenClaims;
  }
}

const REALM = 'Bearer realm="obsim"';

function withChallenge(err: ApiError, error: string): ApiError {
  return new ApiError(err.code, {
    message: err.message,
    field: err.field,
    in: err.in,
    headers: { 'www-authenticate': `${REALM}, error="${error}", error_description="${err.message.replace(/["\\]/g, '')}"` },
  });
}

/** The token out of `Authorization: Bearer <token>`; 401 token_missing / token_malformed. */
export function bearerToken(header: string | string[] | undefined): string {
  if (header === undefined || header === '') {
    throw new ApiError('token_missing', { headers: { 'www-authenticate': REALM } });
  }
  const value = Array.isArray(header) ? (header[0] ?? '') : header;
  const m = value.match(/^Bearer[ ]+([^ ]+)[ ]*$/i);
  if (!m) {
    throw withChallenge(
      new ApiError('token_malformed', { message: 'The Authorization header must be "Bearer <token>"' }),
      'invalid_request',
    );
  }
  return m[1];
}

/** Add the bearer hook to the encapsulated scope `app`. */
export function requireBearer(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const token = bearerToken(request.headers.authorization);
    try {
      request.aisToken = await app.tokens.verify(token);
    } catch (err) {
      // an expired token's signature was verified (jose checks it before the claims), so its
      // merchant's partner is known: the refusal goes to that journal (the readiness report's
      // expired_token_reused); any other refused token names nobody it can be trusted to
      if (err instanceof ApiError && err.code === 'token_expired') {
        const owner = app.store.merchants.partnerOf(unverifiedMerchantId(token) ?? 0);
        if (owner !== undefined) request.journalOwner = owner;
      }
      throw err instanceof ApiError ? withChallenge(err, 'invalid_token') : err;
    }
    // the sandbox of the token's merchant: its clock, its data
    const partnerId = app.store.merchants.partnerOf(request.aisToken.merchantId);
    request.sandbox = partnerId === undefined ? app.engine.world(DEFAULT_SANDBOX) : app.engine.worldOf(partnerId);
    if (partnerId !== undefined) request.journalOwner = partnerId;
  });
}

/**
 * 403 unless the token was issued for this user and merchant and (when given) carries the
 * permission.
 */
export function requireToken(
  request: FastifyRequest,
  userId: string,
  merchantId: number,
  permission?: TokenPermission,
  /** Where the request carried the two (a body, or a path and a query string). */
  places: { userId: ErrorPlace; merchantId: ErrorPlace } = { userId: 'body', merchantId: 'body' },
): TokenClaims {
  const claims = request.aisToken;
  if (claims.userId !== userId) {
    throw new ApiError('token_subject_mismatch', {
      message: 'The bearer token was issued for another userId',
      field: '/userId',
      in: places.userId,
    });
  }
  if (claims.merchantId !== merchantId) {
    throw new ApiError('token_subject_mismatch', {
      message: 'The bearer token was issued for another merchantId',
      field: '/merchantId',
      in: places.merchantId,
    });
  }
  if (permission && !claims.permissions.includes(permission)) {
    throw withChallenge(
      new ApiError('token_permission_missing', { message: `The bearer token lacks the permission ${permission}` }),
      'insufficient_scope',
    );
  }
  return claims;
}

/** OpenAPI security requirement for AIS routes. */
export const bearerSecurity = [{ bearerAuth: [] }];
