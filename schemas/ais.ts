/**
 * Token and account-information (AIS) schemas. Field names, types and enums are the contract's;
 * where the contract says "not shown", the description states obsim's choice.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { TOKEN_PERMISSIONS } from '../src/domain/consent.js';
import { CONSENT_PERMISSIONS, CONSENT_STATUSES } from '../src/domain/consent.js';
import { MAX_ID, Timestamp } from './common.js';

// enums come from their one definition (domain tuples, the token service)
export const TOKEN_PERMISSION_ENUM = TOKEN_PERMISSIONS;
export const CONSENT_PERMISSION_ENUM = CONSENT_PERMISSIONS;
export const CONSENT_STATUS_ENUM = CONSENT_STATUSES;

/** Largest pageLimit accepted by POST /v1/ais/accounts/transactions (contract: not shown). */
export const MAX_PAGE_LIMIT = 1000;
export const DEFAULT_PAGE_LIMIT = 200;

/**
 * ISO 8601 instant as accepted in AIS requests: a date (`2026-01-31`) or a date-time with
 * optional seconds, fraction and offset (`2026-01-31T10:00:00Z`, `2026-01-31T12:00:00+02:00`).
 * A date-time without an offset is read as UTC; a bare date is midnight UTC (except `toDate`,
 * where a bare date means the whole day).
 */
const IsoInput = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$',
  maxLength: 40,
} as const;

const UserId = { type: 'string', minLength: 1, maxLength: 200, description: 'User identifier issued by an identity provider' } as const;
const MerchantId = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_ID,
  description: 'Merchant identifier (merchantId of the partner API)',
} as const;
const AccountId = { type: 'string', minLength: 1, maxLength: 100 } as const;

// ---------------------------------------------------------------- token

export const GenerateTokenRequest = {
  $id: 'GenerateTokenRequest',
  title: 'GenerateTokenRequest',
  description:
    'Token request. `permissions` must hold at least one of the known permission strings (duplicates are ignored). Authentication of this call (not shown by the contract): none in the sandbox; when partner credential headers are sent they are checked and the merchant must be theirs; in production they are required.',
  type: 'object',
  required: ['userId', 'merchantId', 'permissions'],
  additionalProperties: false,
  properties: {
    userId: UserId,
    merchantId: MerchantId,
    permissions: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: { type: 'string', enum: TOKEN_PERMISSION_ENUM },
      description: 'Permissions the token is limited to: ais:accounts:read, ais:balance:read, ais:transactions:read',
    },
  },
} as const;
export type GenerateTokenBody = FromSchema<typeof GenerateTokenRequest>;

export const TokenResponse = {
  $id: 'TokenResponse',
  title: 'TokenResponse',
  description:
    'A JWT (HS256) with claims sub (userId), merchantId, permissions, iat, exp (iat + 1 hour by default, virtual clock), iss `obsim-<environment>`, aud `obsim-ais`, jti. Send it as `Authorization: Bearer <token>` to /v1/ais/*.',
  type: 'object',
  required: ['token'],
  additionalProperties: false,
  properties: { token: { type: 'string' } },
} as const;
export type TokenResponseT = FromSchema<typeof TokenResponse>;

// ---------------------------------------------------------------- consents

export const CreateConsentRequest = {
  $id: 'CreateConsentRequest',
  title: 'CreateConsentRequest',
  description:
    'Consent request. expirationDateTime must be in the future (virtual clock) and after transactionFromDateTime. callbackUrl (http or https) receives the browser after the bank page with `consentId`, `status`, `requestId` (and `error` when denied) as query parameters.',
  type: 'object',
  required: ['merchantId', 'userId', 'permissions', 'expirationDateTime', 'transactionFromDateTime'],
  additionalProperties: false,
  properties: {
    merchantId: MerchantId,
    userId: UserId,
    permissions: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', enum: CONSENT_PERMISSION_ENUM } },
    expirationDateTime: { ...IsoInput, description: 'When the consent expires (ISO 8601; must be in the future)' },
    transactionFromDateTime: { ...IsoInput, description: 'Earliest booking date readable under this consent (ISO 8601)' },
    callbackUrl: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2000 },
  },
} as const;
export type CreateConsentBody = FromSchema<typeof CreateConsentRequest>;

