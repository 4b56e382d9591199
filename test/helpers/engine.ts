/** Shared setup of the engine tests (not a test file). */
import type { Cause } from '../../src/domain/transitions.js';
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { EVENT_NAMES } from '../../src/domain/machine.js';
import { PARTNER } from './app.js';
import { call } from './partner.js';
import { envelopeProblems } from './contract.js';
import { expectedSignature, startReceiver, type Receiver } from './receiver.js';

export interface Watch {
  rx: Receiver;
  secret: string;
  /** Deliver everything queued and return the envelopes received since the last call, each checked. */
  next(t: Test): Promise<any[]>;
}

/** A loopback receiver subscribed to every event of PARTNER. */
export async function watchEvents(t: Test, app: FastifyInstance, headers = PARTNER): Promise<Watch> {
  const rx = await startReceiver(t);
  const r = await call(app, 'POST', '/v1/partner/webhooks', { url: rx.url, events: [...EVENT_NAMES] }, headers);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  const secret = r.body.secret as string;
  let seen = 0;
  return {
    rx,
    secret,
    async next(t: Test) {
      await app.webhooks.drain();
      const fresh = rx.received.slice(seen);
      seen = rx.received.length;
      for (const got of fresh) {
        t.equal(got.headers['x-webhook-signature'], expectedSignature(secret, got.raw), `${got.json?.event}: signature of the raw body`);
        t.same(envelopeProblems(got.json, got.json?.event), [], `${got.json?.event}: payload matches the contract table`);
      }
      return fresh.map((g) => g.json);
    },
  };
}

export async function advance(app: FastifyInstance, duration: string) {
  const r = await call(app, 'POST', '/_sandbox/clock/advance', { duration });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body as { now: string; fired: number };
}

/** The cause a test gives a change it makes through the engine directly (not through a route). */
export const TEST_CAUSE: Cause = { kind: 'control', name: 'test' };
