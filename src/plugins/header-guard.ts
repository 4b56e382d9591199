/**
 * Ambiguous headers are refused before anything else runs.
 *
 * Node keeps only the FIRST value of a repeated Authorization or Content-Type header and joins
 * repeated X-Partner-Client-* headers with ", ". A request carrying two different credentials or
 * two media types means different things to different hops (proxy vs. simulator); a careful
 * provider refuses it instead of guessing (found by test/reliability/token-attacks.test.ts):
 *
 *   Authorization twice            -> 401 token_malformed
 *   X-Partner-Client-Id/-Secret twice -> 401 partner_credentials_invalid
 *   Content-Type twice             -> 415 unsupported_media_type
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../domain/errors.js';

const GUARDED: Record<string, () => ApiError> = {
  authorization: () => new ApiError('token_malformed', { message: 'More than one Authorization header' }),
  'x-partner-client-id': () => new ApiError('partner_credentials_invalid', { message: 'More than one X-Partner-Client-Id header' }),
  'x-partner-client-secret': () => new ApiError('partner_credentials_invalid', { message: 'More than one X-Partner-Client-Secret header' }),
  'content-type': () => new ApiError('unsupported_media_type', { message: 'More than one Content-Type header' }),
};

/** The lengths of the guarded names: a header of another length is not lower-cased to be looked up. */
const GUARDED_LENGTHS = new Set(Object.keys(GUARDED).map((name) => name.length));

export const headerGuardPlugin = fp(
  async (app: FastifyInstance) => {
    // callback style (no promise per request); the Set only when a guarded header shows up;
    // lower-casing every header name sent was ~2 % of a GET's CPU (docs/performance.md)
    app.addHook('onRequest', (request, _reply, done) => {
      const raw = request.raw.rawHeaders;
      let seen: Set<string> | undefined;
      for (let i = 0; i < raw.length; i += 2) {
        if (!GUARDED_LENGTHS.has(raw[i].length)) continue;
        const name = raw[i].toLowerCase();
        if (!(name in GUARDED)) continue;
        seen ??= new Set<string>();
        if (seen.has(name)) return done(GUARDED[name]());
        seen.add(name);
      }
      done();
    });
  },
  { name: 'obsim-header-guard', dependencies: ['obsim-errors'] },
);
