/**
 * AIS bearer tokens: real JWTs (JWS compact, HS256), signed with fast-jwt's signer and verified
 * with jose's jwtVerify (no JWT code of our own).
 *
 * - Signing is synchronous (node:crypto's HMAC): jose 6 signs through WebCrypto, whose HMAC runs
 *   on libuv's thread pool, and that round trip was a sixth of a token call at one connection
 *   (about 50 µs; docs/performance.md). The token is the same either way: header
 *   {"alg":"HS256","typ":"JWT"}, the claims below in this order.
 *
 * - Secret: config.jwtSecret (UTF-8 bytes, at least 32 characters recommended) or 32 random
 *   bytes persisted in the database (meta key `jwt_secret:<environment>`), so tokens survive a
 *   restart and sandbox/production never share a key. Imported once as a WebCrypto CryptoKey for
 *   verification (jose would otherwise import the raw secret on every call: twice the cost).
 * - jose's verdict on a token is a pure function of the token and the current time in whole
 *   seconds (it compares every claim at Math.floor(now / 1000), as does our iat check), so each
 *   verdict is remembered for the rest of its second: a client sending the same bearer token on
 *   every request is verified by jose once per second, with exactly jose's outcome.
 * - Claims: sub (userId), merchantId, permissions, iat, exp (iat + OBSIM_TOKEN_TTL, default one
 *   hour), iss `obsim-<environment>`, aud `obsim-ais`, jti. Times come from the VIRTUAL clock, so
 *   advancing the clock past exp expires a token.
 * - Verification: HS256 only (alg none, RS256, HS512… are rejected), issuer, audience, exp and
 *   nbf checked against the virtual clock with a 5 second tolerance; iat in the future beyond the
 *   tolerance is rejected too. Every failure maps to its own error code (see `tokenError`).
 */
import { randomBytes, randomUUID, webcrypto } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { VirtualClock } from '../clock.js';
import type { Environment } from '../domain/settings.js';
import { TOKEN_PERMISSIONS, type TokenPermission } from '../domain/consent.js';
import { ApiError } from '../domain/errors.js';
import { lazyImport, lazyRequire } from '../lazy.js';
import type { MetaStore } from '../store/db.js';

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
  /** The clock of the sandbox a merchant belongs to (undefined: the token names none). */
  clockFor(merchantId: number | undefined): VirtualClock;
  ttlMs: number;
  /** In a cluster: the shard's name, as the token header's `kid`, so the router can send AIS calls to the shard that issued the token. */
  keyId?: string;
}

/**
 * The merchantId claim read WITHOUT verifying: to pick the clock the token is verified on, and
 * (once its signature is known good: an expired token) whose journal its refusal goes to.
 */
export function unverifiedMerchantId(token: string): number | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { merchantId?: unknown };
    return typeof claims.merchantId === 'number' ? claims.merchantId : undefined;
  } catch {
    return undefined;
  }
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

// loaded with the first token call: jose is an ES module of ~40 ms at start-up that `obsim serve`
// does not need before the first AIS call
const jose = lazyImport<typeof import('jose')>('jose');
const fastJwt = lazyRequire<typeof import('fast-jwt')>('fast-jwt');

