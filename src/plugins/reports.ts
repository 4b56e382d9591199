/**
 * The reports that read a whole sandbox off the request path (docs/readiness.md,
 * docs/contract-versions.md "Impact"): one reporter per app, whose worker thread computes the
 * readiness report and reads what a sandbox's traffic touched for the impact report, on a
 * read-only connection of its own (src/readiness/reporter.ts). null when the journal is off.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { routeKey } from '../contracts/walk.js';
import { providerOperations } from '../readiness/collect.js';
import { createReporter } from '../readiness/reporter.js';

declare module 'fastify' {
  interface FastifyInstance {
    reports: ReturnType<typeof createReporter> | null;
  }
}

export const reportsPlugin = fp(
  async (app: FastifyInstance) => {
    const reporter =
      app.journal &&
      createReporter({
        db: app.db,
        store: app.store,
        journal: app.journal,
        operations: () =>
          providerOperations(app.routeTable).map((o) => {
            // the versions that deprecate it: calls they served are listed (deprecatedCalls)
            const key = routeKey(o.method, o.path);
            const deprecatedIn = app.contracts
              .list()
              .filter((v) => v.operation(key)?.deprecated === true)
              .map((v) => v.name);
            return deprecatedIn.length > 0 ? { ...o, deprecatedIn } : o;
          }),
        log: app.log,
      });
    app.decorate('reports', reporter ?? null);
    app.sandboxes.onRemoved((id) => reporter?.forget(id));
    app.addHook('onClose', async () => reporter?.close());
  },
  { name: 'obsim-reports', dependencies: ['obsim-store', 'obsim-engine', 'obsim-journal', 'obsim-contract-versions', 'obsim-route-table'] },
);
