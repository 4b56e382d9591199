/**
 * POST /v1/ais/consents and GET /v1/ais/users/{userId}/consents.
 *
 * Bearer token required; it must have been issued for the same userId and merchantId (403
 * token_subject_mismatch). No particular permission is needed to manage consents: any valid
 * token of that user and merchant will do.
 */
import type { FastifyInstance } from 'fastify';
import type { ConsentListT, ConsentT, CreateConsentBody, MerchantIdQueryT, UserIdParamsT } from '../../../schemas/ais.js';
import { MerchantIdQuery, UserIdParams } from '../../../schemas/ais.js';
import { AisHeaders, responses } from '../../../schemas/common.js';
import { bearerSecurity, requireToken } from '../../auth/bearer.js';
import { awaitsUser, consentPermissions } from '../../domain/consent.js';
import { ApiError, invalidInput } from '../../domain/errors.js';
import { assertActivated } from '../../domain/merchant.js';
import type { ConsentRow } from '../../domain/consent.js';
import { isoOf, parseInstant } from './dates.js';
import { causeOf, operationOf } from '../../plugins/tracing.js';

/** A consents row in the contract's Consent shape. */
export function consentView(row: ConsentRow, publicUrl: string) {
  return {
    merchantId: row.merchant_id,
    userId: row.user_id,
    permissions: consentPermissions(row),
    expirationDateTime: row.expiration_date_time,
    transactionFromDateTime: row.transaction_from_date_time,
    requestId: row.request_id,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.consent_id ? { consentId: row.consent_id } : {}),
    ...(awaitsUser(row) ? { authorizationUrl: `${publicUrl}/consent/${row.auth_token}` } : {}),
    ...(row.error_message ? { errorMessage: row.error_message } : {}),
  };
}

export async function consentRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.post<{ Body: CreateConsentBody; Reply: ConsentT }>(
    '/consents',
    {
      schema: {
        tags: ['ais'],
        operationId: 'createConsent',
        summary: 'Create a consent (pending) and get the bank authorization URL',
        description:
          'Creates a consent with status pending. Open authorizationUrl in a browser: the sandbox bank page lets the user pick a bank and authorize (status authorized, consentId set) or deny (status failed, errorMessage set), then redirects to callbackUrl with consentId, status and requestId as query parameters. expirationDateTime must be in the future and after transactionFromDateTime (400). The merchant must be activated (409). Bearer token of the same user and merchant required; no particular permission.',
        security: bearerSecurity,
        headers: AisHeaders,
        body: { $ref: 'CreateConsentRequest#' },
        response: responses({ $ref: 'Consent#' }),
      },
    },
    async (request) => {
      const body = request.body;
      requireToken(request, body.userId, body.merchantId);
      const now = request.sandbox.clock.nowMs();
      const expiresMs = parseInstant(body.expirationDateTime, 'expirationDateTime');
      const fromMs = parseInstant(body.transactionFromDateTime, 'transactionFromDateTime');
      if (expiresMs <= now) {
        throw invalidInput('/expirationDateTime', `expirationDateTime must be in the future (now is ${isoOf(now)})`);
      }
      if (fromMs >= expiresMs) {
        throw invalidInput('/transactionFromDateTime', 'transactionFromDateTime must be before expirationDateTime');
      }
      const merchant = store.merchants.getAny(body.merchantId);
      if (!merchant) throw new ApiError('merchant_not_found', { field: '/merchantId' });
      assertActivated(merchant, 'consents');
      const row = store.tx(() => {
        const inserted = store.consents.insert(
          {
            merchant_id: body.merchantId,
            user_id: body.userId,
            permissions: [...new Set(body.permissions)],
            expiration_date_time: isoOf(expiresMs),
            transaction_from_date_time: isoOf(fromMs),
            callback_url: body.callbackUrl ?? null,
          },
          isoOf(now),
        );
        request.sandbox.onConsentCreated(inserted, merchant.partner_id, causeOf(request, 'request', operationOf(request)));
        return inserted;
      });
      return consentView(row, app.publicUrl);
    },
  );

  app.get<{ Params: UserIdParamsT; Querystring: MerchantIdQueryT; Reply: ConsentListT }>(
    '/users/:userId/consents',
    {
      schema: {
        tags: ['ais'],
        operationId: 'listUserConsents',
        summary: "List a user's consents for a merchant, newest first",
        description:
          'Every consent of that user for that merchant, whatever its status, newest first. Expired consents read `expired` as soon as the simulator clock passes expirationDateTime. Bearer token of the same user and merchant required.',
        security: bearerSecurity,
        headers: AisHeaders,
        params: UserIdParams,
        querystring: MerchantIdQuery,
        response: responses({ $ref: 'ConsentList#' }),
      },
    },
    async (request) => {
      const { userId } = request.params;
      const { merchantId } = request.query;
      requireToken(request, userId, merchantId, undefined, { userId: 'path', merchantId: 'query' });
      const rows = store.consents.listForUser(userId, merchantId).map((c) => request.sandbox.consentAsOf(c));
      return rows.map((row) => consentView(row, app.publicUrl));
    },
  );
}
