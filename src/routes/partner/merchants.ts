/** Merchant endpoints of the partner API: creation (standard, fast-track, test), reads, links, stores. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { responses } from '../../../schemas/common.js';
import {
  MerchantIdParams,
  MerchantListQuery,
  type CreateMerchantBody,
  type FastTrackMerchantBody,
  type FastTrackMerchantResponseT,
  type MerchantIdParamsT,
  type MerchantListQueryT,
  type MerchantListT,
  type OnboardingStatusResponseT,
  type ResendOnboardingResponseT,
  type StandardMerchantResponseT,
  type TestMerchantBody,
  type TestMerchantResponseT,
} from '../../../schemas/partner.js';
import type { CreateStoreBody, StoreResponseT } from '../../../schemas/partner-payments.js';
import { ApiError } from '../../domain/errors.js';
import { normalizeIban } from '../../domain/iban.js';
import { fastTrackFailure } from '../../domain/magic.js';
import {
  assertActivated,
  assertOnboardingOpen,
  newMerchant,
  newOnboardingLink,
  reportedStatus,
  type MerchantCreation,
} from '../../domain/merchant.js';
import { checkDatesOfBirth, checkIban, checkSoleTrader } from '../../domain/partner-input.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { causeOf, operationOf } from '../../plugins/tracing.js';
import type { MerchantRow } from '../../domain/merchant.js';
import { tolerateEmptyJsonBody } from './no-body.js';
import { merchantSummaryView, onboardingStatusView, onboardingUrl, storeView, TEST_MERCHANT_MESSAGE } from './views.js';

export async function merchantRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app;

  /** Insert + the engine's creation hook (transition, events, timers), one transaction. */
  const create = (request: FastifyRequest, creation: MerchantCreation): MerchantRow =>
    store.tx(() => {
      const sandbox = request.sandbox;
      const row = store.merchants.insert(newMerchant(request.partner.clientId, creation), sandbox.clock.iso());
      sandbox.onMerchantCreated(row, causeOf(request, 'request', operationOf(request)));
      return row;
    });

  /** The caller's merchant, or 404 merchant_not_found (another partner's id looks the same as none). */
  const ownMerchant = (merchantId: number, partnerId: string): MerchantRow => {
    const row = store.merchants.get(merchantId, partnerId);
    if (!row) throw new ApiError('merchant_not_found', { message: `Merchant ${merchantId} not found` });
    return row;
  };

  app.post<{ Body: CreateMerchantBody; Reply: StandardMerchantResponseT }>(
    '/merchants',
    {
      schema: {
        tags: ['partner'],
        operationId: 'createMerchant',
        summary: 'Create a merchant (standard onboarding)',
        description:
          'Creates a merchant in pending_onboarding with a hosted onboarding link (onboardingUrl) that the merchant completes; merchant.onboarding.completed and then merchant.activated follow as it is reviewed (on the sandbox clock, or at once with the sandbox controls). The link expires; POST …/resend-onboarding issues a new one.',
        security: partnerSecurity,
        body: { $ref: 'CreateMerchantRequest#' },
        response: responses({ $ref: 'StandardMerchantResponse#' }),
      },
    },
    async (request) => {
      const link = newOnboardingLink(request.sandbox.clock.nowMs());
      const row = create(request, { kind: 'standard', contact: request.body, link });
      return {
        merchantId: row.id,
        clientId: row.client_id,
        companyName: row.company_name,
        contactEmail: row.contact_email!,
        onboardingUrl: onboardingUrl(app.publicUrl, link.token),
        onboardingToken: link.token,
        status: 'pending_onboarding' as const,
        expiresAt: link.expiresAt,
      };
    },
  );

  app.post<{ Body: FastTrackMerchantBody; Reply: FastTrackMerchantResponseT }>(
    '/merchants/fast-track',
    {
      schema: {
        tags: ['partner'],
        operationId: 'createFastTrackMerchant',
        summary: 'Create a merchant with full company data (fast-track)',
        description:
          'Sub-TPP creation failure is not an HTTP error: the answer is 200 with status pending_onboarding, subTppStatus failed and subTppMessage. Sandbox: registrationNumber 00000000 or 99999999 forces that branch.',
        security: partnerSecurity,
        body: { $ref: 'FastTrackMerchantRequest#' },
        response: responses({ $ref: 'FastTrackMerchantResponse#' }),
      },
    },
    async (request) => {
      const body = request.body;
      checkIban(body.iban);
      checkSoleTrader(body);
      checkDatesOfBirth(body, request.sandbox.clock.iso());
      const failure = fastTrackFailure(body);
      const link = newOnboardingLink(request.sandbox.clock.nowMs());
      const { companyName, contactEmail, contactPhone, partnerRefId, ...rest } = body;
      const details = { fastTrack: { ...rest, iban: normalizeIban(body.iban) } };
      const contact = { companyName, contactEmail, contactPhone, partnerRefId };
      const row = create(request, { kind: 'fast_track', contact, link, details, failure });
      return {
        merchantId: row.id,
        clientId: row.client_id,
        companyName: row.company_name,
        contactEmail: row.contact_email!,
        ...(failure ? {} : { subTppId: row.sub_tpp_id! }),
        subTppStatus: failure ? ('failed' as const) : ('created' as const),
        subTppMessage: row.sub_tpp_message,
        onboardingUrl: onboardingUrl(app.publicUrl, link.token),
        onboardingToken: link.token,
        status: failure ? ('pending_onboarding' as const) : ('pending_partner_ais' as const),
        expiresAt: link.expiresAt,
      };
    },
  );

  app.post<{ Body: TestMerchantBody; Reply: TestMerchantResponseT }>(
    '/merchants/test',
    {
      schema: {
        tags: ['partner'],
        operationId: 'createTestMerchant',
        summary: 'Create an activated test merchant (sandbox only)',
        description:
          'Answers 404 not_available_in_production on production. The merchant can take payments at once; merchant.activated is sent to subscribed webhooks.',
        security: partnerSecurity,
        body: { $ref: 'TestMerchantRequest#' },
        response: responses({ $ref: 'TestMerchantResponse#' }),
      },
      onRequest: async () => {
        if (app.config.environment === 'production') throw new ApiError('not_available_in_production');
      },
    },
    async (request) => {
      const row = create(request, { kind: 'test', companyName: request.body.companyName });
      return {
        merchantId: row.id,
        clientId: row.client_id,
        companyName: row.company_name,
        status: 'activated' as const,
        message: TEST_MERCHANT_MESSAGE,
      };
    },
  );

  app.get<{ Params: MerchantIdParamsT; Reply: OnboardingStatusResponseT }>(
    '/merchants/:merchantId/onboarding-status',
    {
      schema: {
        tags: ['partner'],
        operationId: 'getMerchantOnboardingStatus',
        summary: "A merchant's onboarding status",
        description:
          "The merchant's onboarding status and its sub-TPP (the provider's record of the merchant at the bank) with whether it is activated. Another partner's merchant answers 404 merchant_not_found, like a missing one.",
        security: partnerSecurity,
        params: MerchantIdParams,
        response: responses({ $ref: 'OnboardingStatusResponse#' }),
      },
    },
    async (request) => {
      const row = store.merchants.getStatus(request.params.merchantId, request.partner.clientId);
      if (!row) throw new ApiError('merchant_not_found', { message: `Merchant ${request.params.merchantId} not found` });
      return onboardingStatusView(row);
    },
  );

  app.get<{ Querystring: MerchantListQueryT; Reply: MerchantListT }>(
    '/merchants',
    {
      schema: {
        tags: ['partner'],
        operationId: 'listMerchants',
        summary: "List the partner's merchants (paginated, by merchantId)",
        description:
          "The partner's merchants in ascending merchantId order, page by page (page from 1, limit 1-100, default 20), with the total count in the body. The order is stable, so a merchant created while paging appears on the last page.",
        security: partnerSecurity,
        querystring: MerchantListQuery,
        response: responses({ $ref: 'MerchantList#' }),
      },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const limit = request.query.limit ?? 20;
      const { rows, total } = store.merchants.page(request.partner.clientId, page, limit);
      return { items: rows.map(merchantSummaryView), page, limit, total };
    },
  );

  // no body (contract); an empty JSON body is fine too
  await app.register(async (scope) => {
    tolerateEmptyJsonBody(scope);
    scope.post<{ Params: MerchantIdParamsT; Reply: ResendOnboardingResponseT }>(
      '/merchants/:merchantId/resend-onboarding',
      {
        schema: {
          tags: ['partner'],
          operationId: 'resendMerchantOnboarding',
          summary: 'Issue a new onboarding link (the previous one stops working)',
          description: '409 onboarding_closed once the merchant has left the onboarding states (pending_onboarding, pending_completion).',
          security: partnerSecurity,
          params: MerchantIdParams,
          response: responses({ $ref: 'ResendOnboardingResponse#' }),
        },
      },
      async (request) => {
        const partnerId = request.partner.clientId;
        const row = store.tx(() => {
          const current = ownMerchant(request.params.merchantId, partnerId);
          assertOnboardingOpen(current);
          const link = newOnboardingLink(request.sandbox.clock.nowMs());
          return store.merchants.setOnboardingToken(current.id, link.token, link.expiresAt, request.sandbox.clock.iso());
        });
        return {
          merchantId: row.id,
          onboardingUrl: onboardingUrl(app.publicUrl, row.onboarding_token!),
          onboardingToken: row.onboarding_token!,
          expiresAt: row.onboarding_expires_at!,
          status: reportedStatus(row.status) as 'pending_onboarding' | 'pending_completion',
        };
      },
    );
  });

  app.post<{ Params: MerchantIdParamsT; Body: CreateStoreBody; Reply: StoreResponseT }>(
    '/merchants/:merchantId/stores',
    {
      schema: {
        tags: ['partner'],
        operationId: 'createMerchantStore',
        summary: 'Add a store (point of sale) to an activated merchant',
        description: "Not shown in the contract; obsim's design. 409 merchant_not_activated unless the merchant is activated.",
        security: partnerSecurity,
        params: MerchantIdParams,
        body: { $ref: 'CreateStoreRequest#' },
        response: responses({ $ref: 'StoreResponse#' }),
      },
    },
    async (request) => {
      const partnerId = request.partner.clientId;
      const { name, address, mccCode, partnerRefId } = request.body;
      const row = store.tx(() => {
        const merchant = ownMerchant(request.params.merchantId, partnerId);
        assertActivated(merchant, 'stores');
        const details = Object.fromEntries(Object.entries({ address, mccCode, partnerRefId }).filter(([, v]) => v !== undefined));
        return store.stores.insert(partnerId, merchant.id, name, details, request.sandbox.clock.iso());
      });
      return storeView(row);
    },
  );
}
