/**
 * The read side of the control API: the sandbox's overview, its merchants, payments, consents
 * and webhooks with the actions legal from each one's state. Lists are newest first with an id
 * cursor. The web console shows these answers and nothing else.
 */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import { MerchantIdParams, type MerchantIdParamsT } from '../../../schemas/partner.js';
import { PaymentIdParams, type PaymentIdParamsT } from '../../../schemas/partner-payments.js';
import {
  SandboxConsentQuery,
  SandboxMerchantQuery,
  SandboxPaymentQuery,
  type SandboxConsentQueryT,
  type SandboxMerchantQueryT,
  type SandboxPaymentQueryT,
} from '../../../schemas/sandbox-reads.js';
import { DELIVERY_OUTCOMES, DELIVERY_STATES } from '../../../schemas/sandbox.js';
import { CONSENT_STATUSES } from '../../domain/consent.js';
import { consentActions, merchantActions, paymentActions } from '../../domain/controls.js';
import { ApiError } from '../../domain/errors.js';
import { MERCHANT_STATUSES, ONBOARDING_OPEN_STATES, REPORTED_MERCHANT_STATUSES, reportedStatus } from '../../domain/merchant.js';
import { PAYMENT_STATUSES } from '../../domain/payment.js';
import { DEFAULT_SANDBOX } from '../../domain/sandbox.js';
import { paymentTimeline } from '../../domain/timeline.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { transitionView } from '../../store/transitions.js';
import { consentView } from '../ais/consents.js';
import { merchantSummaryView, onboardingUrl, paymentView, storeView } from '../partner/views.js';
import { clockView } from './clock.js';

/** Every key of `keys` with its count (0 when the query found none). */
function counts<K extends string>(keys: readonly K[], rows: Iterable<{ key: string | null; n: number }>): Record<K, number> {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const { key, n } of rows) if (key !== null && key in out) out[key as K] += n;
  return out;
}

/** The next page's cursor: the last id, when the page came back full. */
const nextCursor = (ids: number[], limit: number) => (ids.length === limit ? String(ids[ids.length - 1]) : null);
const before = (cursor: string | undefined) => (cursor === undefined ? undefined : Number(cursor));