/** Map a jose failure (or anything else thrown while verifying) to one of the token_* codes; `errors`: jose's error classes. */
export function tokenError(err: unknown, errors?: (typeof import('jose'))['errors']): ApiError {
  if (err instanceof ApiError) return err;
  if (!errors) return new ApiError('token_invalid');
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

/** Verdicts remembered (one second each; oldest dropped first). */
const VERDICTS_KEPT = 1000;

interface Verdict {
  second: number;
  claims?: TokenClaims;
  error?: { code: ApiError['code']; message: string };
}

export class TokenService {
  readonly issuer: string;
  private cryptoKey: Promise<webcrypto.CryptoKey> | undefined;
  private signer: ((payload: Record<string, unknown>) => string) | undefined;
  private readonly verdicts = new Map<string, Verdict>();

  constructor(private readonly options: TokenServiceOptions) {
    this.issuer = issuerFor(options.environment);
  }

  private key(): Promise<webcrypto.CryptoKey> {
    return (this.cryptoKey ??= webcrypto.subtle.importKey('raw', this.options.secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]));
  }

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  async sign(input: {
    userId: string;
    merchantId: number;
    permissions: readonly TokenPermission[];
  }): Promise<{ token: string; claims: TokenClaims }> {
    const iat = Math.floor(this.options.clockFor(input.merchantId).nowMs() / 1000);
    const exp = iat + Math.max(1, Math.floor(this.options.ttlMs / 1000));
    const jti = randomUUID();
    const permissions = [...new Set(input.permissions)];
    this.signer ??= fastJwt().createSigner({ key: Buffer.from(this.options.secret), algorithm: TOKEN_ALGORITHM, kid: this.options.keyId });
    const token = this.signer({
      merchantId: input.merchantId,
      permissions,
      sub: input.userId,
      iss: this.issuer,
      aud: TOKEN_AUDIENCE,
      iat,
      exp,
      jti,
    });
    return {
      token,
      claims: { userId: input.userId, merchantId: input.merchantId, permissions, issuedAt: iat, expiresAt: exp, tokenId: jti },
    };
  }

  /** Verify a compact JWT; throws ApiError with a token_* code. */
  async verify(token: string): Promise<TokenClaims> {
    const now = this.options.clockFor(unverifiedMerchantId(token)).now();
    const second = Math.floor(now.getTime() / 1000);
    let verdict = this.verdicts.get(token);
    if (verdict?.second !== second) {
      try {
        verdict = { second, claims: await this.verifyWithJose(token, now) };
      } catch (err) {
        const apiErr = err instanceof ApiError ? err : tokenError(err);
        verdict = { second, error: { code: apiErr.code, message: apiErr.message } };
      }
      this.verdicts.delete(token);
      if (this.verdicts.size >= VERDICTS_KEPT) this.verdicts.delete(this.verdicts.keys().next().value!);
      this.verdicts.set(token, verdict);
    }
    if (verdict.error) throw new ApiError(verdict.error.code, { message: verdict.error.message });
    // a fresh object each time: a caller cannot change what the next request sees
    return { ...verdict.claims!, permissions: [...verdict.claims!.permissions] };
  }

  private async verifyWithJose(token: string, now: Date): Promise<TokenClaims> {
    let payload: JWTPayload;
    const { jwtVerify, errors } = await jose();
    try {
      ({ payload } = await jwtVerify(token, await this.key(), {
        algorithms: [TOKEN_ALGORITHM],
        issuer: this.issuer,
        audience: TOKEN_AUDIENCE,
        currentDate: now,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['sub', 'iat', 'exp', 'jti'],
      }));
    } catch (err) {
      throw tokenError(err, errors);
    }
    const nowS = Math.floor(now.getTime() / 1000);
    if (typeof payload.iat === 'number' && payload.iat > nowS + CLOCK_TOLERANCE_S) throw new ApiError('token_not_yet_valid');
    const { sub, merchantId, permissions } = payload as JWTPayload & { merchantId?: unknown; permissions?: unknown };
    if (typeof sub !== 'string' || sub === '') throw claims('sub');
    if (typeof merchantId !== 'number' || !Number.isSafeInteger(merchantId) || merchantId < 1) throw claims('merchantId');
    if (!Array.isArray(permissions) || !permissions.every((p) => (TOKEN_PERMISSIONS as readonly unknown[]).includes(p))) {
      throw claims('permissions');
    }
    return {
      userId: sub,
      merchantId,
      permissions: permissions as TokenPermission[],
      issuedAt: payload.iat!,
      expiresAt: payload.exp!,
      tokenId: String(payload.jti),
    };
  }
}

function claims(name: string): ApiError {
  return new ApiError('token_claims_invalid', { message: `The bearer token claim "${name}" is missing or not valid` });
}
