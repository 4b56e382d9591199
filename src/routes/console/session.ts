/**
 * Console sessions. The console calls the partner API as the signed-in partner, so the session
 * must carry the client secret: it lives in the cookie, encrypted and authenticated (JWE, dir +
 * A256GCM) under a random per-database key, so it is neither readable nor forgeable, and a
 * database's cookies mean nothing to another database. Expiry is on the wall clock (the virtual
 * clock can be advanced by days). The cookie is HttpOnly, SameSite=Strict, Path=/console.
 *
 * CSRF: every state-changing form carries the session's own random token (`_csrf`); the sign-in
 * form, before any session exists, carries a token that must equal a short-lived cookie's.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { lazyImport } from '../../lazy.js';

// imported at the first sign-in: jose costs ~30 ms of start-up (auth/tokens.ts loads it lazily too)
const jose = lazyImport<typeof import('jose')>('jose');

export const SESSION_COOKIE = 'obsim_console';
export const SIGN_IN_COOKIE = 'obsim_console_sign_in';
export const FLASH_COOKIE = 'obsim_console_flash';
export const SESSION_TTL_S = 8 * 60 * 60;
const KEY_META = 'console.sessionKey';

export interface ConsoleSession {
  clientId: string;
  secret: string;
  csrf: string;
}

export const newToken = (): string => randomBytes(18).toString('base64url');

/** Same string, compared in constant time (a token from a form against the expected one). */
export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** `shard`: in a cluster, the cookie's header names it (`kid`) so the router sends the console's requests back to it. */
export function createSessions(meta: { getOrCreate(key: string, create: () => string): string }, shard?: string) {
  // created on first use: a server nobody signs in to writes nothing for the console
  let key: Buffer | undefined;
  const sessionKey = () =>
    (key ??= Buffer.from(
      meta.getOrCreate(KEY_META, () => randomBytes(32).toString('base64url')),
      'base64url',
    ));
  return {
    async issue(clientId: string, secret: string): Promise<{ token: string; session: ConsoleSession }> {
      const session = { clientId, secret, csrf: newToken() };
      const { EncryptJWT } = await jose();
      const token = await new EncryptJWT({ sec: secret, csrf: session.csrf })
        .setProtectedHeader(shard === undefined ? { alg: 'dir', enc: 'A256GCM' } : { alg: 'dir', enc: 'A256GCM', kid: shard })
        .setSubject(clientId)
        .setIssuedAt()
        .setExpirationTime(`${SESSION_TTL_S}s`)
        .encrypt(sessionKey());
      return { token, session };
    },
    /** The session a cookie holds, or undefined when it is absent, forged, from another database or expired. */
    async read(token: string | undefined): Promise<ConsoleSession | undefined> {
      if (!token) return undefined;
      try {
        const { jwtDecrypt } = await jose();
        const { payload } = await jwtDecrypt(token, sessionKey(), {
          keyManagementAlgorithms: ['dir'],
          contentEncryptionAlgorithms: ['A256GCM'],
        });
        const { sub, sec, csrf } = payload;
        if (typeof sub !== 'string' || typeof sec !== 'string' || typeof csrf !== 'string') return undefined;
        return { clientId: sub, secret: sec, csrf };
      } catch {
        return undefined;
      }
    },
  };
}
