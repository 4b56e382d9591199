/**
 * AIS bearer tokens: real JWTs (JWS compact, HS256), signed with node:crypto and verified with `jose`
 * (a token verified once is cached; later uses re-check only the time claims).
 *
 * - Secret: config.jwtSecret (UTF-8 bytes, at least 32 characters recommended) or 32 random
 *   bytes persisted in the database (meta key `jwt_secret:<environment>`), so tokens survive a
 *   restart and sandbox/production never share a key.
 * - Claims: sub (userId), merchantId, permissions, iat, exp (iat + OBSIM_TOKEN_TTL, default one
 *   hour), iss `obsim-<environment>`, aud `obsim-ais`, jti. Times come from the VIRTUAL clock, so
 *   advancing the clock past exp expires a token.
 * - Verification: HS256 only (alg none, RS256, HS512… are rejected), issuer, audience, exp and
 *   nbf checked against the virtual clock with a 5 second tolerance; iat in the future beyond the
 *   tolerance is rejected too. Every failure maps to its own error code (see `tokenError`).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { VirtualClock } from '../clock.js';
import type { Environment } from '../config.js';
import { ApiError } from '../domain/errors.js';
import type { MetaStore } from '../store/db.js';

/** The permission strings a token can carry (the contract shows these three). */
export const TOKEN_PERMISSIONS = ['ais:accounts:read', 'ais:balance:read', 'ais:transactions:read'] as const;
export type TokenPermission = (typeof TOKEN_PERMISSIONS)[number];

export const TOKEN_ALGORITHM = 'HS256';
export const TOKEN_AUDIENCE = 'obsim-ais';
/** Allowed clock skew when checking exp / nbf / iat. */
export const CLOCK_TOLERANCE_S = 5;

export interface TokenClaims {
  userId: string;
  merchantId: number;
  permissions: TokenPermission[];
  issuedAt: number;
  expiresAt: number;
  tokenId: string;
}

export interface TokenServiceOptions {
  secret: Uint8Array;
  environment: Environment;
  clock: VirtualClock;
  ttlMs: number;
}

export function issuerFor(environment: Environment): string {
  return `obsim-${environment}`;
}

/** config.jwtSecret, or a random secret persisted per environment in the meta table. */
export function resolveSecret(configured: string | undefined, environment: Environment, meta: MetaStore): Uint8Array {
  if (configured !== undefined && configured !== '') return new TextEncoder().encode(configured);
  const stored = meta.getOrCreate(`jwt_secret:${environment}`, () => randomBytes(32).toString('base64url'));
  return Buffer.from(stored, 'base64url');
}

/**
 * jose is loaded with the first token verification (it is an ES module: ~40 ms at start-up that
 * `obsim serve` does not need before the first AIS call).
 */
let jose: typeof import('jose') | undefined;
async function loadJose(): Promise<typeof import('jose')> {
  return (jose ??= await import('jose'));
}

/** Verified tokens kept (LRU order) so a repeated bearer token skips the HMAC and JSON work. */
const VERIFIED_CACHE_SIZE = 1000;

interface VerifiedToken {
  claims: TokenClaims;
  nbf: number | undefined;
  exp: number | undefined;
  iat: number | undefined;
}

const JWT_HEADER = Buffer.from(JSON.stringify({ alg: TOKEN_ALGORITHM, typ: 'JWT' })).toString('base64url');

/** Map a jose failure (or anything else thrown while verifying) to one of the token_* codes. */
export function tokenError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (!jose) return new ApiError('token_invalid');
  const { errors } = jose;
  if (err instanceof errors.JWTExpired) return new ApiError('token_expired');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf' || err.claim === 'iat') return new ApiError('token_not_yet_valid');
    return new ApiError('token_claims_invalid', { message: `The bearer token claim "${err.claim}" is not valid (${err.reason})` });
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return new ApiError('token_invalid', { message: 'The bearer token algorithm is not accepted (HS256 only)' });
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return new ApiError('token_invalid');
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return new ApiError('token_malformed');
  return new ApiError('token_invalid');
}

export class TokenService {
  readonly issuer: string;
  private readonly verified = new Map<string, VerifiedToken>();

