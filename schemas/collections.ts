/**
 * Schemas of the collections for partners' own tools (/_sandbox/collections/*): obsim's control
 * API, not the provider's (docs/partner-tools.md). A collection is described here by what obsim
 * guarantees of it; its full format is Postman's (Collection Format v2.1), which its tests check
 * with the published JSON schema.
 */
import { ENVIRONMENT_VARIABLES } from '../src/domain/collection-environment.js';

export const CollectionQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    version: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description:
        "The contract version whose served document the collection is made from (GET /_sandbox/contract/versions; default: the sandbox's pin, else base). Every provider request of it sends Obsim-Contract-Version: {{contractVersion}}.",
    },
  },
} as const;

export const PostmanCollection = {
  $id: 'PostmanCollection',
  title: 'PostmanCollection',
  description:
    'A Postman Collection v2.1 (https://schema.getpostman.com/json/collection/v2.1.0/collection.json) of the served document: converted by openapi-to-postmanv2 (a folder per tag, the example bodies), made runnable by obsim (variables, chained ids, checks, a Flows folder).',
  type: 'object',
  required: ['info', 'item', 'variable', 'event'],
  additionalProperties: true,
  properties: {
    info: {
      type: 'object',
      required: ['name', 'schema'],
      additionalProperties: true,
      properties: {
        name: { type: 'string' },
        schema: { type: 'string', const: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      },
    },
    item: {
      type: 'array',
      items: { type: 'object', required: ['name'], additionalProperties: true, properties: { name: { type: 'string' } } },
    },
    variable: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'value'],
        additionalProperties: true,
        properties: { key: { type: 'string' }, value: { type: 'string' } },
      },
    },
    event: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
} as const;

export const PostmanEnvironment = {
  $id: 'PostmanEnvironment',
  title: 'PostmanEnvironment',
  description:
    "A Postman environment for the caller's sandbox, as Postman exports one: where obsim answers, the credentials the request was made with (secret-typed), the default merchant, the contract version and the settlement delay.",
  type: 'object',
  required: ['id', 'name', 'values', '_postman_variable_scope'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    values: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'value', 'type', 'enabled'],
        additionalProperties: false,
        properties: {
          key: {
            type: 'string',
            enum: [...ENVIRONMENT_VARIABLES],
          },
          value: { type: 'string' },
          type: { type: 'string', enum: ['default', 'secret'], description: 'secret: the credentials (Postman masks them)' },
          enabled: { type: 'boolean' },
        },
      },
    },
    _postman_variable_scope: { type: 'string', const: 'environment' },
    _postman_exported_at: { type: 'string', format: 'date-time', description: 'Now on the sandbox clock' },
    _postman_exported_using: { type: 'string' },
  },
} as const;

export const collectionSchemas = [PostmanCollection, PostmanEnvironment] as const;
