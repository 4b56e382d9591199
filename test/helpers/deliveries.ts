/**
 * What the webhook delivery tests (test/webhooks/delivery*.test.ts) share: register a webhook,
 * create a payment, read the delivery log, a port nothing listens on, and the checks every
 * signed delivery must pass.
 */
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { USER_AGENT } from '../../src/webhooks/post.js';
import { PARTNER } from './app.js';
import { freePorts } from './cluster.js';
import { call } from './partner.js';
import { expectedSignature, type Received } from './receiver.js';

export type Headers = Record<string, string>;

export async function hook(app: FastifyInstance, url: string, events: string[], headers: Headers = PARTNER) {
  const r = await call(app, 'POST', '/v1/partner/webhooks', { url, events }, headers);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body as { id: string; secret: string };
}

export async function pay(app: FastifyInstance, merchantClientId: string, amount = 125.5, headers: Headers = PARTNER) {
  const r = await call(app, 'POST', '/v1/partner/payments', { merchantClientId, amount, referenceNumber: 'order-1' }, headers);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body as { paymentId: number };
}

export async function deliveries(app: FastifyInstance, query = '', headers: Headers = PARTNER) {
  const r = await call(app, 'GET', `/_sandbox/deliveries${query}`, undefined, headers);
  return r.body as { items: any[]; total: number };
}

/**
 * A port nothing listens on, below the ephemeral range (./cluster.ts freePorts): a port-0 listener
 * freed here could be the very port the system hands the next port-0 listener, in this process or
 * another test file's: a shadow whose "unreachable" upstream is its own port proxies to itself
 * and hangs.
 */
export const closedPort = (): Promise<number> => freePorts(1);

export function checkSigned(t: Test, r: Received, secret: string, eventId: string) {
  t.equal(r.method, 'POST');
  t.equal(r.headers['content-type'], 'application/json');
  t.equal(r.headers['user-agent'], USER_AGENT);
  t.equal(r.headers['x-webhook-id'], eventId, 'X-Webhook-Id is the event id');
  t.equal(r.headers['x-webhook-signature'], expectedSignature(secret, r.raw), 'signature recomputed from the raw body');
  t.match(r.headers['x-webhook-signature'], /^[0-9a-f]{64}$/, 'lowercase hex');
}
