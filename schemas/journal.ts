/**
 * Request journal schemas (/_sandbox/requests*, OpenAPI tag `sandbox`; docs/journal.md).
 * The matcher refuses unknown properties in every mode (propertyNames, which lenient mode does
 * not strip): a misspelled criterion would otherwise match everything and a verification pass.
 */
import { BANK_NOTE } from './banks.js';
import { FaultMark } from './chaos.js';
import type { FromSchema } from 'json-schema-to-ts';
import { MAX_ID, Timestamp } from './common.js';

const METHOD = { type: 'string', pattern: '^[A-Za-z]{1,10}$', maxLength: 10, description: 'HTTP method, any case (GET, POST, …)' } as const;
const PATH = { type: 'string', minLength: 1, maxLength: 2048, pattern: '^/' } as const;
const HEADER_NAME = { type: 'string', pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$", maxLength: 100 } as const;

export const JournalEntry = {
  $id: 'JournalEntry',
  title: 'JournalEntry',
  description:
    'One answered request. Credentials are never stored: X-Partner-Client-Secret, Authorization (its scheme kept), Cookie and X-Obsim-Admin-Key show as `[redacted]`, and so do the values of `token`, `secret`, `clientSecret`, `accessToken`, `refreshToken` and `password` properties in either body. Bodies longer than --journal-body-limit are cut (`…Truncated: true`, the body then a string). `code` and `field` are the ErrorBody code and field of a refused request; `resources` names what a successful write created or changed.',
  type: 'object',
  required: [
    'id',
    'at',
    'wallAt',
    'method',
    'path',
    'query',
    'headers',
    'requestBodyTruncated',
    'status',
    'responseBodyTruncated',
    'durationMs',
    'requestId',
    'resources',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'integer', description: 'Increasing in the order requests were answered' },
    at: { ...Timestamp, description: "When it was answered, on the sandbox's virtual clock" },
    wallAt: { ...Timestamp, description: 'When it was answered, on the wall clock' },
    method: { type: 'string' },
    path: { type: 'string', description: 'Without the query string' },
    query: { type: 'object', additionalProperties: true, description: 'Query parameters as parsed' },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description:
        'Selected request headers: accept, content-length, content-type, idempotency-key, prefer, user-agent, x-obsim-scenario, x-partner-client-id, x-request-id; credential headers as `[redacted]`',
    },
    requestBody: { description: 'The request body (JSON as parsed; a form as its fields); absent when none' },
    requestBodyTruncated: { type: 'boolean' },
    status: { type: 'integer', description: "The answer's status; 0 when the connection was dropped without one (a fault, docs/chaos.md)" },
    fault: {
      ...FaultMark,
      description: "The sandbox's fault profile injected a fault into this request (docs/chaos.md); absent when it did not",
    },
    code: { type: 'string', description: 'Error code of a refused request (ErrorBody.code); absent otherwise' },
    field: { type: 'string', description: 'The field a refused request was refused for (ErrorBody.field), when it names one' },
    responseBody: { description: 'The answer (JSON as parsed; a page as its HTML); absent when none' },
    responseBodyTruncated: { type: 'boolean' },
    durationMs: { type: 'number', description: 'From the request received to the answer ready (its commit included)' },
    requestId: { type: 'string', description: 'The x-request-id of the answer' },
    bank: {
      type: 'array',
      description:
        "One entry's read only (GET /_sandbox/requests/{id}): the changes this request made that a bank profile's rule was behind (docs/banks.md), e.g. an approval a degraded bank will reject",
      items: {
        ...BANK_NOTE,
        required: ['resource', 'resourceId', ...BANK_NOTE.required],
        properties: { resource: { type: 'string' }, resourceId: { type: 'string' }, ...BANK_NOTE.properties },
      },
    },
    traceId: {
      type: 'string',
      pattern: '^[0-9a-f]{32}$',
      description:
        "The W3C trace id of the request's span (the answer's traceparent): the trace its changes and the webhooks they caused continue (docs/operations.md). Absent in entries kept before obsim recorded traces",
    },
    contractVersion: {
      type: 'string',
      description: 'The contract version that served the request (docs/contract-versions.md); absent: the base',
    },
    resources: {
      type: 'object',
      additionalProperties: false,
      description: 'For a successful write: the ids it created or changed (from its path and its answer); empty for reads and refusals',
      properties: {
        merchantId: { type: 'integer' },
        paymentId: { type: 'integer' },
        consentId: { type: 'string' },
        webhookId: { type: 'string' },
        deliveryId: { type: 'integer' },
      },
    },
  },
} as const;

export const JournalList = {
  $id: 'JournalList',
  title: 'JournalList',
  description: 'Newest first. `nextCursor` (absent on the last page) fetches the next, older page with the same filters.',
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: {
    items: { type: 'array', items: { $ref: 'JournalEntry#' } },
    nextCursor: { type: 'string' },
  },
} as const;

