/**
 * POST /_sandbox/scenarios/run: run a shipped or inline scenario inside the simulator, with the
 * caller's partner credentials, through app.inject (the same runner as `obsim scenario run`).
 * GET /_sandbox/scenarios: the shipped scenarios.
 *
 * POST /_sandbox/scenarios/import: a HAR file as a scenario (docs/partner-tools.md, "A HAR becomes a
 * scenario"), translated on a worker thread (src/har-import/off-thread.ts).
 *
 * Webhook expectations read the delivery log; the local receiver (--receiver) is a CLI feature.
 */
import type { FastifyInstance } from 'fastify';
import { commonResponseHeaders, errorResponses, responses } from '../../../schemas/common.js';
import { HarImportQuery } from '../../../schemas/har-import.js';
import { ApiError, invalidInput } from '../../domain/errors.js';
import { HarImportError } from '../../har-import/har.js';
import type { Doc } from '../../contracts/ids.js';
import { harImporter } from '../../har-import/off-thread.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import {
  expandPaths,
  findShippedScenario,
  loadScenarioFile,
  ScenarioLoadError,
  shippedScenariosDir,
  validateScenario,
} from '../../scenarios/loader.js';
import { runScenario } from '../../scenarios/runner.js';
import { injectTransport } from '../../scenarios/transport.js';
import type { Scenario } from '../../scenarios/types.js';

/** One HTTP request should not run for ever: bound inline scenarios (each wait is bounded too). */
export const MAX_INLINE_STEPS = 100;

/**
 * The one route that takes a body this large, deliberately: a browser's HAR of a long session
 * with its pages' assets inlined reaches tens of megabytes. Only its bytes are collected here;
 * parsing and translating it happen on the importer's thread (bound measured in docs/partner-tools.md).
 */
export const HAR_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

interface RunBody {
  name?: string;
  scenario?: Record<string, unknown>;
  reset?: boolean;
  isolate?: boolean;
  vars?: Record<string, unknown>;
}

export async function scenarioRoutes(app: FastifyInstance): Promise<void> {
  const common = { tags: ['sandbox'], security: partnerSecurity };
  await app.register(harImportRoute);

  app.get(
    '/scenarios',
    {
      schema: {
        ...common,
        operationId: 'listScenarios',
        summary: 'List the shipped scenarios',
        description:
          'The scenarios that ship with obsim (scenarios/*.yaml): the name, description, tags and step count of each, runnable by name with POST /_sandbox/scenarios/run.',
        response: responses({ $ref: 'SandboxScenarioList#' }),
      },
    },
    async () => ({
      items: expandPaths([shippedScenariosDir()]).map((file) => {
        const s = loadScenarioFile(file);
        return { name: s.name, description: s.description, tags: s.tags, covers: s.covers, steps: s.steps.length };
      }),
    }),
  );

  app.post<{ Body: RunBody }>(
    '/scenarios/run',
    {
      schema: {
        ...common,
        operationId: 'runScenario',
        summary: 'Run a shipped or inline scenario and return the result of every step',
        description:
          "Runs in-process with the calling partner credentials. A failed expectation is not an HTTP error: the answer is 200 with `passed: false` and the failed step `message`. An invalid inline scenario (or one of more than 100 steps) is a 400 naming the step; an unknown name a 404 scenario_not_found. Virtual time moves for the caller's sandbox when a step advances the clock. With `isolate: true` the scenario runs in a fresh sandbox (its own data and clock), deleted afterwards.",
        body: { $ref: 'SandboxScenarioRunRequest#' },
        response: responses({ $ref: 'SandboxScenarioRunResult#' }),
      },
    },
    async (request) => {
      const { name, scenario: inline, reset, vars, isolate } = request.body;
      if ((name === undefined) === (inline === undefined)) {
        throw invalidInput(name === undefined ? '/name' : '/scenario', 'Give exactly one of "name" or "scenario"');
      }
      let scenario: Scenario;
      if (name !== undefined) {
        const file = findShippedScenario(name);
        if (!file)
          throw new ApiError('scenario_not_found', {
            field: '/name',
            message: `No shipped scenario named ${name} (GET /_sandbox/scenarios lists them)`,
          });
        scenario = loadScenarioFile(file);
      } else {
        try {
          scenario = validateScenario(structuredClone(inline), 'scenario');
        } catch (err) {
          if (!(err instanceof ScenarioLoadError)) throw err;
          throw invalidInput(`/scenario${err.at ?? ''}`, err.message);
        }
        if (scenario.steps.length > MAX_INLINE_STEPS) {
          throw invalidInput(
            '/scenario/steps',
            `An inline scenario has at most ${MAX_INLINE_STEPS} steps (run longer ones with obsim scenario run)`,
          );
        }
      }
      const partner = {
        clientId: request.partner.clientId,
        clientSecret: String(request.headers['x-partner-client-secret']),
      };
      const adminKey = request.headers['x-obsim-admin-key'];
      const result = await runScenario(
        { ...scenario, file: undefined },
        {
          transport: injectTransport(app),
          partner,
          reset,
          vars,
          isolate: isolate ? { adminKey: typeof adminKey === 'string' ? adminKey : undefined } : false,
        },
      );
      const { file: _file, ...rest } = result;
      // what the HTML report shows (requests sent, clock, diffs) is not part of this answer
      const steps = rest.steps.map(({ exchanges: _x, at: _at, webhook: _w, mismatches: _m, ...step }) => step);
      return { ...rest, steps };
    },
  );
}

