/** Merchant endpoints of the partner API: creation (standard, fast-track, test), reads, links, stores. */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import {
  MerchantIdParams,
  MerchantListQuery,
  type CreateMerchantBody,
  type CreateStoreBody,
  type FastTrackMerchantBody,
  type FastTrackMerchantResponseT,
  type MerchantIdParamsT,
  type MerchantListQueryT,
  type MerchantListT,
  type OnboardingStatusResponseT,
  type ResendOnboardingResponseT,
  type StandardMerchantResponseT,
  type StoreResponseT,
  type TestMerchantBody,
  type TestMerchantResponseT,
} from '../../../schemas/partner.js';
import { ApiError } from '../../domain/errors.js';
import { normalizeIban } from '../../domain/iban.js';
import { ONBOARDING_OPEN_STATES } from '../../domain/merchant.js';
import { fastTrackFailure } from '../../domain/merchant-magic.js';
import { checkDatesOfBirth, checkIban, checkSoleTrader } from '../../domain/partner-input.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { newOnboardingToken, newSubTppId, ONBOARDING_LINK_TTL_MS, type MerchantRow, type NewMerchant } from '../../store/merchants.js';
import { creationHooks } from './engine-hooks.js';
import { tolerateEmptyJsonBody } from './no-body.js';
import { merchantSummaryView, onboardingStatusView, onboardingUrl, storeView } from './views.js';

export const TEST_MERCHANT_MESSAGE = 'Test merchant created and activated: it can accept payments at once (sandbox only).';

