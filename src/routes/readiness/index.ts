/**
 * GET /_sandbox/report: the sandbox's go-live readiness report (docs/readiness.md). The caller's
 * own sandbox with its partner credentials; any sandbox with `?sandbox=` for an admin (the
 * X-Obsim-Admin-Key, or anyone on a server without one, as for /_sandbox/sandboxes). An admin's
 * `?sandbox=` is what HAProxy routes by in a cluster (docs/cluster.md).
 */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import { ReportQuery } from '../../../schemas/readiness.js';
import { ApiError } from '../../domain/errors.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { sandboxSubject } from '../subject.js';

export async function readinessRoutes(app: FastifyInstance): Promise<void> {
  const reporter = app.reports;

  const subject = sandboxSubject(app);

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
