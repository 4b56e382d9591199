/**
 * The shadow's clock (docs/drift.md, "The clock"): when the upstream has obsim's clock controls
 * (another obsim), the shadow's sandbox starts at the upstream's instant, frozen or running as it
 * is, and moves to every instant the partner's clock calls take the upstream to. Against a provider
 * without them it runs in real time, as the provider's does.
 */
import type { FastifyInstance } from 'fastify';
import { jsonOf, type Sent } from './http.js';

export function upstreamClock(
  obsim: FastifyInstance,
  sandboxHeaders: Record<string, string>,
  readUpstreamClock: (partnerHeaders: Record<string, string>) => Promise<Sent>,
) {
  /** The shadow's sandbox to `instant` (never back), then frozen or running like the upstream's. */
  async function moveTo(instant: string, frozen: boolean | undefined): Promise<void> {
    if (frozen === true) await obsim.inject({ method: 'POST', url: '/_sandbox/clock/freeze', headers: sandboxHeaders });
    const now = await obsim.inject({ method: 'GET', url: '/_sandbox/clock', headers: sandboxHeaders });
    const ahead = Date.parse(instant) - Date.parse(now.json<{ now: string }>().now);
    if (ahead > 0) await obsim.inject({ method: 'POST', url: '/_sandbox/clock/advance', headers: sandboxHeaders, payload: { ms: ahead } });
    if (frozen === false) await obsim.inject({ method: 'POST', url: '/_sandbox/clock/resume', headers: sandboxHeaders });
  }

  return {
    moveTo,
    /** Once, with the partner's credentials: does the upstream offer obsim's clock? Then start where it is. */
    async follow(partnerHeaders: Record<string, string>): Promise<void> {
      const auth: Record<string, string> = {};
      for (const k of ['x-partner-client-id', 'x-partner-client-secret']) if (partnerHeaders[k]) auth[k] = partnerHeaders[k];
      try {
        const res = await readUpstreamClock(auth);
        const clock = jsonOf(res.bytes.toString('utf8'), res.headers['content-type']) as { now?: unknown; frozen?: unknown } | undefined;
        if (res.status === 200 && typeof clock?.now === 'string' && typeof clock.frozen === 'boolean')
          await moveTo(clock.now, clock.frozen);
      } catch {
        // no clock controls upstream: the shadow's clock runs in real time, like the provider's
      }
    },
  };
}
