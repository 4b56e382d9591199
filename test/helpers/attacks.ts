/**
 * What the attack suites (test/reliability/*-attacks.test.ts) share: an attack, the code it must
 * be rejected with, and running a list of them against an app.
 */
import type { FastifyInstance } from 'fastify';
import { schemaErrors } from './app.js';

export interface Attack {
  name: string;
  /** Authorization header value(s), or partner headers. */
  headers: Record<string, string>;
  body?: Record<string, unknown>;
  url?: string;
  method?: 'GET' | 'POST';
  status: number;
  code: string;
}

/** Sends each attack; counts those rejected with their status and code in the documented error shape. */
export async function run(
  app: FastifyInstance,
  t: { ok(v: unknown, m: string): unknown },
  attacks: Attack[],
  body: Record<string, unknown>,
) {
  let right = 0;
  for (const a of attacks) {
    const res = await app.inject({
      method: a.method ?? 'POST',
      url: a.url ?? '/v1/ais/accounts',
      headers: a.headers,
      payload: a.method === 'GET' ? undefined : (a.body ?? body),
    });
    const b = (() => {
      try {
        return JSON.parse(res.body);
      } catch {
        return res.body;
      }
    })();
    const ok = res.statusCode === a.status && b?.code === a.code && schemaErrors('ErrorBody', b).length === 0;
    if (ok) right++;
    t.ok(ok, `${a.name}: ${res.statusCode} ${b?.code ?? ''} (want ${a.status} ${a.code})`);
  }
  return right;
}
