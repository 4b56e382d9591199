/**
 * Request ids: a well-formed x-request-id is echoed (the contract's "request id for tracking"),
 * anything else gets a fresh `req_<24 hex>`. A malformed header is never an error (it is replaced,
 * which also keeps header injection out of the echo).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// 12 random bytes as hex, cut from a pool of 512 ids' worth made at a time: one randomBytes call
// per request was a visible cost on the hot path, and so was a hex conversion per request
const IDS_PER_POOL = 512;
let pool = '';
let offset = 0;
function randomHex12(): string {
  if (offset + 24 > pool.length) {
    pool = randomBytes(12 * IDS_PER_POOL).toString('hex');
    offset = 0;
  }
  offset += 24;
  return pool.slice(offset - 24, offset);
}

/** A new request id. */
export const newRequestId = (): string => `req_${randomHex12()}`;

/** Fastify's genReqId: the caller's id when well formed, else a new one. */
export function genReqId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : newRequestId();
}

/** Every answer carries its request id as the x-request-id header (callback style: no promise per request). */
export const requestIdPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      void reply.header('x-request-id', request.id);
      done(null, payload);
    });
  },
  { name: 'obsim-request-id' },
);