  constructor(private readonly options: TokenServiceOptions) {
    this.issuer = issuerFor(options.environment);
  }

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  async sign(input: { userId: string; merchantId: number; permissions: readonly TokenPermission[] }): Promise<{ token: string; claims: TokenClaims }> {
    const iat = Math.floor(this.options.clock.nowMs() / 1000);
    const exp = iat + Math.max(1, Math.floor(this.options.ttlMs / 1000));
    const jti = randomUUID();
    const permissions = [...new Set(input.permissions)];
    // JWS compact HS256, byte for byte what jose's SignJWT produces for these claims (same header,
    // same claim order: constructor payload, then sub, iss, aud, iat, exp, jti), signed with
    // node:crypto synchronously instead of an async WebCrypto job per token
    const claimsSet = { merchantId: input.merchantId, permissions, sub: input.userId, iss: this.issuer, aud: TOKEN_AUDIENCE, iat, exp, jti };
    const signingInput = `${JWT_HEADER}.${Buffer.from(JSON.stringify(claimsSet)).toString('base64url')}`;
    const token = `${signingInput}.${createHmac('sha256', this.options.secret).update(signingInput).digest('base64url')}`;
    return { token, claims: { userId: input.userId, merchantId: input.merchantId, permissions, issuedAt: iat, expiresAt: exp, tokenId: jti } };
  }

  /** Verify a compact JWT; throws ApiError with a token_* code. */
  async verify(token: string): Promise<TokenClaims> {
    const cached = this.verified.get(token);
    if (cached) return this.recheck(token, cached);
    const now = this.options.clock.now();
    let payload: JWTPayload;
    try {
      const { jwtVerify } = await loadJose();
      ({ payload } = await jwtVerify(token, this.options.secret, {
        algorithms: [TOKEN_ALGORITHM],
        issuer: this.issuer,
        audience: TOKEN_AUDIENCE,
        currentDate: now,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['sub', 'iat', 'exp', 'jti'],
      }));
    } catch (err) {
      throw tokenError(err);
    }
    const nowS = Math.floor(now.getTime() / 1000);
    if (typeof payload.iat === 'number' && payload.iat > nowS + CLOCK_TOLERANCE_S) throw new ApiError('token_not_yet_valid');
    const { sub, merchantId, permissions } = payload as JWTPayload & { merchantId?: unknown; permissions?: unknown };
    if (typeof sub !== 'string' || sub === '') throw claims('sub');
    if (typeof merchantId !== 'number' || !Number.isSafeInteger(merchantId) || merchantId < 1) throw claims('merchantId');
    if (!Array.isArray(permissions) || !permissions.every((p) => (TOKEN_PERMISSIONS as readonly unknown[]).includes(p))) {
      throw claims('permissions');
    }
    const result: TokenClaims = {
      userId: sub,
      merchantId,
      permissions: permissions as TokenPermission[],
      issuedAt: payload.iat!,
      expiresAt: payload.exp!,
      tokenId: String(payload.jti),
    };
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { claims: result, nbf: payload.nbf, exp: payload.exp, iat: payload.iat });
    return { ...result, permissions: [...result.permissions] };
  }

  /**
   * A token verified before: signature, header and claims cannot have changed (same string, same
   * secret), only time has. Repeat jose's time checks in jose's order (nbf, then exp, same
   * tolerance, same "now" in whole seconds) and ours (iat), with the same error codes.
   */
  private recheck(token: string, v: VerifiedToken): TokenClaims {
    const nowS = Math.floor(this.options.clock.nowMs() / 1000);
    if (v.nbf !== undefined && v.nbf > nowS + CLOCK_TOLERANCE_S) throw new ApiError('token_not_yet_valid');
    if (v.exp !== undefined && v.exp <= nowS - CLOCK_TOLERANCE_S) throw new ApiError('token_expired');
    if (typeof v.iat === 'number' && v.iat > nowS + CLOCK_TOLERANCE_S) throw new ApiError('token_not_yet_valid');
    // keep recently used tokens at the young end of the LRU order
    this.verified.delete(token);
    this.verified.set(token, v);
    return { ...v.claims, permissions: [...v.claims.permissions] };
  }
}

function claims(name: string): ApiError {
  return new ApiError('token_claims_invalid', { message: `The bearer token claim "${name}" is missing or not valid` });
}