export async function resourceRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const common = { tags: ['sandbox'], security: partnerSecurity };

  app.get(
    '/overview',
    {
      schema: {
        ...common,
        operationId: 'getSandboxOverview',
        summary: "The caller's sandbox at a glance: environment, clock and counts",
        description:
          'Counts merchants by status, payments by status, consents by status and deliveries by state and outcome. Counting reads every payment of the sandbox: this is a dashboard read, not one for a hot loop.',
        response: responses({ $ref: 'SandboxOverview#' }),
      },
    },
    async (request) => {
      const partnerId = request.partner.clientId;
      const deliveries = store.deliveries.countByOutcome(partnerId);
      return {
        environment: app.config.environment,
        partnerId,
        sandboxId: request.partner.sandboxId === DEFAULT_SANDBOX ? null : request.partner.sandboxId,
        clock: clockView(request.sandbox),
        ...(request.sandbox.contractVersion === undefined ? {} : { contractVersion: request.sandbox.contractVersion }),
        merchants: counts(
          REPORTED_MERCHANT_STATUSES,
          store.merchants.countByStatus(partnerId).map((r) => ({ key: reportedStatus(r.status), n: r.n })),
        ),
        payments: counts(
          PAYMENT_STATUSES,
          store.payments.countByStatus(partnerId).map((r) => ({ key: r.status, n: r.n })),
        ),
        consents: counts(
          CONSENT_STATUSES,
          store.consents.countByStatus(partnerId).map((r) => ({ key: r.status, n: r.n })),
        ),
        deliveries: {
          byState: counts(
            DELIVERY_STATES,
            deliveries.map((r) => ({ key: r.state, n: r.n })),
          ),
          byOutcome: counts(
            DELIVERY_OUTCOMES,
            deliveries.map((r) => ({ key: r.outcome, n: r.n })),
          ),
        },
        webhooks: store.webhooks.list(partnerId).length,
      };
    },
  );

  app.get<{ Querystring: SandboxMerchantQueryT }>(
    '/merchants',
    {
      schema: {
        ...common,
        operationId: 'listSandboxMerchants',
        summary: 'List merchants, newest first, with the control actions legal for each',
        description:
          'Filters: status (the reported status; pending_completion includes pending_partner_ais), q (part of the company name or partnerRefId, case-insensitive). limit 1-200, default 50; cursor from nextCursor.',
        querystring: SandboxMerchantQuery,
        response: responses({ $ref: 'SandboxMerchantList#' }),
      },
    },
    async (request) => {
      const { status, q, cursor } = request.query;
      const limit = request.query.limit ?? 50;
      const statuses = status === undefined ? undefined : MERCHANT_STATUSES.filter((s) => reportedStatus(s) === status);
      const rows = store.merchants.search(request.partner.clientId, { statuses, q, before: before(cursor), limit });
      return {
        items: rows.map((row) => ({ merchant: merchantSummaryView(row), state: row.status, actions: merchantActions(row.status) })),
        nextCursor: nextCursor(
          rows.map((r) => r.id),
          limit,
        ),
      };
    },
  );

  app.get<{ Params: MerchantIdParamsT }>(
    '/merchants/:merchantId',
    {
      schema: {
        ...common,
        operationId: 'getSandboxMerchant',
        summary: 'Read a merchant: its fields, onboarding link, stores, state and legal actions',
        description:
          "Everything obsim keeps about one of the caller's merchants, including what the provider API does not show again (the onboarding link and its expiry, its stores) and the control actions that are legal in its state. 404 merchant_not_found for another partner's merchant.",
        params: MerchantIdParams,
        response: responses({ $ref: 'SandboxMerchant#' }),
      },
    },
    async (request) => {
      const row = store.merchants.get(request.params.merchantId, request.partner.clientId);
      if (!row) throw new ApiError('merchant_not_found', { message: `Merchant ${request.params.merchantId} not found` });
      const open = ONBOARDING_OPEN_STATES.includes(row.status) && row.onboarding_token !== null;
      return {
        merchant: merchantSummaryView(row),
        state: row.status,
        states: [...MERCHANT_STATUSES],
        actions: merchantActions(row.status),
        onboardingUrl: open ? onboardingUrl(app.publicUrl, row.onboarding_token!) : null,
        onboardingExpiresAt: open ? row.onboarding_expires_at : null,
        stores: store.stores.listForMerchant(row.id, request.partner.clientId).map(storeView),
      };
    },
  );

  app.get<{ Querystring: SandboxPaymentQueryT }>(
    '/payments',
    {
      schema: {
        ...common,
        operationId: 'listSandboxPayments',
        summary: 'List payments, newest first, with the control actions legal for each',
        description: 'Filters: status, referenceNumber (exact). limit 1-200, default 50; cursor from nextCursor.',
        querystring: SandboxPaymentQuery,
        response: responses({ $ref: 'SandboxPaymentList#' }),
      },
    },
    async (request) => {
      const { status, referenceNumber, cursor } = request.query;
      const limit = request.query.limit ?? 50;
      const rows = store.payments.list(request.partner.clientId, { status, reference: referenceNumber, before: before(cursor), limit });
      return {
        items: rows.map((row) => ({ payment: paymentView(app, row), actions: paymentActions(row.status) })),
        nextCursor: nextCursor(
          rows.map((r) => r.id),
          limit,
        ),
      };
    },
  );

  app.get<{ Params: PaymentIdParamsT }>(
    '/payments/:paymentId',
    {
      schema: {
        ...common,
        operationId: 'getSandboxPayment',
        summary: 'Read a payment with its timeline (states, events and their deliveries) and legal actions',
        description:
          "One payment with its timeline (every state it went through with what caused it, every event it produced and the deliveries of each, in order) and the control actions legal in its state. 404 payment_not_found for another partner's payment.",
        params: PaymentIdParams,
        response: responses({ $ref: 'SandboxPayment#' }),
      },
    },
    async (request) => {
      const partnerId = request.partner.clientId;
      const row = store.payments.get(request.params.paymentId, partnerId);
      if (!row) throw new ApiError('payment_not_found', { message: `Payment ${request.params.paymentId} not found` });
      const transitions = store.transitions.ofResource(partnerId, 'payment', row.id).map(transitionView);
      const timeline = paymentTimeline(
        row,
        transitions,
        (at) => store.outbox.paymentEvents(partnerId, row.id, at),
        (eventId) =>
          store.deliveries
            .forEvent(eventId, partnerId)
            .map((d) => ({ id: d.id, state: d.state, outcome: d.outcome, statusCode: d.status_code })),
      );
      return { payment: paymentView(app, row), actions: paymentActions(row.status), timeline };
    },
  );

  app.get<{ Querystring: SandboxConsentQueryT }>(
    '/consents',
    {
      schema: {
        ...common,
        operationId: 'listSandboxConsents',
        summary: "List consents of the caller's merchants, newest first, with the control actions legal for each",
        description: 'Filters: userId (the bank user), status. limit 1-200, default 50; cursor from nextCursor.',
        querystring: SandboxConsentQuery,
        response: responses({ $ref: 'SandboxConsentList#' }),
      },
    },
    async (request) => {
      const { userId, status, cursor } = request.query;
      const limit = request.query.limit ?? 50;
      const rows = store.consents.listForPartner(request.partner.clientId, { userId, status, before: before(cursor), limit });
      return {
        items: rows.map((row) => ({ consent: consentView(row, app.publicUrl), actions: consentActions(row.status) })),
        nextCursor: nextCursor(
          rows.map((r) => r.id),
          limit,
        ),
      };
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        ...common,
        operationId: 'listSandboxWebhooks',
        summary: 'List registered webhooks with their signing secrets',
        description:
          "The caller's registered webhooks with the secret each delivery is signed with (HMAC-SHA256 over the exact body bytes), so a test can verify X-Webhook-Signature. The provider API shows the secret only when a webhook is registered.",
        response: responses({ $ref: 'SandboxWebhookList#' }),
      },
    },
    async (request) => ({
      items: store.webhooks.list(request.partner.clientId).map((w) => ({
        id: w.id,
        url: w.url,
        events: JSON.parse(w.events) as string[],
        secret: w.secret,
        createdAt: w.created_at,
      })),
    }),
  );
}
