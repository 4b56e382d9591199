/**
 * The one catalogue of error codes. Every 4xx/5xx obsim sends is created here, in one way, and
 * rendered in the one documented error body (schemas/common.ts `ErrorBody`):
 *
 *   { "status": 404, "code": "merchant_not_found", "message": "…", "field"?: "…",
 *     "details"?: [{ "field": "…", "message": "…" }], "requestId": "…" }
 *
 * Add a code here (and nowhere else); docs/errors.md is generated from this list (npm run docs:tables).
 */
export const ERROR_CATALOGUE = {
  // 400: the request itself is wrong
  unknown_contract_version: { status: 400, message: 'No contract version of that name (GET /_sandbox/contract/versions lists them)' },
  validation_failed: { status: 400, message: 'The request is not valid' },
  malformed_json: { status: 400, message: 'The request body is not valid JSON' },
  unknown_field: { status: 400, message: 'The request has a property that is not part of the API (strict mode)' },
  unknown_provider_state: { status: 400, message: 'No Pact provider state of that name (GET /_sandbox/pact/provider-states lists them)' },
  // generate-token answers only 200, 400 and 500 (contract error table): its merchant problems are input problems
  merchant_id_unknown: { status: 400, message: 'merchantId names no merchant' },
  merchant_id_not_activated: { status: 400, message: 'merchantId names a merchant that is not activated' },
  // 401 / 403: who is calling, and what they may do
  partner_credentials_missing: { status: 401, message: 'X-Partner-Client-Id and X-Partner-Client-Secret headers are required' },
  partner_credentials_invalid: { status: 401, message: 'The partner credentials are not valid for this environment' },
  sandbox_gone: {
    status: 401,
    message:
      'These credentials belong to a sandbox that was deleted or expired after its idle ttl; create a new one (POST /_sandbox/sandboxes)',
  },
  admin_key_required: { status: 401, message: 'This call needs the X-Obsim-Admin-Key header (the server runs with OBSIM_ADMIN_KEY)' },
  admin_key_invalid: { status: 401, message: 'The X-Obsim-Admin-Key header does not match OBSIM_ADMIN_KEY' },
  metrics_unauthorized: {
    status: 401,
    message:
      'GET /metrics needs Authorization: Bearer <OBSIM_METRICS_TOKEN> or the admin key (the server runs with a metrics token or OBSIM_ADMIN_KEY)',
  },
  token_missing: { status: 401, message: 'An Authorization: Bearer <token> header is required' },
  token_malformed: { status: 401, message: 'The bearer token is not a well-formed JWT' },
  token_invalid: { status: 401, message: 'The bearer token signature or algorithm is not valid' },
  token_expired: { status: 401, message: 'The bearer token has expired' },
  token_not_yet_valid: { status: 401, message: 'The bearer token is not valid yet' },
  token_claims_invalid: { status: 401, message: 'The bearer token issuer, audience or claims are not valid' },
  token_permission_missing: { status: 403, message: 'The bearer token lacks the permission this endpoint needs' },
  token_subject_mismatch: { status: 403, message: 'The bearer token was issued for another user or merchant' },
  consent_missing: { status: 403, message: 'No authorized, unexpired consent covers this user and merchant' },
  consent_permission_missing: { status: 403, message: 'The consent does not grant the permission this endpoint needs' },
  // 404: not found, or not yours (never tell the two apart)
  route_not_found: { status: 404, message: 'No such endpoint' },
  merchant_not_found: { status: 404, message: 'Merchant not found' },
  payment_not_found: { status: 404, message: 'Payment not found' },
  webhook_not_found: { status: 404, message: 'Webhook not found' },
  delivery_not_found: { status: 404, message: 'Webhook delivery not found' },
  consent_not_found: { status: 404, message: 'Consent not found' },
  account_not_found: { status: 404, message: 'Account not found' },
  scenario_not_found: { status: 404, message: 'Scenario not found' },
  sandbox_not_found: { status: 404, message: 'Sandbox not found' },
  snapshot_not_found: { status: 404, message: 'Snapshot not found' },
  journal_entry_not_found: { status: 404, message: "No journal entry with this id in the caller's journal" },
  not_available_in_production: { status: 404, message: 'This endpoint is only available in the sandbox environment' },
  operation_not_in_version: { status: 404, message: 'This operation is not part of the contract version that serves the request' },
  // 410: an operation whose sunset instant has passed on the sandbox clock (docs/contract-versions.md)
  operation_sunset: { status: 410, message: 'This operation reached its sunset in the contract version that serves the request' },
  // 405 / 409 / 413 / 415 / 422 / 429
  method_not_allowed: { status: 405, message: 'Method not allowed' },
  illegal_transition: { status: 409, message: 'This action is not allowed in the current state' },
  merchant_not_activated: { status: 409, message: 'The merchant is not activated' },
  onboarding_link_expired: { status: 409, message: 'The onboarding link has expired; ask the partner to resend it' },
  journal_off: { status: 409, message: 'The request journal is off on this server (--journal off / OBSIM_JOURNAL=off)' },
  snapshot_exists: { status: 409, message: 'A snapshot of that name exists; snapshot names are unique in the simulator' },
  provider_state_failed: { status: 409, message: 'The Pact provider state could not be built in this sandbox (a step of it failed)' },
  onboarding_closed: { status: 409, message: 'The merchant has finished onboarding; there is no onboarding link to resend' },
  request_timeout: { status: 408, message: 'The request was not received completely within the request timeout (30 s)' },
  payload_too_large: { status: 413, message: 'The request body is too large' },
  unsupported_media_type: { status: 415, message: 'Content-Type must be application/json' },
  unprocessable: { status: 422, message: 'The request is well formed but cannot be processed' },
  rate_limited: { status: 429, message: 'Too many requests; retry after the number of seconds in Retry-After' },
  headers_too_large: { status: 431, message: 'The request headers are larger than 16 KiB' },
  // 5xx
  internal_error: { status: 500, message: 'Internal server error' },
  response_validation_failed: { status: 500, message: 'The simulator produced a response that violates its own schema' },
  forced_status: { status: 500, message: 'Status forced by the Prefer header' },
  upstream_unavailable: { status: 502, message: 'The upstream (the provider obsim shadows) could not be reached' },
  service_unavailable: { status: 503, message: 'The service is unavailable for a moment; retry after the seconds in Retry-After' },
  storage_unavailable: {
    status: 503,
    message: 'The database cannot take writes right now; nothing was changed. Retry after the seconds in Retry-After',
  },
  shard_unavailable: {
    status: 503,
    message:
      'The shard that holds this sandbox is not answering (restarting or stopped); the request did not reach it. Retry after the seconds in Retry-After',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * Where a problem is: an RFC 6901 JSON pointer (`/address/countryCode`, `/ubos/0/fullName`; ``
 * for the whole part) into the part of the request named by `in` (the query string and the path
 * parameters read as one object each, the headers by lower-case name), or of the answer for
 * `response` (an answer that broke its own schema).
 */
export type JsonPointer = '' | `/${string}`;
export type ErrorPlace = 'body' | 'query' | 'path' | 'header' | 'response';

/** A pointer made of `segments`, each escaped as RFC 6901 says (`~` as `~0`, `/` as `~1`). */
export const pointer = (...segments: readonly (string | number)[]): JsonPointer =>
  segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('') as JsonPointer;

/** The segments of a pointer, unescaped (`/a~1b/0` → `a/b`, `0`). */
export const pointerSegments = (p: JsonPointer): string[] =>
  p === ''
    ? []
    : p
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** A pointer as a reader names the place in a sentence: `/address/countryCode` → `address.countryCode`, `/ubos/0` → `ubos[0]`. */
export function readablePointer(at: JsonPointer): string {
  let out = '';
  for (const s of pointerSegments(at)) out += /^\d+$/.test(s) ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

export interface ErrorDetail {
  field: JsonPointer;
  in?: ErrorPlace;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly field: JsonPointer | undefined;
  /** Where `field` points: the body unless said otherwise. */
  readonly in: ErrorPlace | undefined;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly code: ErrorCode,
    options: {
      message?: string;
      field?: JsonPointer;
      in?: ErrorPlace;
      details?: ErrorDetail[];
      status?: number;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(options.message ?? ERROR_CATALOGUE[code].message);
    this.status = options.status ?? ERROR_CATALOGUE[code].status;
    this.field = options.field;
    this.in = options.field === undefined ? undefined : (options.in ?? 'body');
    this.details = options.details;
    this.headers = options.headers;
  }
}

/** 400 validation_failed for one problem at `field` (a pointer into `place`). */
export function invalidInput(field: JsonPointer, message: string, place: ErrorPlace = 'body'): ApiError {
  return new ApiError('validation_failed', { field, in: place, message, details: [{ field, in: place, message }] });
}

/** 503 while the database fails writes (`cause`: disk full, read-only, locked, … in words): nothing was changed, retry. */
export function storageUnavailable(cause: string): ApiError {
  return new ApiError('storage_unavailable', {
    message: `The database cannot take writes right now: ${cause}. Nothing was changed; retry after the seconds in Retry-After`,
    headers: { 'retry-after': '1' },
  });
}

export interface ErrorBody {
  status: number;
  code: string;
  message: string;
  field?: JsonPointer;
  in?: ErrorPlace;
  details?: ErrorDetail[];
  requestId: string;
}

export function errorBody(err: ApiError, requestId: string): ErrorBody {
  const body: ErrorBody = { status: err.status, code: err.code, message: err.message, requestId };
  if (err.field !== undefined) {
    body.field = err.field;
    body.in = err.in;
  }
  if (err.details !== undefined && err.details.length > 0) body.details = err.details;
  return body;
}