export const JournalQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    method: METHOD,
    path: { ...PATH, description: 'Exact path (no query string)' },
    pathPrefix: { ...PATH, description: 'Paths starting with this' },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    code: { type: 'string', maxLength: 100, description: 'Error code of refused requests, e.g. validation_failed' },
    since: { ...Timestamp, maxLength: 40, description: 'Answered at or after this instant (virtual clock)' },
    until: { ...Timestamp, maxLength: 40, description: 'Answered at or before this instant (virtual clock)' },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
    cursor: { type: 'string', maxLength: 100, description: 'nextCursor of the previous page' },
    format: {
      type: 'string',
      enum: ['json', 'har'],
      default: 'json',
      description:
        "json: the entries (JournalList); har: the same page as HAR 1.2 (application/har+json), oldest first, with `log._nextCursor` for the next, older page: open it in a browser's developer tools or attach it to a bug",
    },
  },
} as const;
export type JournalQueryT = FromSchema<typeof JournalQuery>;

export const JournalIdParams = {
  type: 'object',
  required: ['requestId'],
  properties: { requestId: { type: 'integer', minimum: 1, maximum: MAX_ID, description: 'The entry id (JournalEntry.id)' } },
} as const;
export type JournalIdParamsT = FromSchema<typeof JournalIdParams>;

const MATCHER_KEYS = [
  'method',
  'path',
  'pathPrefix',
  'status',
  'code',
  'query',
  'body',
  'jsonPath',
  'headerPresent',
  'headerAbsent',
] as const;

/** The matcher without its $id, for documents that embed it (the scenario schema). */
export const REQUEST_MATCHER = {
  description:
    'Which journal entries count; every criterion given must hold (an empty matcher matches every entry). path: exact, or a pattern where `{name}` and `*` match one segment and `**` the rest (`/v1/partner/merchants/{id}/onboarding-status`). status: a code or a class (`"4xx"`). body: partial match of the request body (extra properties are fine; arrays element by element; `$any`, `$absent`, `$type:<t>`, `$regex:<re>`). jsonPath: `$.a.b[0]` -> the value it must equal in the request body. Unknown properties are refused (400 unknown_field naming it).',
  type: 'object',
  propertyNames: { enum: MATCHER_KEYS },
  properties: {
    method: METHOD,
    path: PATH,
    pathPrefix: PATH,
    status: {
      oneOf: [
        { type: 'integer', minimum: 100, maximum: 599 },
        { type: 'string', pattern: '^[1-5]xx$', maxLength: 3 },
      ],
    },
    code: { type: 'string', maxLength: 100 },
    query: { type: 'object', maxProperties: 50, additionalProperties: { type: 'string', maxLength: 2000 } },
    body: { description: 'Partial match of the request body' },
    jsonPath: { type: 'object', maxProperties: 20, propertyNames: { pattern: '^\\$', maxLength: 200 }, additionalProperties: true },
    headerPresent: { type: 'array', maxItems: 20, items: HEADER_NAME },
    headerAbsent: { type: 'array', maxItems: 20, items: HEADER_NAME },
  },
} as const;

export const RequestMatcher = { $id: 'RequestMatcher', title: 'RequestMatcher', ...REQUEST_MATCHER } as const;

const COUNT = { type: 'integer', minimum: 0, maximum: 1_000_000 } as const;

export const JournalCountRequest = {
  $id: 'JournalCountRequest',
  title: 'JournalCountRequest',
  description: 'A matcher, and optionally only entries newer than `after` (an entry id).',
  type: 'object',
  propertyNames: { enum: ['request', 'after'] },
  properties: {
    request: { $ref: 'RequestMatcher#' },
    after: { type: 'integer', minimum: 0, maximum: MAX_ID, description: 'Only entries with a greater id' },
  },
} as const;
export type JournalCountRequestT = FromSchema<typeof JournalCountRequest, { references: [typeof RequestMatcher] }>;

export const JournalVerifyRequest = {
  $id: 'JournalVerifyRequest',
  title: 'JournalVerifyRequest',
  description:
    'A matcher and how many entries must match: `count` (exactly), `atLeast`, `atMost` (both may be given); none given means at least one. Looks at every entry of the journal after `after`.',
  type: 'object',
  propertyNames: { enum: ['request', 'count', 'atLeast', 'atMost', 'after'] },
  properties: {
    request: { $ref: 'RequestMatcher#' },
    count: COUNT,
    atLeast: COUNT,
    atMost: COUNT,
    after: { type: 'integer', minimum: 0, maximum: MAX_ID, description: 'Only entries with a greater id' },
  },
} as const;
export type JournalVerifyRequestT = FromSchema<typeof JournalVerifyRequest, { references: [typeof RequestMatcher] }>;

export const JournalCount = {
  $id: 'JournalCount',
  title: 'JournalCount',
  type: 'object',
  required: ['count'],
  additionalProperties: false,
  properties: { count: { type: 'integer' } },
} as const;

