/**
 * The built-in Pact provider states (docs/pact.md): the provider's resources in every state the
 * document names, each built as scenario steps (the partner API and the sandbox controls, run by
 * the scenario runner in the caller's sandbox), so a state is made the way a partner's requests
 * and a tester's control calls would make it: with its journal entries, events, webhooks and
 * transitions, on the sandbox's clock. The partner API's states are in ./states-partner.ts, the
 * account information states in ./states-ais.ts; here the small ones and the list.
 */
import { EVENT_NAMES } from '../domain/machine.js';
import { checkWebhookUrl } from '../domain/partner-input.js';
import { CreateWebhookRequest } from '../../schemas/partner-payments.js';
import type { ProviderStateDefinition } from './state-definition.js';
import { aBankUser, aConsent } from './states-ais.js';
import { aMerchant, aPayment } from './states-partner.js';

const aWebhook: ProviderStateDefinition = {
  name: 'a webhook',
  description: 'A webhook registration of the partner (POST /v1/partner/webhooks), for the events asked for.',
  params: {
    url: { type: 'string', default: 'https://partner.example.test/webhooks', description: 'Where it delivers' },
    events: {
      type: 'array',
      items: { type: 'string', enum: EVENT_NAMES },
      default: ['payment.completed', 'payment.failed'],
      description: 'The event names it is registered for',
    },
  },
  fields: {
    url: { schema: CreateWebhookRequest.properties.url, rule: (url) => checkWebhookUrl(String(url), 'sandbox') },
    events: { schema: CreateWebhookRequest.properties.events },
  },
  answers: { webhookId: 'its id', url: 'its URL' },
  source: 'built-in',
  plan(params) {
    return {
      steps: [
        {
          request: {
            method: 'POST',
            path: '/v1/partner/webhooks',
            body: { url: params.url, events: params.events },
            capture: { 'webhook.id': 'id' },
          },
        },
      ],
      answers: (vars) => ({ webhookId: vars['webhook.id'], url: params.url }),
    };
  },
};

const noData: ProviderStateDefinition = {
  name: 'no data',
  description: 'The sandbox emptied (POST /_sandbox/reset): only its default merchant, as when it was created.',
  params: {},
  answers: {},
  source: 'built-in',
  plan: () => ({ steps: [{ control: { reset: true } }], answers: () => ({}) }),
};

export const BUILT_IN_STATES: readonly ProviderStateDefinition[] = [aMerchant, aPayment, aWebhook, aConsent, aBankUser, noData];
