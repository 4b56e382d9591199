/**
 * Who is an admin of obsim's control API: anyone who can reach it when the server runs without
 * OBSIM_ADMIN_KEY (offline, CI), otherwise a caller sending it as X-Obsim-Admin-Key (compared in
 * constant time). A wrong key is refused outright rather than treated as no key.
 */
import type { FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../domain/errors.js';

export const ADMIN_KEY_HEADER = 'x-obsim-admin-key';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** `isAdmin(request)` for a server run with `adminKey` (undefined: none configured). */
export function adminCheck(adminKey: string | undefined): (request: FastifyRequest) => boolean {
  return (request) => {
    if (adminKey === undefined) return true;
    const given = request.headers[ADMIN_KEY_HEADER];
    if (given === undefined) return false;
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), digest(adminKey))) throw new ApiError('admin_key_invalid');
    return true;
  };
}