const Difference = {
  type: 'object',
  required: ['field', 'expected', 'actual'],
  additionalProperties: false,
  properties: {
    field: {
      type: 'string',
      description: 'The criterion missed: method, path, status, code, query.<name>, body.<path>, jsonPath.<path>, headers.<name>',
    },
    expected: { description: 'What the matcher asked for' },
    actual: { description: 'What the entry had' },
  },
} as const;

export const JournalVerifyResult = {
  $id: 'JournalVerifyResult',
  title: 'JournalVerifyResult',
  description:
    'verified: whether the count holds. When it does not: expected (the count asked), actual (how many matched), and the explanation a test prints: for too few, nearMisses, the closest entries that did not match (fewest and least weighty differences first, then newest) with the fields that differed; for too many, matched (the newest ten that did).',
  type: 'object',
  required: ['verified', 'actual'],
  additionalProperties: false,
  properties: {
    verified: { type: 'boolean' },
    actual: { type: 'integer' },
    expected: {
      type: 'object',
      additionalProperties: false,
      properties: { count: { type: 'integer' }, atLeast: { type: 'integer' }, atMost: { type: 'integer' } },
    },
    matched: { type: 'array', items: { $ref: 'JournalEntry#' } },
    nearMisses: {
      type: 'array',
      items: {
        type: 'object',
        required: ['entry', 'distance', 'differences'],
        additionalProperties: false,
        properties: {
          entry: { $ref: 'JournalEntry#' },
          distance: { type: 'number', description: 'Weighted number of criteria missed (method/path 3, status/code 2, others 1)' },
          differences: { type: 'array', items: Difference },
        },
      },
    },
  },
} as const;

export const JournalCleared = {
  $id: 'JournalCleared',
  title: 'JournalCleared',
  type: 'object',
  required: ['deleted'],
  additionalProperties: false,
  properties: { deleted: { type: 'integer', description: 'Entries deleted' } },
} as const;

const HarPairs = {
  type: 'array',
  items: {
    type: 'object',
    required: ['name', 'value'],
    additionalProperties: false,
    properties: { name: { type: 'string' }, value: { type: 'string' } },
  },
} as const;
const HarContent = {
  type: 'object',
  required: ['mimeType', 'text'],
  additionalProperties: false,
  properties: { size: { type: 'integer' }, mimeType: { type: 'string' }, text: { type: 'string' } },
} as const;

/** HAR 1.2 as obsim writes it (src/domain/har.ts): the journal's page, credentials redacted. */
export const JournalHar = {
  $id: 'JournalHar',
  title: 'JournalHar',
  description:
    "A page of the journal as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), oldest first; credentials redacted as in the journal. The journal keeps request headers only (not the answer's): each response lists the x-request-id it carried. `_nextCursor` (absent on the last page) fetches the next, older page.",
  type: 'object',
  required: ['log'],
  additionalProperties: false,
  properties: {
    log: {
      type: 'object',
      required: ['version', 'creator', 'entries'],
      additionalProperties: false,
      properties: {
        version: { type: 'string', const: '1.2' },
        creator: {
          type: 'object',
          required: ['name', 'version'],
          additionalProperties: false,
          properties: { name: { type: 'string' }, version: { type: 'string' } },
        },
        _nextCursor: { type: 'string' },
        entries: {
          type: 'array',
          items: {
            type: 'object',
            required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
            additionalProperties: false,
            properties: {
              startedDateTime: { type: 'string' },
              time: { type: 'number' },
              comment: { type: 'string' },
              cache: { type: 'object', additionalProperties: false, properties: {} },
              timings: {
                type: 'object',
                required: ['send', 'wait', 'receive'],
                additionalProperties: false,
                properties: { send: { type: 'number' }, wait: { type: 'number' }, receive: { type: 'number' } },
              },
              request: {
                type: 'object',
                required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
                additionalProperties: false,
                properties: {
                  method: { type: 'string' },
                  url: { type: 'string' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array', maxItems: 0, items: { type: 'object' } },
                  headers: HarPairs,
                  queryString: HarPairs,
                  postData: HarContent,
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                },
              },
              response: {
                type: 'object',
                required: [
                  'status',
                  'statusText',
                  'httpVersion',
                  'cookies',
                  'headers',
                  'content',
                  'redirectURL',
                  'headersSize',
                  'bodySize',
                ],
                additionalProperties: false,
                properties: {
                  status: { type: 'integer' },
                  statusText: { type: 'string' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array', maxItems: 0, items: { type: 'object' } },
                  headers: HarPairs,
                  content: HarContent,
                  redirectURL: { type: 'string' },
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

export const journalSchemas = [
  JournalEntry,
  JournalList,
  JournalHar,
  RequestMatcher,
  JournalCountRequest,
  JournalVerifyRequest,
  JournalCount,
  JournalVerifyResult,
  JournalCleared,
] as const;
