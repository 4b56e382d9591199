/** Helpers for the scenario tests (not a test file: tap only runs *.test.ts). */
import type { FastifyInstance } from 'fastify';
import { validateScenario } from '../../src/scenarios/loader.js';
import { runScenario, type RunOptions, type ScenarioResult } from '../../src/scenarios/runner.js';
import { injectTransport, type Transport, type TransportResponse } from '../../src/scenarios/transport.js';
import type { Step } from '../../src/scenarios/types.js';

/** Run inline steps (validated like a file) in-process against `app`. */
export async function runSteps(
  app: FastifyInstance,
  steps: Step[],
  options: Partial<RunOptions> & { variables?: Record<string, unknown> } = {},
): Promise<ScenarioResult> {
  const scenario = validateScenario(
    { name: 'inline-test', steps, ...(options.variables ? { variables: options.variables } : {}) },
    'inline.yaml',
  );
  return runScenario(scenario, { transport: injectTransport(app), ...options });
}

/** The first failed step's message ('' when none failed). */
export function failure(result: ScenarioResult): string {
  return result.steps.find((s) => s.status === 'failed')?.message ?? result.error ?? '';
}

/** A fake transport answering from a function: for the runner's own edge cases. */
export function fakeTransport(answer: (method: string, path: string, body: unknown) => { status: number; json?: unknown }): Transport {
  return {
    description: 'fake',
    async request(req): Promise<TransportResponse> {
      const a = answer(req.method, req.path, req.body === undefined ? undefined : JSON.parse(req.body));
      const text = a.json === undefined ? '' : JSON.stringify(a.json);
      return { status: a.status, headers: { 'content-type': 'application/json' }, text, json: a.json };
    },
  };
}

export const TEST_MERCHANT: Step = {
  request: {
    method: 'POST',
    path: '/v1/partner/merchants/test',
    body: { companyName: 'Step Test ${unique}' },
    capture: { 'merchant.id': 'merchantId', 'merchant.clientId': 'clientId' },
  },
};
