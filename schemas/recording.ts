/** GET /_sandbox/scenario-draft: a sandbox's journal as a scenario file (docs/scenarios-and-cli.md, "Recording a session"). */
import { SandboxParam } from './readiness.js';

const bound = (which: string) =>
  ({
    type: 'string',
    minLength: 1,
    maxLength: 128,
    description: `A journal entry id (an integer, as \`id\` in GET /_sandbox/requests) or an entry's \`requestId\` (its x-request-id), inclusive; or an ISO 8601 instant on the sandbox clock: record ${which}`,
  }) as const;

export const ScenarioDraftQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    sandbox: { ...SandboxParam, description: `${SandboxParam.description}: the sandbox to record; without it, the caller's own` },
    since: bound('from here on'),
    until: bound('up to here'),
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      pattern: '^[a-z0-9][a-z0-9-]*$',
      description: "The scenario's name (default recorded-<sandbox id>)",
    },
    format: {
      type: 'string',
      enum: ['yaml', 'json'],
      default: 'yaml',
      description:
        'yaml: the scenario file itself (application/yaml). json: the file with the number of steps, what was read and the warnings (SandboxScenarioDraft).',
    },
  },
} as const;

export const ScenarioDraft = {
  $id: 'SandboxScenarioDraft',
  title: 'SandboxScenarioDraft',
  type: 'object',
  additionalProperties: false,
  required: ['yaml', 'steps', 'warnings', 'entries', 'deliveries'],
  properties: {
    yaml: { type: 'string', description: 'The scenario file, comments included (what format=yaml answers)' },
    steps: {
      type: 'integer',
      minimum: 0,
      description: 'Steps written; 0 when there was nothing to record (the file is then comments only)',
    },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description:
        'What is missing or may not replay: an empty range, entries the journal had dropped, deliveries to webhooks registered before the range',
    },
    entries: { type: 'integer', description: 'Journal entries read' },
    deliveries: { type: 'integer', description: 'Webhook deliveries read' },
  },
} as const;

export const recordingSchemas = [ScenarioDraft] as const;
