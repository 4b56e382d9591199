/**
 * Accounts, balances and transactions. Each read needs, in this order:
 *   - a bearer token of the same user and merchant (403 token_subject_mismatch) carrying the
 *     endpoint's token permission (403 token_permission_missing);
 *   - an authorized, unexpired consent of that user and merchant (403 consent_missing) that
 *     grants the endpoint's consent permission (403 consent_permission_missing). The newest
 *     such consent is used (its consentId is reported, its transactionFromDateTime applies);
 *   - for one account: an account of that user (404 account_not_found otherwise, also for
 *     another user's account).
 *
 * | endpoint                                  | token permission      | consent permission     |
 * | POST /v1/ais/accounts                     | ais:accounts:read     | ReadAccountsDetail     |
 * | POST /v1/ais/accounts/balance             | ais:balance:read      | ReadBalances           |
 * | POST /v1/ais/accounts/transactions        | ais:transactions:read | ReadTransactionsDetail |
 * | GET  /v1/ais/accounts/{id}/transactions   | ais:transactions:read | ReadTransactionsDetail |
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountDetails } from '../../../fixtures/generate.js';
import {
  AccountIdParams,
  DateWindowQuery,
  DEFAULT_PAGE_LIMIT,
  MAX_PAGE_LIMIT,
  type AccountIdParamsT,
  type AccountsBody,
  type AccountsResponseT,
  type BalanceBody,
  type BalanceResponseT,
  type DateWindowQueryT,
  type TransactionListT,
  type TransactionsBody,
  type TransactionsResponseT,
} from '../../../schemas/ais.js';
import { AisHeaders, responses } from '../../../schemas/common.js';
import { bearerSecurity, requireToken } from '../../auth/bearer.js';
import type { TokenPermission } from '../../domain/consent.js';
import { consentPermissions, grantsAccess, type ConsentPermission } from '../../domain/consent.js';
import { ApiError, invalidInput } from '../../domain/errors.js';
import type { AccountRow, DateWindow, TransactionRow } from '../../store/accounts.js';
import type { ConsentRow } from '../../domain/consent.js';
import { bankRead } from '../../domain/bank-rules.js';
import { isoOf, parseInstant } from './dates.js';

const FAR_FUTURE = '9999-12-31T23:59:59.999Z';

/** Response header of GET /v1/ais/accounts/{accountId}/transactions. */
const TotalCountHeader = {
  type: 'integer',
  minimum: 0,
  description: `The number of transactions matching the window (booked on or after the consent's transactionFromDateTime), also when more than the ${MAX_PAGE_LIMIT} returned.`,
} as const;

function transactionView(t: TransactionRow) {
  return {
    transactionId: t.transaction_id,
    amount: t.amount,
    currency: t.currency,
    description: t.description,
    bookingDate: t.booking_date,
    valueDate: t.value_date,
    counterparty: { name: t.counterparty_name, iban: t.counterparty_iban },
    reference: t.reference,
    type: t.type,
    status: t.status,
  };
}

function accountView(a: AccountRow) {
  return {
    accountId: a.account_id,
    bankId: a.bank_id,
    accountHolderName: a.account_holder_name,
    iban: a.iban,
    currency: a.currency,
    balance: a.balance,
    accountType: a.account_type as 'current' | 'savings' | 'credit_card',
    accountDetails: JSON.parse(a.details) as AccountDetails,
  };
}

