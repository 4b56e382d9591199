/**
 * The shapes a contract version file must have: the Overlay 1.0 document (as the standard's own
 * JSON Schema, spec.openapis.org/overlay/1.0/schema/2024-10-22, says it) and obsim's `x-obsim`
 * switches (docs/contract-versions.md).
 */
const EXTENSIONS = { patternProperties: { '^x-': {} } } as const;

export const OVERLAY_SCHEMA = {
  type: 'object',
  required: ['overlay', 'info', 'actions'],
  properties: {
    overlay: { type: 'string', pattern: '^1\\.0\\.\\d+$' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: { type: 'string' }, version: { type: 'string' } },
      ...EXTENSIONS,
      additionalProperties: false,
    },
    extends: { type: 'string' },
    actions: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['target'],
        properties: {
          target: { type: 'string', pattern: '^\\$' },
          description: { type: 'string' },
          update: { type: ['string', 'boolean', 'object', 'array', 'number', 'null'] },
          remove: { type: 'boolean', default: false },
        },
        ...EXTENSIONS,
        additionalProperties: false,
      },
    },
  },
  ...EXTENSIONS,
  additionalProperties: false,
} as const;

// an instant is checked with Date.parse where it is read (src/contracts/load.ts)
const INSTANT = { type: 'string', minLength: 10, maxLength: 40 } as const;
const POINTER = { type: 'string', pattern: '^(/[^/]*)+$', maxLength: 300 } as const;

export const SWITCHES_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    deprecatedAt: INSTANT,
    docs: { type: 'string', maxLength: 2000 },
    operations: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          deprecatedAt: INSTANT,
          sunsetAt: INSTANT,
          status: {
            type: 'object',
            propertyNames: { pattern: '^[1-5][0-9][0-9]$' },
            additionalProperties: { type: 'integer', minimum: 100, maximum: 599 },
          },
        },
      },
    },
    answers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['in', 'field'],
        additionalProperties: false,
        properties: {
          in: { type: 'string', minLength: 1, maxLength: 200 },
          field: POINTER,
          description: { type: 'string' },
          remove: { type: 'boolean', const: true },
          send: { type: ['string', 'number', 'boolean', 'null'] },
          when: {
            type: 'object',
            required: ['field', 'equals'],
            additionalProperties: false,
            properties: { field: POINTER, equals: {} },
          },
          value: {
            oneOf: [
              { type: 'object', required: ['const'], additionalProperties: false, properties: { const: {} } },
              { type: 'object', required: ['copy'], additionalProperties: false, properties: { copy: POINTER } },
              { type: 'object', required: ['template'], additionalProperties: false, properties: { template: { type: 'string' } } },
              {
                type: 'object',
                required: ['generate'],
                additionalProperties: false,
                properties: { generate: { enum: ['uuid', 'now'] }, from: POINTER },
              },
            ],
          },
        },
      },
    },
  },
} as const;
