/** Pact: provider states served by obsim and a sandbox's traffic as a pact (docs/pact.md). */

// A param's value before the state it is sent to checks its type (src/domain/pact.ts stateParams):
// a scalar, a list of scalars or null (not sent); bounded here like every value a request takes.
const SAFE_NUMBER = { minimum: -1e15, maximum: 1e15 } as const;
const StateParamValueSchema = {
  type: ['string', 'number', 'boolean', 'array', 'null'],
  maxLength: 10_000,
  ...SAFE_NUMBER,
  maxItems: 1000,
  items: { type: ['string', 'number', 'boolean'], maxLength: 10_000, ...SAFE_NUMBER },
  description: 'A scalar, a list of scalars, or null for the default',
} as const;

export const PactStateChange = {
  $id: 'SandboxPactStateChange',
  title: 'SandboxPactStateChange',
  description:
    "A Pact verifier's state-change request: the state an interaction names, its params, and whether to set it up or tear it down. An interaction without a state is sent with an empty name, which does nothing.",
  type: 'object',
  additionalProperties: false,
  required: ['state'],
  properties: {
    state: { type: 'string', maxLength: 500, description: 'The provider state (a name or a name a pattern matches); empty: nothing to do' },
    params: {
      type: 'object',
      maxProperties: 50,
      propertyNames: { type: 'string', maxLength: 200 },
      additionalProperties: StateParamValueSchema,
      description: 'Its params (Pact V3 and V4); each must be of the type the state declares',
    },
    action: { type: 'string', enum: ['setup', 'teardown'], default: 'setup', description: 'setup (default) or teardown' },
  },
} as const;

export const PactStateValues = {
  $id: 'SandboxPactStateValues',
  title: 'SandboxPactStateValues',
  description:
    'The values a state set up made (`{"merchantClientId": "…", "paymentId": 5000003}`): the verifier puts them where the pact says fromProviderState. Empty after a teardown or an empty state.',
  type: 'object',
  additionalProperties: true,
} as const;

const StateParamSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: { type: 'string', enum: ['string', 'number', 'integer', 'boolean', 'array'] },
    enum: { type: 'array', items: { type: ['string', 'number'] } },
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      description: "An array param's items",
      properties: {
        type: { type: 'string', enum: ['string', 'number', 'integer', 'boolean'] },
        enum: { type: 'array', items: { type: ['string', 'number'] } },
      },
    },
    default: { description: 'The value used when the param is not sent' },
    description: { type: 'string' },
  },
} as const;

export const PactStateList = {
  $id: 'SandboxPactStateList',
  title: 'SandboxPactStateList',
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: {
    items: {
      type: 'array',
      description: "The states this obsim sets up: the partner's (--pact-states) first, then the built-in ones",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'description', 'params', 'answers', 'source'],
        properties: {
          name: { type: 'string', description: 'The state name, or a pattern whose `{param}` placeholders take any text' },
          description: { type: 'string' },
          params: { type: 'object', additionalProperties: StateParamSchema, description: 'The params it takes, by name' },
          answers: {
            type: 'object',
            additionalProperties: { type: 'string' },
            description: 'The values it answers, by name, with what each is',
          },
          source: { type: 'string', description: '`built-in`, or the file of --pact-states it comes from' },
        },
      },
    },
  },
} as const;

export const PactExportQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    consumer: { type: 'string', minLength: 1, maxLength: 200, default: 'partner', description: "The pact's consumer name" },
    provider: { type: 'string', minLength: 1, maxLength: 200, default: 'provider', description: "The pact's provider name" },
  },
} as const;

export const PactDocument = {
  $id: 'SandboxPact',
  title: 'SandboxPact',
  description:
    "A Pact Specification v4 file (https://github.com/pact-foundation/pact-specification/tree/version-4): one synchronous HTTP interaction per distinct operation and answer the sandbox's journal holds.",
  type: 'object',
  additionalProperties: false,
  required: ['consumer', 'provider', 'interactions', 'metadata'],
  properties: {
    consumer: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    provider: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    interactions: { type: 'array', items: { type: 'object', additionalProperties: true } },
    metadata: { type: 'object', additionalProperties: true },
  },
} as const;

export const pactSchemas = [PactStateChange, PactStateValues, PactStateList, PactDocument] as const;