export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app;

  /** Token checks, then the newest authorized unexpired consent granting `consentPermission`. */
  function authorizeRead(
    request: FastifyRequest,
    userId: string,
    merchantId: number,
    tokenPermission: TokenPermission,
    consentPermission: ConsentPermission,
  ): ConsentRow {
    requireToken(request, userId, merchantId, tokenPermission);
    const authorized = store.consents
      .listForUser(userId, merchantId)
      .map((c) => request.sandbox.consentAsOf(c))
      .filter(grantsAccess);
    if (authorized.length === 0) {
      throw new ApiError('consent_missing', {
        message: `No authorized, unexpired consent of user ${userId} for merchant ${merchantId}; create one with POST /v1/ais/consents and authorize it`,
      });
    }
    const consent = authorized.find((c) => consentPermissions(c).includes(consentPermission));
    if (!consent) {
      throw new ApiError('consent_permission_missing', { message: `The authorized consent does not grant ${consentPermission}` });
    }
    return consent;
  }

  /** The account, or 404 naming where its id came from (the body, or the path). */
  function accountOf(request: FastifyRequest, userId: string, accountId: string, place: 'body' | 'path'): AccountRow {
    const account = store.accounts.getAccount(userId, accountId, request.sandbox.clock.nowMs());
    if (!account) throw new ApiError('account_not_found', { message: `Account ${accountId} not found`, field: '/accountId', in: place });
    return account;
  }

  /** The booking-date window: the request's filters, never before the consent's transactionFromDateTime. */
  function windowFor(consent: ConsentRow, fromDate: string | undefined, toDate: string | undefined, place: 'body' | 'query'): DateWindow {
    const fromMs = fromDate === undefined ? undefined : parseInstant(fromDate, 'fromDate', false, place);
    const toMs = toDate === undefined ? undefined : parseInstant(toDate, 'toDate', true, place);
    if (fromMs !== undefined && toMs !== undefined && fromMs > toMs) {
      throw invalidInput('/fromDate', 'fromDate must not be after toDate', place);
    }
    const floor = consent.transaction_from_date_time;
    const from = fromMs === undefined || isoOf(fromMs) < floor ? floor : isoOf(fromMs);
    return { from, to: toMs === undefined ? FAR_FUTURE : isoOf(toMs) };
  }

  /**
   * A transactions read as the account's bank answers it: without a profile, the window and limit
   * asked for; a profiled bank (docs/banks.md) keeps `historyDays` of history, answers at most
   * `pageSize` entries, and may leave pending transactions out.
   */
  function readAtBank(request: FastifyRequest, account: AccountRow, window: DateWindow, limit: number) {
    const accountId = account.account_id;
    const ais = app.engine.banks.of(request.sandbox.id, account.bank_id)?.profile.ais;
    const { window: kept, limit: used } = ais
      ? bankRead(ais, window, limit, request.sandbox.clock.nowMs(), () => store.accounts.newestBookedAt(accountId))
      : { window, limit };
    return {
      limit: used,
      count: () => store.accounts.countTransactions(accountId, kept),
      page: () => store.accounts.listTransactions(accountId, kept, used),
    };
  }

  function merchantClientId(merchantId: number): string {
    const clientId = store.merchants.clientIdOf(merchantId);
    if (clientId === undefined) throw new ApiError('merchant_not_found', { field: '/merchantId' });
    return clientId;
  }

  app.post<{ Body: AccountsBody; Reply: AccountsResponseT }>(
    '/accounts',
    {
      schema: {
        tags: ['ais'],
        operationId: 'listAccounts',
        summary: "List the user's bank accounts",
        description:
          'Needs token permission ais:accounts:read and an authorized, unexpired consent granting ReadAccountsDetail. Optional header x-request-id is echoed.',
        security: bearerSecurity,
        headers: AisHeaders,
        body: { $ref: 'AccountsRequest#' },
        response: responses({ $ref: 'AccountsResponse#' }),
      },
    },
    async (request) => {
      const { userId, merchantId } = request.body;
      const consent = authorizeRead(request, userId, merchantId, 'ais:accounts:read', 'ReadAccountsDetail');
      const accounts = store.accounts.listAccounts(userId, request.sandbox.clock.nowMs()).map(accountView);
      return {
        userId,
        merchantId,
        clientId: merchantClientId(merchantId),
        consentId: consent.consent_id ?? '',
        accounts,
        totalAccounts: accounts.length,
      };
    },
  );

  app.post<{ Body: BalanceBody; Reply: BalanceResponseT }>(
    '/accounts/balance',
    {
      schema: {
        tags: ['ais'],
        operationId: 'getAccountBalance',
        summary: 'Read an account balance',
        description:
          'Needs token permission ais:balance:read and a consent granting ReadBalances. 404 account_not_found for an unknown account or one of another user.',
        security: bearerSecurity,
        headers: AisHeaders,
        body: { $ref: 'BalanceRequest#' },
        response: responses({ $ref: 'BalanceResponse#' }),
      },
    },
    async (request) => {
      const { userId, merchantId, accountId } = request.body;
      authorizeRead(request, userId, merchantId, 'ais:balance:read', 'ReadBalances');
      const a = accountOf(request, userId, accountId, 'body');
      return {
        userId,
        merchantId,
        accountId,
        balance: { value: a.balance, currency: a.currency, lastUpdated: a.last_updated },
        accountDetails: { iban: a.iban, accountHolderName: a.account_holder_name, bankId: a.bank_id },
      };
    },
  );

  app.post<{ Body: TransactionsBody; Reply: TransactionsResponseT }>(
    '/accounts/transactions',
    {
      schema: {
        tags: ['ais'],
        operationId: 'listAccountTransactions',
        summary: 'Read account transactions (newest first, up to pageLimit)',
        description: `Needs token permission ais:transactions:read and a consent granting ReadTransactionsDetail. pageLimit default ${DEFAULT_PAGE_LIMIT}, maximum ${MAX_PAGE_LIMIT} (400 above). fromDate/toDate inclusive; entries booked before the consent's transactionFromDateTime are never returned. totalTransactions counts every match, not just this page.`,
        security: bearerSecurity,
        headers: AisHeaders,
        body: { $ref: 'TransactionsRequest#' },
        response: responses({ $ref: 'TransactionsResponse#' }),
      },
    },
    async (request) => {
      const { userId, merchantId, accountId, fromDate, toDate } = request.body;
      const pageLimit = request.body.pageLimit ?? DEFAULT_PAGE_LIMIT;
      const consent = authorizeRead(request, userId, merchantId, 'ais:transactions:read', 'ReadTransactionsDetail');
      const window = windowFor(consent, fromDate, toDate, 'body');
      const read = readAtBank(request, accountOf(request, userId, accountId, 'body'), window, pageLimit);
      return {
        userId,
        merchantId,
        accountId,
        totalTransactions: read.count(),
        pageLimit: read.limit,
        transactions: read.page().map(transactionView),
      };
    },
  );

  app.get<{ Params: AccountIdParamsT; Querystring: DateWindowQueryT; Reply: TransactionListT }>(
    '/accounts/:accountId/transactions',
    {
      schema: {
        tags: ['ais'],
        operationId: 'listAccountTransactionsInWindow',
        summary: 'Read account transactions in a date window',
        description: `fromDate and toDate are required (400 without). The user and merchant are the bearer token's (sub, merchantId). Needs token permission ais:transactions:read and a consent granting ReadTransactionsDetail. Newest first, at most ${MAX_PAGE_LIMIT} entries; response header X-Total-Count gives the number matching (narrow the window, or use POST /v1/ais/accounts/transactions, to see more).`,
        security: bearerSecurity,
        headers: AisHeaders,
        params: AccountIdParams,
        querystring: DateWindowQuery,
        response: responses({ $ref: 'TransactionList#' }, { 'X-Total-Count': TotalCountHeader }),
      },
    },
    async (request, reply) => {
      const { accountId } = request.params;
      const { fromDate, toDate } = request.query;
      const { userId, merchantId } = request.aisToken;
      const consent = authorizeRead(request, userId, merchantId, 'ais:transactions:read', 'ReadTransactionsDetail');
      const window = windowFor(consent, fromDate, toDate, 'query');
      const read = readAtBank(request, accountOf(request, userId, accountId, 'path'), window, MAX_PAGE_LIMIT);
      void reply.header('x-total-count', String(read.count()));
      return read.page().map(transactionView);
    },
  );
}
