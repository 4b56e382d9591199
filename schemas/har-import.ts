/** POST /_sandbox/scenarios/import: a HAR file as a scenario (docs/partner-tools.md, "A HAR becomes a scenario"). */

const strings = (description: string) => ({ type: 'array', items: { type: 'string' }, description }) as const;

export const HarImportQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      pattern: '^[a-z0-9][a-z0-9-]*$',
      description: "The scenario's name (default imported-har)",
    },
    format: {
      type: 'string',
      enum: ['yaml', 'json'],
      default: 'yaml',
      description:
        'yaml: the scenario file itself (application/yaml), its summary in comments atop it. json: the file with its summary (SandboxHarImport).',
    },
  },
} as const;

export const HarImportRequest = {
  $id: 'SandboxHarImportRequest',
  title: 'SandboxHarImportRequest',
  type: 'object',
  description:
    'A HAR 1.2 file as browsers, proxies and obsim write it ({"log": {"version": "1.2", "creator": …, "entries": […]}}), up to 64 MB; validated against the registry\'s har-schema off the request path (a 400 names the first failing pointer).',
} as const;

export const HarImportSummary = {
  $id: 'SandboxHarImportSummary',
  title: 'SandboxHarImportSummary',
  type: 'object',
  additionalProperties: false,
  required: ['entries', 'taken', 'steps', 'leftOut', 'skipped', 'variables', 'notExpected', 'flagged', 'literals', 'inferred', 'unseen'],
  properties: {
    entries: { type: 'integer', minimum: 0, description: 'Entries in the HAR' },
    taken: {
      type: 'integer',
      minimum: 0,
      description: "Entries taken into the story: requests to the provider's API (and obsim's controls), and hosted-page visits",
    },
    steps: { type: 'integer', minimum: 0, description: 'Steps written' },
    leftOut: {
      type: 'array',
      description: "Entries left out, counted by reason (another host's pages, assets and analytics; CORS preflights)",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['reason', 'count'],
        properties: { reason: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
      },
    },
    skipped: strings('Entries that got no answer (status 0 or less, `_error`): skipped, a replay cannot expect no answer'),
    variables: strings('The variables the scenario captures, in order'),
    notExpected: {
      type: 'array',
      description: "Answers' fields not expected verbatim, grouped by why (times, ids handed out anew, echoes, links, secrets)",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['reason', 'keys'],
        properties: { reason: { type: 'string' }, keys: { type: 'array', items: { type: 'string' } } },
      },
    },
    flagged: strings(
      'Requests the document does not allow (an unknown path, a method the path does not take): imported as recorded; a contract version the importing obsim does not serve; a failure reason obsim does not have, and the one the replay uses instead',
    ),
    literals: strings('Ids a request used that no earlier answer handed out: kept as written'),
    inferred: strings(
      "Steps the HAR implies: clock advances where a state changed with nothing sent, payer steps for hosted pages of another provider's layout",
    ),
    unseen: strings('Hosted-page visits whose outcome the HAR does not show (no step)'),
    contractVersion: {
      type: 'string',
      description:
        'The Obsim-Contract-Version header the HAR carries (a request’s, else an answer’s), written as the scenario’s contractVersion',
    },
  },
} as const;

export const HarImport = {
  $id: 'SandboxHarImport',
  title: 'SandboxHarImport',
  type: 'object',
  additionalProperties: false,
  required: ['yaml', 'summary', 'lines'],
  properties: {
    yaml: { type: 'string', description: 'The scenario file, its summary in comments atop it (what format=yaml answers)' },
    summary: { $ref: 'SandboxHarImportSummary#' },
    lines: strings('The summary in words, a line each (as the CLI prints it)'),
  },
} as const;

export const harImportSchemas = [HarImportRequest, HarImportSummary, HarImport] as const;
