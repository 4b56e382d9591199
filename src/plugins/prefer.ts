/**
 * Fault injection for client testing, the Prism convention: a `Prefer` request header on /v1
 * calls.
 *
 *   Prefer: code=503              answer 503 with the ErrorBody (code `forced_status`) without
 *                                 running the handler: no state change
 *   Prefer: delay=250             wait 250 ms (real time, at most 30 000) before handling
 *   Prefer: code=429, delay=100   both: wait, then answer 429 (with Retry-After: 1)
 *
 * Only codes 400-599 are forced; `code=200` (or any 1xx-3xx) runs the request normally.
 * Unknown preferences are ignored (RFC 7240); a malformed code or delay is a 400 naming the
 * `Prefer` header. Applies before authentication, so a client can test its error handling for
 * any endpoint.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { setTimeout as sleep } from 'node:timers/promises';
import { PreferRequestHeader } from '../../schemas/common.js';
import { ApiError, invalidInput } from '../domain/errors.js';

export const PREFER_MAX_DELAY_MS = 30_000;

export interface Preference {
  code?: number;
  delayMs?: number;
}

/** Parse `code=503, delay=100` (also `;` separated, any order, case-insensitive names). */
export function parsePrefer(header: string | string[] | undefined): Preference {
  const out: Preference = {};
  const raw = [header ?? []].flat().join(',');
  for (const part of raw.split(/[,;]/)) {
    const m = part.match(/^\s*([A-Za-z-]+)\s*=\s*"?([^"]*)"?\s*$/);
    if (!m) continue;
    const name = m[1].toLowerCase();
    const value = m[2].trim();
    if (name === 'code') {
      if (!/^\d{3}$/.test(value) || Number(value) < 100 || Number(value) > 599) {
        throw invalidInput('/prefer', `Prefer: code must be an HTTP status code 100-599, got "${value}"`, 'header');
      }
      out.code = Number(value);
    } else if (name === 'delay') {
      if (!/^\d{1,9}$/.test(value)) {
        throw invalidInput('/prefer', `Prefer: delay must be whole milliseconds, got "${value}"`, 'header');
      }
      out.delayMs = Math.min(Number(value), PREFER_MAX_DELAY_MS);
    }
  }
  return out;
}

export const preferPlugin = fp(
  async (app: FastifyInstance) => {
    // document the header on every /v1 operation (OpenAPI parameter, so generated clients see
    // it); the schema is a plain optional string, so request validation never rejects it: a
    // malformed value is answered by the hook below, naming `Prefer`
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/v1/') || !route.schema || route.schema.hide) return;
      const headers = (route.schema.headers ?? { type: 'object' }) as { type?: string; properties?: Record<string, unknown> };
      route.schema.headers = { ...headers, properties: { ...headers.properties, prefer: PreferRequestHeader } };
    });

    // callback style with a synchronous fast path: no promise for the (usual) request without Prefer
    app.addHook('onRequest', (request, _reply, done) => {
      const header = request.headers.prefer;
      if (header === undefined || !request.url.startsWith('/v1/')) return done();
      applyPrefer(header).then(() => done(), done);
    });

    async function applyPrefer(header: string | string[]): Promise<void> {
      const pref = parsePrefer(header);
      if (pref.delayMs) await sleep(pref.delayMs);
      if (pref.code !== undefined && pref.code >= 400) {
        throw new ApiError('forced_status', {
          status: pref.code,
          message: `Status ${pref.code} forced by the Prefer header; the request was not processed`,
          headers: pref.code === 429 || pref.code === 503 ? { 'retry-after': '1' } : undefined,
        });
      }
    }
  },
  { name: 'obsim-prefer' },
);
