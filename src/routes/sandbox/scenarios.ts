/**
 * POST /_sandbox/scenarios/run: run a shipped or inline scenario inside the simulator, with the
 * caller's partner credentials, through app.inject (the same runner as `obsim scenario run`).
 * GET /_sandbox/scenarios: the shipped scenarios.
 *
 * Webhook expectations read the delivery log; the local receiver (--receiver) is a CLI feature.
 */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import { ApiError, invalidInput } from '../../domain/errors.js';
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

interface RunBody {
  name?: string;
  scenario?: Record<string, unknown>;
  reset?: boolean;
  isolate?: boolean;
  vars?: Record<string, unknown>;
}

export async function scenarioRoutes(app: FastifyInstance): Promise<void> {
  const common = { tags: ['sandbox'], security: partnerSecurity };

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
