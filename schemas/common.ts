/**
 * Shared schemas. Every schema with an $id is registered once (schemas/index.ts) and referenced
 * by `{ $ref: '<id>#' }`, so the OpenAPI document names it under components.schemas.
 */
const ERROR_PLACE = { type: 'string', enum: ['body', 'query', 'path', 'header', 'response'] } as const;

export const ErrorBody = {
  $id: 'ErrorBody',
  title: 'ErrorBody',
  description:
    'The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place.',
  type: 'object',
  required: ['status', 'code', 'message', 'requestId'],
  additionalProperties: false,
  properties: {
    status: { type: 'integer', description: 'HTTP status code, repeated' },
    code: { type: 'string', description: 'Stable error code (docs/errors.md lists them)' },
    message: { type: 'string', description: 'Human-readable explanation' },
    field: {
      type: 'string',
      description:
        'Where the problem is: an RFC 6901 JSON pointer into the part of the request `in` names, e.g. `/amount`, `/address/countryCode`, `/ubos/0/fullName`; the empty string for the whole part',
    },
    in: {
      ...ERROR_PLACE,
      description:
        'The part `field` points into: the JSON body, the query string, the path parameters, a header (by lower-case name), or the answer (a 500 response_validation_failed)',
    },
    details: {
      type: 'array',
      description: 'Every problem found (the first is also in `field` and `message`)',
      items: {
        type: 'object',
        required: ['field', 'message'],
        additionalProperties: false,
        properties: {
          field: { type: 'string', description: 'An RFC 6901 JSON pointer, as `field`' },
          in: ERROR_PLACE,
          message: { type: 'string' },
        },
      },
    },
    requestId: { type: 'string', description: 'Request id; also sent as the x-request-id response header' },
  },
} as const;

/**
 * The largest id obsim accepts anywhere (merchant, payment, delivery, journal entry): 2^31 − 1.
 * Ids are issued far below it; a larger one names nothing and is a 400, not a lookup.
 */
export const MAX_ID = 2_147_483_647;

/** ISO 8601 timestamp with milliseconds, e.g. 2026-11-21T10:00:00.000Z. */
export const Timestamp = { type: 'string', format: 'date-time' } as const;

// ---------------------------------------------------------------- headers
//
// Request header schemas here are DOCUMENTATION for the OpenAPI document: every property is an
// optional plain string, so validating them can never reject a request. The real checks happen
// elsewhere, on purpose: a malformed x-request-id is replaced by a generated id (genReqId in
// src/app.ts, a header-injection guard, never a 400), and a malformed Prefer is a 400 naming
// `Prefer` from src/plugins/prefer.ts (before authentication).

const REQUEST_ID_RULE = '1-128 characters from A-Z a-z 0-9 . _ : -';

/** Optional request header x-request-id (the contract's "request id for tracking"). */
export const RequestIdRequestHeader = {
  type: 'string',
  description: `Optional request id for tracking, echoed as the x-request-id response header. When it is not ${REQUEST_ID_RULE}, it is not an error: obsim generates an id instead (req_<24 hex>).`,
} as const;

/** Optional Prism-style fault injection header (src/plugins/prefer.ts, docs/sandbox-controls.md "Fault injection"). */
export const PreferRequestHeader = {
  type: 'string',
  description:
    'obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication.',
  examples: ['code=503', 'delay=250', 'code=429, delay=100'],
} as const;

/**
 * Request headers of the AIS operations: x-request-id (the contract's optional header). Prefer
 * is added to every /v1 operation by src/plugins/prefer.ts.
 */
export const AisHeaders = {
  type: 'object',
  properties: { 'x-request-id': RequestIdRequestHeader },
} as const;

/** The x-request-id response header, sent on every response. */
export const RequestIdResponseHeader = {
  type: 'string',
  description: `The request id: the x-request-id request header when it was sent and is ${REQUEST_ID_RULE}, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody.`,
} as const;

/** Response headers every obsim response carries (declared on every documented response). */
export const commonResponseHeaders = { 'x-request-id': RequestIdResponseHeader } as const;

/** A response entry: the body schema plus the response headers declared for the OpenAPI document. */
function withHeaders<T extends object, H extends object>(schema: T, headers: H) {
  return { ...schema, headers: { ...commonResponseHeaders, ...headers } } as const;
}

/** Standard error responses added to every route, so the OpenAPI document lists them. */
export const errorResponses = {
  '4xx': withHeaders({ $ref: 'ErrorBody#' } as const, {}),
  '5xx': withHeaders({ $ref: 'ErrorBody#' } as const, {}),
} as const;

/**
 * `{ 200: schema, 4xx: ErrorBody, 5xx: ErrorBody }`, each declaring the x-request-id response
 * header; `okHeaders` declares more headers of the 200 answer (e.g. X-Total-Count).
 */
export function responses<T extends object, H extends object = Record<never, never>>(ok: T, okHeaders?: H) {
  return { 200: withHeaders(ok, okHeaders ?? ({} as H)), ...errorResponses } as const;
}
