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
import { traceHeaders } from '../../domain/trace-context.js';
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
        operationId: 'registerWebhook',
        summary: 'Register a webhook URL for a list of events',
        description:
          "Registers an http(s) URL for one or more events and answers its id and the signing secret (shown only here). Every delivery is a POST of the event JSON signed with X-Webhook-Signature (HMAC-SHA256 of the exact body bytes with the secret) and carries X-Webhook-Id; a delivery that does not get a 2xx within 10 seconds is failed and not retried (the contract's rule).",
        security: partnerSecurity,
        body: { $ref: 'CreateWebhookRequest#' },
        response: responses({ $ref: 'WebhookResponse#' }),
      },
    },
    async (request) => {
      const url = checkWebhookUrl(request.body.url, app.config.environment);
      const row = store.tx(() =>
        store.webhooks.insert(request.partner.clientId, url, request.body.events, request.sandbox.clock.iso(), request.contractVersion),
      );
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
          operationId: 'testWebhook',
          summary: 'Queue a signed test delivery (event webhook.test) to this webhook',
          description:
            'The contract shows neither the answer nor the payload. obsim queues one delivery of the event webhook.test to this webhook only (whatever events it subscribes to), signed like every delivery, and answers { webhookId, eventId, deliveryId, status: queued }; follow it with GET /_sandbox/deliveries/{deliveryId}.',
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
          // the test delivery continues the request's trace, like the deliveries a change causes
          return store.outbox.emitTest(partnerId, hook, testDeliveryEnvelope(hook.id, nowIso), traceHeaders(request.trace));
        });
        return { webhookId: request.params.id, eventId, deliveryId, status: 'queued' as const };
      },
    );
  });
}