export async function merchantRoutes(app: FastifyInstance): Promise<void> {
  const { store, clock } = app;

  /** Insert + engine creation hook, one transaction. */
  const create = (m: NewMerchant, nowIso: string): MerchantRow =>
    store.tx(() => {
      const row = store.merchants.insert(m, nowIso);
      creationHooks(app).onMerchantCreated?.(row);
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
        summary: 'Create a merchant (standard onboarding)',
        security: partnerSecurity,
        body: { $ref: 'CreateMerchantRequest#' },
        response: responses({ $ref: 'StandardMerchantResponse#' }),
      },
    },
    async (request) => {
      const now = clock.nowMs();
      const token = newOnboardingToken();
      const row = create(
        {
          partner_id: request.partner.clientId,
          kind: 'standard',
          status: 'pending_onboarding',
          company_name: request.body.companyName,
          contact_email: request.body.contactEmail,
          contact_phone: request.body.contactPhone ?? null,
          partner_ref_id: request.body.partnerRefId ?? null,
          details: '{}',
          sub_tpp_id: newSubTppId(),
          sub_tpp_status: null,
          sub_tpp_message: null,
          onboarding_token: token,
          onboarding_expires_at: new Date(now + ONBOARDING_LINK_TTL_MS).toISOString(),
        },
        new Date(now).toISOString(),
      );
      return {
        merchantId: row.id,
        clientId: row.client_id,
        companyName: row.company_name,
        contactEmail: row.contact_email!,
        onboardingUrl: onboardingUrl(app.publicUrl, token),
        onboardingToken: token,
        status: 'pending_onboarding' as const,
        expiresAt: row.onboarding_expires_at!,
      };
    },
  );

  app.post<{ Body: FastTrackMerchantBody; Reply: FastTrackMerchantResponseT }>(
    '/merchants/fast-track',
    {
      schema: {
        tags: ['partner'],
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
      checkDatesOfBirth(body, clock.iso());
      const failure = fastTrackFailure(body);
      const now = clock.nowMs();
      const token = newOnboardingToken();
      const { companyName, contactEmail, contactPhone, partnerRefId, ...rest } = body;
      const details = { fastTrack: { ...rest, iban: normalizeIban(body.iban) } };
      const row = create(
        {
          partner_id: request.partner.clientId,
          kind: 'fast_track',
          status: failure ? 'pending_onboarding' : 'pending_completion',
          company_name: companyName,
          contact_email: contactEmail,
          contact_phone: contactPhone ?? null,
          partner_ref_id: partnerRefId ?? null,
          details: JSON.stringify(details),
          sub_tpp_id: newSubTppId(),
          sub_tpp_status: failure ? 'failed' : 'created',
          sub_tpp_message: failure ? failure.subTppMessage : null,
          onboarding_token: token,
          onboarding_expires_at: new Date(now + ONBOARDING_LINK_TTL_MS).toISOString(),
        },
        new Date(now).toISOString(),
      );
      return {
        merchantId: row.id,
        clientId: row.client_id,
        companyName: row.company_name,
        contactEmail: row.contact_email!,
        subTppId: failure ? null : row.sub_tpp_id,
        subTppStatus: failure ? ('failed' as const) : ('created' as const),
        subTppMessage: row.sub_tpp_message,
        onboardingUrl: onboardingUrl(app.publicUrl, token),
        onboardingToken: token,
        status: failure ? ('pending_onboarding' as const) : ('pending_partner_ais' as const),
        expiresAt: row.onboarding_expires_at!,
      };
    },
  );

  app.post<{ Body: TestMerchantBody; Reply: TestMerchantResponseT }>(
    '/merchants/test',
    {
      schema: {
        tags: ['partner'],
        summary: 'Create an activated test merchant (sandbox only)',
        description: 'Answers 404 not_available_in_production on production. The merchant can take payments at once; merchant.activated is sent to subscribed webhooks.',
        security: partnerSecurity,
        body: { $ref: 'TestMerchantRequest#' },
        response: responses({ $ref: 'TestMerchantResponse#' }),
      },
      onRequest: async () => {
        if (app.config.environment === 'production') throw new ApiError('not_available_in_production');
      },
    },
    async (request) => {
      const nowIso = clock.iso();
      const row = create(
        {
          partner_id: request.partner.clientId,
          kind: 'test',
          status: 'activated',
          company_name: request.body.companyName,
          contact_email: null,
          contact_phone: null,
          partner_ref_id: null,
          details: '{}',
          sub_tpp_id: newSubTppId(),
          sub_tpp_status: 'created',
          sub_tpp_message: null,
          onboarding_token: null,
          onboarding_expires_at: null,
        },
        nowIso,
      );
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
        summary: "A merchant's onboarding status",
        security: partnerSecurity,
        params: MerchantIdParams,
        response: responses({ $ref: 'OnboardingStatusResponse#' }),
      },
    },
    async (request) => onboardingStatusView(ownMerchant(request.params.merchantId, request.partner.clientId)),
  );

  app.get<{ Querystring: MerchantListQueryT; Reply: MerchantListT }>(
    '/merchants',
    {
      schema: {
        tags: ['partner'],
        summary: "List the partner's merchants (paginated, by merchantId)",
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
          summary: 'Issue a new onboarding link (the previous one stops working)',
          description: '409 onboarding_closed once the merchant has left the onboarding states (pending_onboarding, pending_completion).',
          security: partnerSecurity,
          params: MerchantIdParams,
          response: responses({ $ref: 'ResendOnboardingResponse#' }),
        },
      },
      async (request) => {
        const partnerId = request.partner.clientId;
        const now = clock.nowMs();
        const row = store.tx(() => {
          const current = ownMerchant(request.params.merchantId, partnerId);
          if (!ONBOARDING_OPEN_STATES.includes(current.status)) {
            throw new ApiError('onboarding_closed', {
              message: `Merchant ${current.id} is ${current.status}; onboarding links exist only while pending_onboarding or pending_completion`,
            });
          }
          return store.merchants.setOnboardingToken(
            current.id,
            newOnboardingToken(),
            new Date(now + ONBOARDING_LINK_TTL_MS).toISOString(),
            new Date(now).toISOString(),
          );
        });
        return {
          merchantId: row.id,
          onboardingUrl: onboardingUrl(app.publicUrl, row.onboarding_token!),
          onboardingToken: row.onboarding_token!,
          expiresAt: row.onboarding_expires_at!,
          status: row.status === 'pending_onboarding' ? ('pending_onboarding' as const) : ('pending_completion' as const),
        };
      },
    );
  });

  app.post<{ Params: MerchantIdParamsT; Body: CreateStoreBody; Reply: StoreResponseT }>(
    '/merchants/:merchantId/stores',
    {
      schema: {
        tags: ['partner'],
        summary: 'Add a store (point of sale) to an activated merchant',
        description: 'Not shown in the contract; obsim\'s design. 409 merchant_not_activated unless the merchant is activated.',
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
        if (merchant.status !== 'activated') {
          throw new ApiError('merchant_not_activated', {
            message: `Merchant ${merchant.id} is ${merchant.status}; stores can be added once it is activated`,
          });
        }
        const details = Object.fromEntries(Object.entries({ address, mccCode, partnerRefId }).filter(([, v]) => v !== undefined));
        return store.stores.insert(partnerId, merchant.id, name, details, clock.iso());
      });
      return storeView(row);
    },
  );
}
