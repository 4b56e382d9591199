/**
 * Shared schemas. Every schema with an $id is registered once (schemas/index.ts) and referenced
 * by `{ $ref: '<id>#' }`, so the OpenAPI document names it under components.schemas.
 */
export const ErrorBody = {
  $id: 'ErrorBody',
  title: 'ErrorBody',
  description:
    'The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one.',
  type: 'object',
  required: ['status', 'code', 'message', 'requestId'],
  additionalProperties: false,
  properties: {
    status: { type: 'integer', description: 'HTTP status code, repeated' },
    code: { type: 'string', description: 'Stable error code (see README "Errors")' },
    message: { type: 'string', description: 'Human-readable explanation' },
    field: { type: 'string', description: 'Offending request property, e.g. `amount` or `address.countryCode`' },
    details: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'message'],
        additionalProperties: false,
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
    requestId: { type: 'string', description: 'Request id; also sent as the x-request-id response header' },
  },
} as const;

/** ISO 8601 timestamp with milliseconds, e.g. 2026-11-21T10:00:00.000Z. */
export const Timestamp = { type: 'string', format: 'date-time' } as const;

/** Standard error responses added to every route, so the OpenAPI document lists them. */
export const errorResponses = {
  '4xx': { $ref: 'ErrorBody#' },
  '5xx': { $ref: 'ErrorBody#' },
} as const;

/** `{ 200: schema, 4xx: ErrorBody, 5xx: ErrorBody }` */
export function responses<T>(ok: T) {
  return { 200: ok, ...errorResponses } as const;
}
