/**
 * GET /_sandbox/scenario-draft: what a sandbox's journal and delivery log saw, as a scenario
 * file that replays it (docs/scenarios-and-cli.md, "Recording a session"). The caller's own
 * sandbox, or an admin's `?sandbox=`, as for the readiness report.
 */
import type { FastifyInstance } from 'fastify';
import { commonResponseHeaders, errorResponses } from '../../../schemas/common.js';
import { ScenarioDraftQuery } from '../../../schemas/recording.js';
import { ApiError } from '../../domain/errors.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { recordDraft } from '../../recording/draft.js';
import { sandboxSubject } from '../subject.js';

interface Query {
  sandbox?: string;
  since?: string;
  until?: string;
  name?: string;
  format?: 'yaml' | 'json';
}

export async function recordingRoutes(app: FastifyInstance): Promise<void> {
  const subject = sandboxSubject(app);
  app.get<{ Querystring: Query }>(
    '/scenario-draft',
    {
      schema: {
        tags: ['sandbox'],
        security: [...partnerSecurity, { adminKey: [] }],
        operationId: 'getScenarioDraft',
        summary: "A sandbox's journal as a scenario file that replays it",
        description:
          "Each partner request becomes a `request` step with the body it sent and the status it got; ids, tokens and links obsim handed out become captured variables; clock advances, sandbox triggers, fault profiles and webhook registrations become their own steps; each delivery an `expectWebhook`. No secret is written; times and generated ids are not asserted. `since`/`until` take a journal entry id or an ISO instant on the sandbox clock. An empty range, or a journal that had dropped entries, is said in the file's comments and in `warnings` (format=json). Not recorded in the journal. 409 journal_off when the journal is off.",
        querystring: ScenarioDraftQuery,
        produces: ['application/yaml', 'application/json'],
        response: {
          ...errorResponses,
          200: {
            description: 'The scenario file (format=yaml), or it with what was recorded (format=json)',
            headers: commonResponseHeaders,
            content: {
              'application/yaml': {
                schema: { type: 'string', description: 'A scenario file (scenarios/scenario.schema.json), with comments' },
              },
              'application/json': { schema: { $ref: 'SandboxScenarioDraft#' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { partnerId, sandboxId } = subject(request);
      if (!app.journal) throw new ApiError('journal_off');
      const { since, until, name } = request.query;
      const draft = recordDraft({ journal: app.journal, store: app.store }, partnerId, sandboxId, { since, until, name });
      if (request.query.format === 'json') {
        return reply.type('application/json').send({
          yaml: draft.yaml,
          steps: draft.scenario?.steps.length ?? 0,
          warnings: draft.warnings,
          entries: draft.entries,
          deliveries: draft.deliveries,
        });
      }
      return reply.type('application/yaml; charset=utf-8').send(draft.yaml);
    },
  );
}
