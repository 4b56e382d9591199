/**
 * The scenario API's own schemas (POST /_sandbox/scenarios/run, GET /_sandbox/scenarios): what a
 * run takes and answers. The scenario file format itself is schemas/scenario.ts.
 */
import { STEP_KINDS } from './scenario.js';

export const ScenarioRunRequest = {
  $id: 'SandboxScenarioRunRequest',
  title: 'SandboxScenarioRunRequest',
  description:
    'Run a scenario inside the simulator with the calling partner credentials: `name` of a shipped scenario (GET /_sandbox/scenarios) or an inline `scenario` document (the scenario file format, as JSON). Exactly one of the two.',
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 100, description: 'A shipped scenario, e.g. `payment-paid`' },
    scenario: {
      type: 'object',
      description:
        'An inline scenario: `{ name, steps: [...] }`, checked against scenarios/scenario.schema.json (an unknown property at any depth is a 400 naming it)',
    },
    reset: { type: 'boolean', default: false, description: "POST /_sandbox/reset first (deletes ALL of the partner's data)" },
    isolate: {
      type: 'boolean',
      default: false,
      description: "Run in a fresh sandbox (its own data and clock), deleted afterwards; the caller's data and clock are untouched",
    },
    vars: {
      type: 'object',
      maxProperties: 100,
      propertyNames: { maxLength: 100 },
      additionalProperties: {
        type: ['string', 'number', 'boolean'],
        maxLength: 10_000,
        minimum: -Number.MAX_SAFE_INTEGER,
        maximum: Number.MAX_SAFE_INTEGER,
      },
      description: 'Variables set before the first step (`${name}` in the steps)',
    },
  },
} as const;

export const ScenarioStepResult = {
  $id: 'SandboxScenarioStepResult',
  title: 'SandboxScenarioStepResult',
  type: 'object',
  required: ['index', 'kind', 'label', 'status', 'durationMs'],
  additionalProperties: false,
  properties: {
    index: { type: 'integer', minimum: 1, description: '1-based step number' },
    kind: { type: 'string', enum: Object.keys(STEP_KINDS) },
    label: { type: 'string' },
    status: { type: 'string', enum: ['passed', 'failed', 'skipped'], description: 'Steps after a failed one are skipped' },
    durationMs: { type: 'integer', minimum: 0 },
    detail: { type: 'string', description: 'What happened, e.g. `POST /v1/partner/payments → 200`' },
    message: { type: 'string', description: 'Why the step failed, with the expected/actual diff' },
  },
} as const;

export const ScenarioRunResult = {
  $id: 'SandboxScenarioRunResult',
  title: 'SandboxScenarioRunResult',
  type: 'object',
  required: ['name', 'runId', 'passed', 'durationMs', 'startedAt', 'steps'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    runId: { type: 'string', description: 'Run id, also the `${run.id}` variable used in unique names' },
    passed: { type: 'boolean' },
    durationMs: { type: 'integer', minimum: 0 },
    startedAt: { type: 'string', format: 'date-time', description: 'Wall-clock start of the run' },
    steps: { type: 'array', items: { $ref: 'SandboxScenarioStepResult#' } },
    error: { type: 'string', description: 'Set when the run could not start (setup failed)' },
  },
} as const;

export const ScenarioList = {
  $id: 'SandboxScenarioList',
  title: 'SandboxScenarioList',
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'steps'],
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' } },
          covers: { type: 'array', items: { type: 'string' } },
          steps: { type: 'integer', description: 'Number of steps' },
        },
      },
    },
  },
} as const;

export const scenarioApiSchemas = [ScenarioRunRequest, ScenarioStepResult, ScenarioRunResult, ScenarioList] as const;
