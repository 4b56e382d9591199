/**
 * POST /_sandbox/receiver-checks: the checks of `obsim check-receiver`, run from obsim against a
 * registered webhook with that webhook's own secret, and recorded: the readiness report's only
 * evidence that the partner's receiver verifies signatures (docs/readiness.md). GET lists the
 * runs recorded (the newest 20 are kept).
 */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import { ReceiverCheckBody } from '../../../schemas/readiness.js';
import { ApiError } from '../../domain/errors.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import type { ReceiverCheckRow } from '../../store/readiness.js';
import { checkReceiver, type ReceiverReport } from '../../webhooks/receiver-check.js';

interface RecordedRun extends ReceiverReport {
  webhookId: string;
}

/** A delivery with a forged or missing signature was acknowledged with 2xx. */
const forgedAccepted = (report: ReceiverReport) =>
  report.checks.some((c) => c.id.startsWith('signature.') && c.deliveries.some((d) => d.statusCode !== null && d.statusCode < 300));

const runView = (run: RecordedRun) => ({
  webhookId: run.webhookId,
  url: run.url,
  startedAt: run.startedAt,
  passed: run.passed,
  warned: run.warned,
  failed: run.failed,
  verdict: run.failed === 0 ? ('passed' as const) : ('failed' as const),
  forgedAccepted: forgedAccepted(run),
  checks: run.checks.map((c) => ({ id: c.id, title: c.title, status: c.status, reason: c.reason })),
  hints: run.hints,
});

export async function receiverCheckRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const common = { tags: ['sandbox'], security: partnerSecurity };

  app.post<{ Body: { webhookId?: string; timeoutMs?: number } | undefined }>(
    '/receiver-checks',
    {
      schema: {
        ...common,
        operationId: 'checkRegisteredReceiver',
        summary: 'Check a registered webhook receiver, and record the result for the readiness report',
        description:
          "Sends the checks of `obsim check-receiver` (a valid delivery of every event, a tampered body, a wrong secret, a missing and a truncated signature, a duplicate, out-of-order and unknown events) to the registered webhook's URL, signed with its own secret, one after another, and answers the result. The deliveries use fresh ids and are not in the delivery log. Default: the newest webhook. 404 webhook_not_found when none is registered.",
        body: ReceiverCheckBody,
        response: responses({ $ref: 'SandboxReceiverCheck#' }),
      },
    },
    async (request) => {
      const partnerId = request.partner.clientId;
      const { webhookId, timeoutMs } = request.body ?? {};
      const webhook = webhookId === undefined ? store.webhooks.list(partnerId).at(-1) : store.webhooks.get(webhookId, partnerId);
      if (!webhook)
        throw new ApiError('webhook_not_found', {
          message:
            webhookId === undefined
              ? 'No webhook is registered: register one with POST /v1/partner/webhooks'
              : `Webhook ${webhookId} not found`,
        });
      const report = await checkReceiver({ url: webhook.url, secret: webhook.secret, timeoutMs: timeoutMs ?? 10_000 });
      const run = runView({ ...report, webhookId: webhook.id });
      store.tx(() =>
        store.readiness.addReceiverCheck({
          partner_id: partnerId,
          webhook_id: webhook.id,
          url: webhook.url,
          passed: run.verdict === 'passed' ? 1 : 0,
          forged_accepted: run.forgedAccepted ? 1 : 0,
          checked_at: report.startedAt,
          report: JSON.stringify(run),
        }),
      );
      return run;
    },
  );

  app.get(
    '/receiver-checks',
    {
      schema: {
        ...common,
        operationId: 'listReceiverChecks',
        summary: 'The check-receiver runs recorded for the readiness report, newest first',
        description:
          "The runs of POST /_sandbox/receiver-checks against this sandbox's webhooks, newest first; the newest 20 are kept. They outlive a reset and a snapshot restore (like the journal) and go with the sandbox.",
        response: responses({
          type: 'object',
          required: ['items'],
          additionalProperties: false,
          properties: { items: { type: 'array', items: { $ref: 'SandboxReceiverCheck#' } } },
        }),
      },
    },
    async (request) => ({
      items: store.readiness
        .receiverChecks(request.partner.clientId)
        .reverse()
        .map((row: ReceiverCheckRow) => JSON.parse(row.report) as unknown),
    }),
  );
}