export const Consent = {
  $id: 'Consent',
  title: 'Consent',
  description:
    'A consent. Dates are echoed normalised to ISO 8601 UTC with milliseconds. `authorizationUrl` is present while the consent is pending; `consentId` once authorized; `errorMessage` when failed. callbackUrl is not echoed (contract).',
  type: 'object',
  required: [
    'merchantId',
    'userId',
    'permissions',
    'expirationDateTime',
    'transactionFromDateTime',
    'requestId',
    'status',
    'createdAt',
    'updatedAt',
  ],
  additionalProperties: false,
  properties: {
    merchantId: { type: 'integer' },
    userId: { type: 'string' },
    permissions: { type: 'array', items: { type: 'string', enum: CONSENT_PERMISSION_ENUM } },
    expirationDateTime: Timestamp,
    transactionFromDateTime: Timestamp,
    requestId: { type: 'string', description: 'Provider request id (UUID)' },
    status: {
      type: 'string',
      enum: CONSENT_STATUS_ENUM,
      description:
        'pending -> authorized | failed (bank page); pending/authorized -> expired (virtual clock passes expirationDateTime); authorized -> revoked',
    },
    createdAt: Timestamp,
    updatedAt: Timestamp,
    consentId: { type: 'string', description: 'Provider consent token id, set when the user authorizes' },
    authorizationUrl: { type: 'string', description: 'Hosted bank page (present while pending)' },
    errorMessage: { type: 'string', description: 'Why the consent failed' },
  },
} as const;
export type ConsentT = FromSchema<typeof Consent>;

export const ConsentList = {
  $id: 'ConsentList',
  title: 'ConsentList',
  description: "The user's consents for the merchant, newest first.",
  type: 'array',
  items: { $ref: 'Consent#' },
} as const;
export type ConsentListT = FromSchema<typeof ConsentList, { references: [typeof Consent] }>;

export const UserIdParams = {
  type: 'object',
  required: ['userId'],
  properties: { userId: UserId },
} as const;
export type UserIdParamsT = FromSchema<typeof UserIdParams>;

export const MerchantIdQuery = {
  type: 'object',
  required: ['merchantId'],
  properties: { merchantId: MerchantId },
} as const;
export type MerchantIdQueryT = FromSchema<typeof MerchantIdQuery>;

// ---------------------------------------------------------------- accounts

export const AccountsRequest = {
  $id: 'AccountsRequest',
  title: 'AccountsRequest',
  type: 'object',
  required: ['userId', 'merchantId'],
  additionalProperties: false,
  properties: { userId: UserId, merchantId: MerchantId },
} as const;
export type AccountsBody = FromSchema<typeof AccountsRequest>;

export const AccountDetails = {
  $id: 'AccountDetails',
  title: 'AccountDetails',
  description: 'Account details (fields not shown by the contract; obsim returns these).',
  type: 'object',
  required: ['bankName', 'bic', 'bban', 'productName', 'ownerType', 'openedDate'],
  additionalProperties: false,
  properties: {
    bankName: { type: 'string' },
    bic: { type: 'string' },
    bban: { type: 'string', description: 'National account number (the IBAN without country and check digits)' },
    productName: { type: 'string' },
    ownerType: { type: 'string', enum: ['private'] },
    openedDate: { type: 'string', format: 'date' },
  },
} as const;

export const Account = {
  $id: 'Account',
  title: 'Account',
  type: 'object',
  required: ['accountId', 'bankId', 'accountHolderName', 'iban', 'currency', 'balance', 'accountType', 'accountDetails'],
  additionalProperties: false,
  properties: {
    accountId: { type: 'string' },
    bankId: { type: 'string', description: 'Sandbox bank id (docs/ais.md "The bank consent page" lists them)' },
    accountHolderName: { type: 'string' },
    iban: { type: 'string' },
    currency: { type: 'string', description: 'ISO 4217 code' },
    balance: { type: 'string', pattern: '^-?\\d+\\.\\d{2}$', description: 'Decimal amount, two decimals' },
    accountType: {
      type: 'string',
      enum: ['current', 'savings', 'credit_card'],
      description: 'obsim values: current, savings, credit_card',
    },
    accountDetails: { $ref: 'AccountDetails#' },
  },
} as const;

export const AccountsResponse = {
  $id: 'AccountsResponse',
  title: 'AccountsResponse',
  type: 'object',
  required: ['userId', 'merchantId', 'clientId', 'consentId', 'accounts', 'totalAccounts'],
  additionalProperties: false,
  properties: {
    userId: { type: 'string' },
    merchantId: { type: 'integer' },
    clientId: { type: 'string', description: "The merchant's clientId" },
    consentId: { type: 'string', description: 'The authorized consent used for this read' },
    accounts: { type: 'array', items: { $ref: 'Account#' } },
    totalAccounts: { type: 'integer' },
  },
} as const;
export type AccountsResponseT = FromSchema<typeof AccountsResponse, { references: [typeof Account, typeof AccountDetails] }>;

export const BalanceRequest = {
  $id: 'BalanceRequest',
  title: 'BalanceRequest',
  type: 'object',
  required: ['userId', 'merchantId', 'accountId'],
  additionalProperties: false,
  properties: { userId: UserId, merchantId: MerchantId, accountId: AccountId },
} as const;
export type BalanceBody = FromSchema<typeof BalanceRequest>;