async function harImportRoute(app: FastifyInstance): Promise<void> {
  // the versions this obsim serves, through the registry: a HAR under one is read by its document
  const importer = harImporter(Object.fromEntries(app.contracts.list().map((v) => [v.name, v.document as unknown as Doc])));
  app.addHook('onClose', async () => importer.close());
  // the HAR's bytes as they came: JSON.parse of tens of megabytes is the importer thread's work
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/json', 'application/har+json'],
    { parseAs: 'buffer', bodyLimit: HAR_BODY_LIMIT_BYTES },
    (_req, body, done) => done(null, body),
  );
  app.post<{ Querystring: { name?: string; format?: 'yaml' | 'json' } }>(
    '/scenarios/import',
    {
      bodyLimit: HAR_BODY_LIMIT_BYTES,
      schema: {
        tags: ['sandbox'],
        security: partnerSecurity,
        operationId: 'importHarScenario',
        summary: 'A HAR file as a scenario that replays it',
        description:
          "The body is a HAR 1.2 file (application/json or application/har+json, up to 64 MB) recorded against the provider's sandbox, obsim or a shadow. Entries to the provider's API (matched against the served documents whatever the host) become request steps with the recorded bodies, statuses and states as expectations; ids and tokens an earlier answer handed out become captured variables; a state that changed with nothing sent becomes a clock advance; a hosted page of another layout the payer step for the outcome the HAR shows; credentials, cookies and secrets are left out (the replay uses the sandbox's own); an Obsim-Contract-Version header becomes contractVersion. Other entries are left out and counted, aborted ones skipped, requests the document does not allow imported and flagged, all said in the summary (comments atop the file, or `summary` with format=json). Translated on a worker thread, never on the thread that answers requests. Not JSON or cut short: 400 malformed_json; not HAR 1.2: 400 validation_failed naming the failing pointer; no entry for the provider's API: 422 unprocessable, nothing written. Not recorded in the journal.",
        querystring: HarImportQuery,
        body: { $ref: 'SandboxHarImportRequest#' },
        produces: ['application/yaml', 'application/json'],
        response: {
          ...errorResponses,
          200: {
            description: 'The scenario file (format=yaml), or it with its summary (format=json)',
            headers: commonResponseHeaders,
            content: {
              'application/yaml': {
                schema: { type: 'string', description: 'A scenario file (scenarios/scenario.schema.json), its summary in comments' },
              },
              'application/json': { schema: { $ref: 'SandboxHarImport#' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) {
        throw new ApiError('malformed_json', {
          field: '',
          message: 'not a HAR file: the body is empty (send the HAR as application/json)',
        });
      }
      let result;
      try {
        result = await importer.import(body, { name: request.query.name, origin: 'the HAR posted', settings: request.sandbox.settings });
      } catch (err) {
        if (!(err instanceof HarImportError)) throw err;
        if (err.kind === 'not_json') throw new ApiError('malformed_json', { field: '', message: err.message });
        if (err.kind === 'empty') throw new ApiError('unprocessable', { field: err.pointer, message: err.message });
        throw invalidInput(err.pointer, err.message);
      }
      if (request.query.format === 'json') return reply.type('application/json').send(result);
      return reply.type('application/yaml; charset=utf-8').send(result.yaml);
    },
  );
}
