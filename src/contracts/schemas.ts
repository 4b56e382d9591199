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

/** How a value is made (a new answer field's, an answer header's); `constant`: what a constant may be. */
const valueSource = <C extends object>(constant: C) =>
  ({
    oneOf: [
      { type: 'object', required: ['const'], additionalProperties: false, properties: { const: constant } },
      { type: 'object', required: ['copy'], additionalProperties: false, properties: { copy: POINTER } },
      { type: 'object', required: ['template'], additionalProperties: false, properties: { template: { type: 'string' } } },
      {
        type: 'object',
        required: ['generate'],
        additionalProperties: false,
        properties: { generate: { enum: ['uuid', 'now'] }, from: POINTER },
      },
    ],
  }) as const;

/** An HTTP header's name (RFC 9110 token). */
const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$";

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
          headers: {
            type: 'object',
            propertyNames: { pattern: HEADER_NAME },
            additionalProperties: valueSource({ type: ['string', 'number', 'boolean'] }),
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
          value: valueSource({}),
        },
      },
    },
  },
} as const;