export const BalanceResponse = {
  $id: 'BalanceResponse',
  title: 'BalanceResponse',
  type: 'object',
  required: ['userId', 'merchantId', 'accountId', 'balance', 'accountDetails'],
  additionalProperties: false,
  properties: {
    userId: { type: 'string' },
    merchantId: { type: 'integer' },
    accountId: { type: 'string' },
    balance: {
      type: 'object',
      required: ['value', 'currency', 'lastUpdated'],
      additionalProperties: false,
      properties: {
        value: { type: 'string', pattern: '^-?\\d+\\.\\d{2}$', description: 'Decimal amount' },
        currency: { type: 'string' },
        lastUpdated: Timestamp,
      },
    },
    accountDetails: {
      type: 'object',
      required: ['iban', 'accountHolderName', 'bankId'],
      additionalProperties: false,
      properties: { iban: { type: 'string' }, accountHolderName: { type: 'string' }, bankId: { type: 'string' } },
    },
  },
} as const;
export type BalanceResponseT = FromSchema<typeof BalanceResponse>;

// ---------------------------------------------------------------- transactions

export const TransactionsRequest = {
  $id: 'TransactionsRequest',
  title: 'TransactionsRequest',
  description: `Newest first. pageLimit: integer 1–${MAX_PAGE_LIMIT} (obsim's maximum), default ${DEFAULT_PAGE_LIMIT}. fromDate/toDate are inclusive; a bare date as toDate means the whole day. Never returns entries booked before the consent's transactionFromDateTime. To page on, repeat with toDate = the last bookingDate minus one millisecond.`,
  type: 'object',
  required: ['userId', 'merchantId', 'accountId'],
  additionalProperties: false,
  properties: {
    userId: UserId,
    merchantId: MerchantId,
    accountId: AccountId,
    pageLimit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT },
    fromDate: IsoInput,
    toDate: IsoInput,
  },
} as const;
export type TransactionsBody = FromSchema<typeof TransactionsRequest>;

export const Transaction = {
  $id: 'Transaction',
  title: 'Transaction',
  type: 'object',
  required: [
    'transactionId',
    'amount',
    'currency',
    'description',
    'bookingDate',
    'valueDate',
    'counterparty',
    'reference',
    'type',
    'status',
  ],
  additionalProperties: false,
  properties: {
    transactionId: { type: 'string' },
    amount: { type: 'string', pattern: '^\\d+\\.\\d{2}$', description: 'Decimal amount, always positive; the direction is `type`' },
    currency: { type: 'string' },
    description: { type: 'string' },
    bookingDate: Timestamp,
    valueDate: Timestamp,
    counterparty: {
      type: 'object',
      required: ['name', 'iban'],
      additionalProperties: false,
      properties: { name: { type: 'string' }, iban: { type: 'string' } },
    },
    reference: { type: 'string' },
    type: { type: 'string', enum: ['debit', 'credit'], description: 'debit (money out) or credit (money in)' },
    status: { type: 'string', enum: ['booked', 'pending'], description: 'booked, or pending (the last two days)' },
  },
} as const;

export const TransactionsResponse = {
  $id: 'TransactionsResponse',
  title: 'TransactionsResponse',
  type: 'object',
  required: ['userId', 'merchantId', 'accountId', 'totalTransactions', 'pageLimit', 'transactions'],
  additionalProperties: false,
  properties: {
    userId: { type: 'string' },
    merchantId: { type: 'integer' },
    accountId: { type: 'string' },
    totalTransactions: {
      type: 'integer',
      description: 'Number of transactions matching the date filters (and the consent window), not just this page',
    },
    pageLimit: { type: 'integer', description: 'The limit used' },
    transactions: { type: 'array', items: { $ref: 'Transaction#' } },
  },
} as const;
export type TransactionsResponseT = FromSchema<typeof TransactionsResponse, { references: [typeof Transaction] }>;

export const TransactionList = {
  $id: 'TransactionList',
  title: 'TransactionList',
  description: `Transactions in the window, newest first, at most ${MAX_PAGE_LIMIT} (header X-Total-Count carries the number matching).`,
  type: 'array',
  items: { $ref: 'Transaction#' },
} as const;
export type TransactionListT = FromSchema<typeof TransactionList, { references: [typeof Transaction] }>;

export const AccountIdParams = {
  type: 'object',
  required: ['accountId'],
  properties: { accountId: AccountId },
} as const;
export type AccountIdParamsT = FromSchema<typeof AccountIdParams>;

export const DateWindowQuery = {
  type: 'object',
  required: ['fromDate', 'toDate'],
  properties: { fromDate: IsoInput, toDate: IsoInput },
} as const;
export type DateWindowQueryT = FromSchema<typeof DateWindowQuery>;

export const aisSchemas = [
  GenerateTokenRequest,
  TokenResponse,
  CreateConsentRequest,
  Consent,
  ConsentList,
  AccountsRequest,
  AccountDetails,
  Account,
  AccountsResponse,
  BalanceRequest,
  BalanceResponse,
  TransactionsRequest,
  Transaction,
  TransactionsResponse,
  TransactionList,
] as const;
