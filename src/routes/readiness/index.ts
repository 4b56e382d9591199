/**
 * GET /_sandbox/report: the sandbox's go-live readiness report (docs/readiness.md). The caller's
 * own sandbox with its partner credentials; any sandbox with `?sandbox=` for an admin (the
 * X-Obsim-Admin-Key, or anyone on a server without one, as for /_sandbox/sandboxes). An admin's
 * `?sandbox=` is what HAProxy routes by in a cluster (docs/cluster.md).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { responses } from '../../../schemas/common.js';
import { ReportQuery } from '../../../schemas/readiness.js';
import { ApiError } from '../../domain/errors.js';
import { DEFAULT_SANDBOX } from '../../domain/sandbox.js';
import { adminCheck } from '../../plugins/admin-key.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { providerOperations } from '../../readiness/collect.js';
import { createReporter } from '../../readiness/reporter.js';

export async function readinessRoutes(app: FastifyInstance): Promise<void> {
  const isAdmin = adminCheck(app.config.adminKey);
  const reporter =
    app.journal &&
    createReporter({
      db: app.db,
      store: app.store,
      journal: app.journal,
      operations: () => providerOperations(app.routeTable),
      log: app.log,
    });
  app.sandboxes.onRemoved((id) => reporter?.forget(id));
  app.addHook('onClose', async () => reporter?.close());

  /**
   * The partner and sandbox the report is of: an admin's `?sandbox=`, else the caller's own
   * (with `?sandbox=`, only when it names the caller's own sandbox).
   */
  function subject(request: FastifyRequest<{ Querystring: { sandbox?: string } }>): { partnerId: string; sandboxId: string } {
    const wanted = request.query.sandbox;
    const headers = request.headers;
    if (wanted !== undefined && app.config.environment !== 'production' && isAdmin(request)) {
      if (app.sandboxes.get(wanted)) return { partnerId: wanted, sandboxId: wanted };
      const configured = app.partners
        .list()
        .find((p) => p.clientId === wanted || (wanted === DEFAULT_SANDBOX && app.partners.isDefault(p.clientId)));
      if (configured) return { partnerId: configured.clientId, sandboxId: configured.clientId };
      throw new ApiError('sandbox_not_found');
    }
    if (wanted !== undefined && headers['x-partner-client-id'] === undefined) {
      if (app.config.environment === 'production') throw new ApiError('not_available_in_production');
      throw new ApiError('admin_key_required');
    }
    const partner = app.partners.authenticate(headers['x-partner-client-id'], headers['x-partner-client-secret']);
    const own = partner.sandboxId === DEFAULT_SANDBOX ? partner.clientId : partner.sandboxId;
    if (wanted !== undefined && wanted !== own) throw new ApiError('sandbox_not_found');
    return { partnerId: partner.clientId, sandboxId: own };
  }

  app.get<{ Querystring: { sandbox?: string } }>(
    '/report',
    {
      schema: {
        tags: ['sandbox'],
        security: [...partnerSecurity, { adminKey: [] }],
        operationId: 'getReadinessReport',
        summary: 'The go-live readiness report of a sandbox',
        description:
          "Computed from the sandbox's journal, webhook deliveries, check-receiver runs (POST /_sandbox/receiver-checks) and rows: operations called and the answers met, lifecycle states and events reached, smells with the journal entries that prove them, and the default go-live checklist with its verdict (docs/readiness.md). With partner credentials: the caller's sandbox. An admin names any sandbox with `sandbox` (a created sandbox's id, or a configured partner's client id; `default` is the default partner). 409 journal_off when the journal is off: there is nothing to judge.",
        querystring: ReportQuery,
        response: responses({ $ref: 'SandboxReadinessReport#' }),
      },
    },
    async (request) => {
      const { partnerId, sandboxId } = subject(request);
      if (!reporter) throw new ApiError('journal_off');
      return reporter.report(partnerId, sandboxId);
    },
  );
}
