/**
 * The Pact verifier's state-change protocol, served by obsim (POST /_sandbox/pact/provider-states):
 * `{ state, params, action: setup | teardown }` for each state an interaction names. Setup finds
 * the state (a partner's from `--pact-states`, then a built-in one; a name, then a pattern),
 * checks its params, runs its steps with the scenario runner in the caller's sandbox and answers
 * the values it made, which the verifier puts where the pact says `fromProviderState`. Teardown
 * runs the state's own teardown steps, or resets the sandbox (POST /_sandbox/reset).
 */
import type { ValidateFunction } from 'ajv';
import { ApiError, invalidInput } from '../domain/errors.js';
import { statePattern, stateParams } from '../domain/pact.js';
import { lazyRequire } from '../lazy.js';
import type { PartnerCredentials } from '../scenarios/context.js';
import { runScenario } from '../scenarios/runner.js';
import type { Transport } from '../scenarios/transport.js';
import type { Step } from '../scenarios/types.js';
import type { ParamField, ProviderStateDefinition } from './state-definition.js';
import { BUILT_IN_STATES } from './states.js';

const ajvModule = lazyRequire<typeof import('ajv')>('ajv');
let ajv: import('ajv').Ajv | undefined;
const validators = new WeakMap<object, ValidateFunction>();

/**
 * Each param a request sends, checked as the provider checks that field (its schema, then its
 * rule) before any step runs: a value it refuses is a 400 naming `/params/<name>` and nothing is
 * built, instead of a 409 from a step halfway through with the earlier steps' data left behind.
 */
function checkFields(fields: Readonly<Record<string, ParamField>>, params: Readonly<Record<string, unknown>>): void {
  for (const [name, { schema, rule }] of Object.entries(fields)) {
    const value = params[name];
    if (value === undefined) continue;
    let validate = validators.get(schema);
    if (!validate) {
      ajv ??= new (ajvModule().Ajv)({ strict: false, allErrors: false });
      validators.set(schema, (validate = ajv.compile(schema)));
    }
    if (!validate(value)) {
      const error = validate.errors?.[0];
      const where = error?.instancePath ? ` (${error.instancePath.slice(1)})` : '';
      throw invalidInput(`/params/${name}`, `params.${name}${where} ${error?.message ?? 'is not valid'}; got ${JSON.stringify(value)}`);
    }
    try {
      rule?.(value);
    } catch (err) {
      if (err instanceof ApiError) throw invalidInput(`/params/${name}`, `params.${name}: ${err.message}`);
      throw err;
    }
  }
}

export interface StateChange {
  state: string;
  params?: Record<string, unknown>;
  action?: 'setup' | 'teardown';
}

export interface StateCaller {
  transport: Transport;
  partner: PartnerCredentials;
  /** The caller's sandbox (its engine world): what obsim remembers between state changes is keyed by it. */
  sandbox: object;
}

export interface ProviderStates {
  /** The partner's states first, then the built-in ones. */
  list(): readonly ProviderStateDefinition[];
  /** Set a state up (its values) or tear it down (`{}`); an empty state name builds nothing. */
  change(change: StateChange, caller: StateCaller): Promise<Record<string, unknown>>;
}

/** Runs `steps` as a scenario in the caller's sandbox; its variables, or a 409 naming the step that failed. */
async function run(state: string, steps: Step[], vars: Record<string, unknown>, caller: StateCaller): Promise<Record<string, unknown>> {
  let seen: Readonly<Record<string, unknown>> = {};
  const result = await runScenario(
    { name: `pact state: ${state}`, steps },
    { transport: caller.transport, partner: caller.partner, vars, onVariables: (v) => (seen = v) },
  );
  if (!result.passed) {
    const failed = result.steps.find((s) => s.status === 'failed');
    throw new ApiError('provider_state_failed', {
      field: '/state',
      message: `The provider state ${JSON.stringify(state)} could not be built: ${failed ? `step ${failed.index} (${failed.label}): ${failed.message}` : (result.error ?? 'its setup failed')}`,
    });
  }
  return { ...seen };
}

export function providerStates(partnerStates: readonly ProviderStateDefinition[]): ProviderStates {
  const all = [...partnerStates, ...BUILT_IN_STATES];
  const patterns = all.map((definition) => ({ definition, pattern: statePattern(definition.name) }));

  function find(state: string): { definition: ProviderStateDefinition; fromName: Record<string, string> } {
    const exact = all.find((d) => d.name === state);
    if (exact) return { definition: exact, fromName: {} };
    for (const { definition, pattern } of patterns) {
      const fromName = pattern.placeholders.length ? pattern.match(state) : undefined;
      if (fromName) return { definition, fromName };
    }
    throw new ApiError('unknown_provider_state', {
      field: '/state',
      message: `No provider state ${JSON.stringify(state)}: the known states are ${all.map((d) => JSON.stringify(d.name)).join(', ')} (GET /_sandbox/pact/provider-states lists them with their params)`,
    });
  }

  /**
   * Sandboxes where an interaction without a state ran since the last reset. Its teardown (an empty
   * state name) builds and resets nothing, so what the interaction itself made (a merchant it
   * created) would be in the next interaction's state: the next setup resets the sandbox first.
   */
  const usedWithoutState = new WeakSet<object>();

  return {
    list: () => all,
    async change(change, caller) {
      const teardown = (change.action ?? 'setup') === 'teardown';
      if (change.state === '') {
        if (teardown) usedWithoutState.add(caller.sandbox);
        return {};
      }
      const { definition, fromName } = find(change.state);
      const params = stateParams(definition.params, fromName, change.params ?? {});
      checkFields(definition.fields ?? {}, params);
      if (teardown) {
        usedWithoutState.delete(caller.sandbox);
        await run(change.state, definition.teardown ?? [{ control: { reset: true } }], params, caller);
        return {};
      }
      const plan = definition.plan(params);
      if (usedWithoutState.delete(caller.sandbox)) await run(change.state, [{ control: { reset: true } }], params, caller);
      const vars = await run(change.state, plan.steps, params, caller);
      const more = plan.then?.(vars) ?? [];
      if (more.length) await run(change.state, more, params, caller);
      const answers = plan.answers(vars);
      return Object.fromEntries(Object.entries(answers).filter(([, v]) => v !== undefined));
    },
  };
}
