/**
 * GET / PUT / DELETE /_sandbox/faults: the caller's sandbox's fault profile (docs/chaos.md).
 * A profile's problems are answered with `field` as a JSON pointer into the body, and nothing
 * of a refused profile is applied.
 */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import { profileToApply, type FaultProfileInput } from '../../domain/chaos-profiles.js';
import type { Chaos } from '../../engine/chaos.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import type { RouteEntry } from '../../plugins/route-table.js';
import { providerOperations } from '../../readiness/collect.js';

/** The operations a rule may name (an operationId, or METHOD /path/{template}). */
export const faultTargets = (routes: readonly RouteEntry[]) => ({
  operations: providerOperations(routes).map((o) => ({ operationId: o.operationId, route: `${o.method} ${o.path}` })),
});

/** The FaultProfile a sandbox shows: the profile in force, or `active: false`. */
export function faultView(chaos: Chaos, sandboxId: string) {
  const f = chaos.get(sandboxId);
  if (!f) return { sandboxId, active: false, rules: [], injected: [] };
  const { seed, profile, rules } = f.profile;
  return { sandboxId, active: true, seed, ...(profile !== undefined ? { profile } : {}), setAt: f.setAt, rules, injected: [...f.injected] };
}

export async function faultRoutes(app: FastifyInstance): Promise<void> {
  const common = { tags: ['sandbox'], security: partnerSecurity };
  const view = { response: responses({ $ref: 'FaultProfile#' }) };

  app.get(
    '/faults',
    {
      schema: {
        ...common,
        ...view,
        operationId: 'getFaults',
        summary: "The sandbox's fault profile in force",
        description:
          'Its seed (replay a run by setting the same profile with it), its rules, and the faults each rule injected since it was set.',
      },
    },
    async (request) => faultView(app.chaos, request.sandbox.id),
  );

  app.put<{ Body: FaultProfileInput }>(
    '/faults',
    {
      schema: {
        ...common,
        ...view,
        operationId: 'setFaults',
        summary: 'Put a fault profile in force',
        description:
          "Replaces the profile in force; each rule's stream starts again from the seed. A shipped profile by name, rules of its own, or both. A problem is a 400 whose `field` is a JSON pointer into the body (`/rules/1/rate`); nothing is applied.",
        body: { $ref: 'FaultProfileRequest#' },
      },
    },
    async (request) => {
      const { sandbox } = request;
      const profile = profileToApply(request.body ?? {}, faultTargets(app.routeTable), sandbox.clock.nowMs());
      app.chaos.set(sandbox.id, profile, sandbox.clock.iso());
      await app.store.committed(); // the profile is in force once stored
      return faultView(app.chaos, sandbox.id);
    },
  );

  app.delete(
    '/faults',
    {
      schema: {
        ...common,
        ...view,
        operationId: 'clearFaults',
        summary: 'Clear the fault profile',
        description: 'Nothing is injected any more; deliveries already held by a delay are sent when it ends.',
      },
    },
    async (request) => {
      app.chaos.clear(request.sandbox.id);
      await app.store.committed();
      return faultView(app.chaos, request.sandbox.id);
    },
  );
}
