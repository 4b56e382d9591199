/**
 * Schemas of the contract versions obsim serves (/_sandbox/contract/*): obsim's own control API,
 * not the provider's (docs/contract-versions.md).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { CHANGE_KINDS } from '../src/domain/contract-changes.js';
import { SandboxParam } from './readiness.js';

const OPERATION_REF = {
  operationId: { type: 'string' },
  method: { type: 'string' },
  path: { type: 'string', description: 'As the document writes it: /v1/partner/payments/{paymentId}/status' },
} as const;

export const ContractVersionList = {
  $id: 'ContractVersionList',
  title: 'ContractVersionList',
  description:
    "The contract versions this obsim serves, the base (the provider's document) first, then those of --contracts in name order. Each is served as its own document at /openapi.json?version=NAME.",
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'title', 'document', 'deprecations', 'sunsets'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', description: 'What Obsim-Contract-Version, a sandbox, a scenario and the CLI name it by' },
          title: { type: 'string', description: "The overlay's info.title" },
          file: { type: 'string', description: 'The version file it was loaded from; absent for the base' },
          document: { type: 'string', description: 'Where its OpenAPI document is served' },
          deprecations: {
            type: 'array',
            description: "Operations and fields this version marks deprecated: true, with the Deprecation header's instant",
            items: {
              type: 'object',
              required: ['operationId', 'method', 'path', 'deprecatedAt'],
              additionalProperties: false,
              properties: {
                ...OPERATION_REF,
                field: {
                  type: 'string',
                  description:
                    'A deprecated field of the operation (request body: /x, answer: /x, query or header: the name); absent: the operation itself',
                },
                in: { type: 'string', enum: ['request', 'answer', 'query', 'header'] },
                deprecatedAt: { type: 'string', format: 'date-time' },
              },
            },
          },
          sunsets: {
            type: 'array',
            description: 'Operations that answer 410 operation_sunset from this instant on the sandbox clock',
            items: {
              type: 'object',
              required: ['operationId', 'method', 'path', 'sunsetAt'],
              additionalProperties: false,
              properties: { ...OPERATION_REF, sunsetAt: { type: 'string', format: 'date-time' } },
            },
          },
        },
      },
    },
  },
} as const;
export type ContractVersionListT = FromSchema<typeof ContractVersionList>;

const VERSION_NAME = { type: 'string', minLength: 1, maxLength: 64 } as const;
const FORMAT = {
  type: 'string',
  enum: ['json', 'markdown'],
  default: 'json',
  description: 'json: the document below; markdown: a table for a pull request or a changelog page (text/markdown)',
} as const;

export const ContractChangelogQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to'],
  properties: {
    from: { ...VERSION_NAME, description: "The version upgraded from (`base`: the provider's document)" },
    to: { ...VERSION_NAME, description: 'The version upgraded to' },
    format: FORMAT,
  },
} as const;

export const ContractImpactQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['to'],
  properties: {
    to: { ...VERSION_NAME, description: 'The version to upgrade to' },
    sandbox: {
      ...SandboxParam,
      description: `${SandboxParam.description}: the sandbox whose traffic is read; without it, the caller's own`,
    },
    format: {
      ...FORMAT,
      enum: ['json', 'markdown', 'junit'],
      description: `${FORMAT.description}; junit: one failing test case per touched breaking change (application/xml)`,
    },
  },
} as const;

const EVIDENCE = {
  type: 'object',
  required: ['count', 'first'],
  additionalProperties: false,
  properties: {
    count: { type: 'integer', minimum: 1 },
    first: { type: 'array', maxItems: 5, items: { type: 'integer' }, description: 'The first ids, oldest first' },
  },
} as const;

const SCALAR = { type: ['string', 'number', 'boolean', 'null'] } as const;

const CHANGE_PROPERTIES = {
  id: { type: 'string', description: 'Stable within a changelog: the kind and where' },
  kind: { type: 'string', enum: CHANGE_KINDS },
  breaking: {
    type: 'boolean',
    description: 'Whether a client written against `from` can stop working under `to` (docs/contract-versions.md, "Verdicts")',
  },
  rule: { type: 'string', description: "The verdict's rule: oasdiff's check id, or obsim-… for what oasdiff does not check" },
  place: { type: 'string', enum: ['request', 'query', 'header', 'answer', 'answer-header', 'webhook'] },
  operationId: { type: 'string' },
  method: { type: 'string' },
  path: { type: 'string' },
  event: { type: 'string', description: 'A webhook event' },
  status: { type: 'string', description: 'The status key as the document writes it (200, 4XX)' },
  field: {
    type: 'string',
    description: 'RFC 6901 pointer into the body (* for every item of an array); for a query parameter or header, its name',
  },
  value: { ...SCALAR, description: 'The enum value, or the value now (or no longer) sent' },
  when: {
    type: 'object',
    required: ['field', 'equals'],
    additionalProperties: false,
    properties: { field: { type: 'string' }, equals: {} },
    description: 'A value now sent only when this field of the answer holds this value',
  },
  before: { type: 'string' },
  after: { type: 'string' },
  fromPointer: { type: 'string', description: "JSON pointer into the from version's document (or its file, for a switch)" },
  toPointer: { type: 'string', description: "JSON pointer into the to version's document (or its file, for a switch)" },
  source: { type: 'string', enum: ['document', 'switches'] },
  description: { type: 'string' },
} as const;
const CHANGE_REQUIRED = ['id', 'kind', 'breaking', 'rule', 'source', 'description'] as const;

export const ContractChangelog = {
  $id: 'ContractChangelog',
  title: 'ContractChangelog',
  description: 'Every change from one contract version to another, each with its kind, a pointer into each side and its verdict.',
  type: 'object',
  required: ['from', 'to', 'summary', 'changes'],
  additionalProperties: false,
  properties: {
    from: { type: 'string' },
    to: { type: 'string' },
    summary: {
      type: 'object',
      required: ['changes', 'breaking'],
      additionalProperties: false,
      properties: { changes: { type: 'integer', minimum: 0 }, breaking: { type: 'integer', minimum: 0 } },
    },
    changes: {
      type: 'array',
      items: { type: 'object', required: CHANGE_REQUIRED, additionalProperties: false, properties: CHANGE_PROPERTIES },
    },
  },
} as const;
export type ContractChangelogT = FromSchema<typeof ContractChangelog>;

export const ContractImpact = {
  $id: 'ContractImpact',
  title: 'ContractImpact',
  description:
    'What upgrading to a version changes for this sandbox: the changes its own traffic touched (journal entries and webhook deliveries), each with its evidence and verdict; the others counted.',
  type: 'object',
  required: ['sandboxId', 'to', 'generatedAt', 'traffic', 'touched', 'breaking', 'untouched', 'verdict'],
  additionalProperties: false,
  properties: {
    sandboxId: { type: 'string' },
    to: { type: 'string' },
    generatedAt: { type: 'string', format: 'date-time' },
    traffic: {
      type: 'object',
      required: ['entries', 'deliveries', 'unreadBodies', 'journalTruncated', 'versions', 'unknownVersions'],
      additionalProperties: false,
      properties: {
        entries: { type: 'integer', minimum: 0, description: "Journal entries of the provider's operations read" },
        deliveries: { type: 'integer', minimum: 0, description: 'Webhook deliveries attempted' },
        unreadBodies: {
          type: 'integer',
          minimum: 0,
          description: 'Entries whose body the journal kept only in part: their fields are not read',
        },
        journalTruncated: {
          type: 'boolean',
          description: 'The journal dropped older entries (its bounds): what they showed is not judged',
        },
        versions: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'entries', 'deliveries'],
            additionalProperties: false,
            properties: { name: { type: 'string' }, entries: { type: 'integer' }, deliveries: { type: 'integer' } },
          },
        },
        unknownVersions: {
          type: 'array',
          items: { type: 'string' },
          description: 'Versions the traffic ran under that are no longer loaded',
        },
      },
    },
    touched: {
      type: 'array',
      items: {
        type: 'object',
        required: [...CHANGE_REQUIRED, 'from', 'evidence'],
        additionalProperties: false,
        properties: {
          ...CHANGE_PROPERTIES,
          from: { type: 'string', description: 'The version the touching traffic ran under' },
          evidence: {
            type: 'object',
            additionalProperties: false,
            properties: {
              entries: { ...EVIDENCE, description: 'Journal entries (GET /_sandbox/requests/{id})' },
              deliveries: { ...EVIDENCE, description: 'Deliveries (GET /_sandbox/deliveries/{id})' },
            },
          },
        },
      },
    },
    breaking: { type: 'integer', minimum: 0, description: 'Touched changes that break a client' },
    untouched: {
      type: 'object',
      required: ['count', 'breaking'],
      additionalProperties: false,
      properties: { count: { type: 'integer', minimum: 0 }, breaking: { type: 'integer', minimum: 0 } },
    },
    verdict: { type: 'string', enum: ['breaking', 'clear'], description: 'breaking: a touched change breaks a client; clear: none does' },
  },
} as const;
export type ContractImpactT = FromSchema<typeof ContractImpact>;

export const contractSchemas = [ContractVersionList, ContractChangelog, ContractImpact] as const;
