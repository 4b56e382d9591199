/** Webhook registration endpoints of the partner API. */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import {
  WebhookIdParams,
  type CreateWebhookBody,
  type WebhookIdParamsT,
  type WebhookResponseT,
  type WebhookTestResponseT,
} from '../../../schemas/partner-payments.js';
import { ApiError } from '../../domain/errors.js';
import { testDeliveryEnvelope } from '../../domain/events.js';
import { checkWebhookUrl } from '../../domain/partner-input.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { tolerateEmptyJsonBody } from './no-body.js';

export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.post<{ Body: CreateWebhookBody; Reply: WebhookResponseT }>(
    '/webhooks',
    {
      schema: {
        tags: ['partner'],
        summary: 'Register a webhook URL for a list of events',
        security: partnerSecurity,
        body: { $ref: 'CreateWebhookRequest#' },
        response: responses({ $ref: 'WebhookResponse#' }),
      },
    },
    async (request) => {
      const url = checkWebhookUrl(request.body.url, app.config.environment);
      const row = store.tx(() => store.webhooks.insert(request.partner.clientId, url, request.body.events, request.sandbox.clock.iso()));
      return {
        id: row.id,
        url: row.url,
        events: JSON.parse(row.events) as CreateWebhookBody['events'],
        secret: row.secret,
        createdAt: row.created_at,
      };
    },
  );

  // no body (contract); an empty JSON body is fine too
  await app.register(async (scope) => {
    tolerateEmptyJsonBody(scope);
    scope.post<{ Params: WebhookIdParamsT; Reply: WebhookTestResponseT }>(
      '/webhooks/:id/test',
      {
        schema: {
          tags: ['partner'],
          summary: 'Queue a signed test delivery (event webhook.test) to this webhook',
          security: partnerSecurity,
          params: WebhookIdParams,
          response: responses({ $ref: 'WebhookTestResponse#' }),
        },
      },
      async (request) => {
        const partnerId = request.partner.clientId;
        const nowIso = request.sandbox.clock.iso();
        const { eventId, deliveryId } = store.tx(() => {
          const hook = store.webhooks.get(request.params.id, partnerId);
          if (!hook) throw new ApiError('webhook_not_found', { message: `Webhook ${request.params.id} not found` });
          return store.outbox.emitTest(partnerId, hook, testDeliveryEnvelope(hook.id, nowIso));
        });
        return { webhookId: request.params.id, eventId, deliveryId, status: 'queued' as const };
      },
    );
  });
}
