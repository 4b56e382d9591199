/**
 * Schemas of the contract versions obsim serves (/_sandbox/contract/*): obsim's own control API,
 * not the provider's (docs/contract-versions.md).
 */
import type { FromSchema } from 'json-schema-to-ts';

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

export const contractSchemas = [ContractVersionList] as const;
