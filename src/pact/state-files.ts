/**
 * A partner's own Pact provider states (`--pact-states DIR`, OBSIM_PACT_STATES): each YAML or JSON
 * file of the folder lists states, each a name (or a pattern with `{param}` placeholders) mapped
 * to scenario steps (the step language of scenarios, its params as variables) and the values it
 * answers (templates over the run's variables). Read once at start; a file obsim cannot use stops
 * the start naming the file and an RFC 6901 pointer into it.
 *
 *   states:
 *     - name: a shop with a paid order {reference}
 *       params: { amount: { type: number, default: 25 } }
 *       steps:
 *         - request: { method: POST, path: /v1/partner/merchants/test, body: { companyName: Shop }, capture: { shop: clientId } }
 *         - request: { method: POST, path: /v1/partner/payments, body: { merchantClientId: "${shop}", amount: "${amount}", referenceNumber: "${reference}" }, capture: { paymentId: paymentId } }
 *       answers: { paymentId: "${paymentId}", merchantClientId: "${shop}" }
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pointerToken } from '../domain/drift.js';
import { statePattern, type StateParam } from '../domain/pact.js';
import { lazyRequire } from '../lazy.js';
import { ScenarioLoadError, validateScenario } from '../scenarios/loader.js';
import type { Step } from '../scenarios/types.js';
import type { ProviderStateDefinition } from './state-definition.js';

const yaml = lazyRequire<typeof import('yaml')>('yaml');

/** The variable the answers are rendered into by a last `set` step. */
export const ANSWERS_VARIABLE = 'pact.answers';

export class PactStatesFileError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    readonly problem: string,
  ) {
    super(`pact states ${file}${pointer === '' ? '' : ` at ${pointer}`}: ${problem}`);
  }
}

const PARAM_TYPES = ['string', 'number', 'integer', 'boolean', 'array'] as const;
const STATE_KEYS = new Set(['name', 'description', 'params', 'steps', 'answers', 'teardown']);
const PARAM_KEYS = new Set(['type', 'enum', 'items', 'default', 'description']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkSteps(file: string, at: string, steps: unknown): Step[] {
  if (!Array.isArray(steps)) throw new PactStatesFileError(file, at, 'must be a list of scenario steps');
  if (steps.length === 0) return [];
  try {
    return validateScenario(structuredClone({ name: 'pact-state', steps }), file).steps;
  } catch (err) {
    if (!(err instanceof ScenarioLoadError)) throw err;
    throw new PactStatesFileError(file, `${at}${(err.at ?? '').replace(/^\/steps/, '')}`, err.reason);
  }
}

/** An array param says what it holds (`items: { type, enum? }`), so a wrong list is refused naming its param. */
function checkItems(file: string, at: string, items: unknown): void {
  if (!isObject(items)) throw new PactStatesFileError(file, at, 'an array param needs items: { type, enum? }');
  for (const key of Object.keys(items))
    if (key !== 'type' && key !== 'enum')
      throw new PactStatesFileError(file, `${at}/${pointerToken(key)}`, `unknown property ${JSON.stringify(key)}`);
  if (!(PARAM_TYPES as readonly unknown[]).includes(items.type) || items.type === 'array')
    throw new PactStatesFileError(file, `${at}/type`, `type must be one of ${PARAM_TYPES.filter((t) => t !== 'array').join(', ')}`);
  if (items.enum !== undefined && !Array.isArray(items.enum)) throw new PactStatesFileError(file, `${at}/enum`, 'enum must be a list');
}

function checkParams(file: string, at: string, raw: unknown): Record<string, StateParam> {
  if (raw === undefined) return {};
  if (!isObject(raw))
    throw new PactStatesFileError(file, at, 'params must be an object of param name -> { type, enum?, items?, default?, description? }');
  const out: Record<string, StateParam> = {};
  for (const [name, param] of Object.entries(raw)) {
    const here = `${at}/${pointerToken(name)}`;
    if (!isObject(param)) throw new PactStatesFileError(file, here, 'a param is an object { type, enum?, items?, default?, description? }');
    for (const key of Object.keys(param))
      if (!PARAM_KEYS.has(key))
        throw new PactStatesFileError(file, `${here}/${pointerToken(key)}`, `unknown property ${JSON.stringify(key)}`);
    if (!(PARAM_TYPES as readonly unknown[]).includes(param.type))
      throw new PactStatesFileError(file, `${here}/type`, `type must be one of ${PARAM_TYPES.join(', ')}`);
    if (param.enum !== undefined && !Array.isArray(param.enum)) throw new PactStatesFileError(file, `${here}/enum`, 'enum must be a list');
    if (param.type === 'array') checkItems(file, `${here}/items`, param.items);
    else if (param.items !== undefined) throw new PactStatesFileError(file, `${here}/items`, 'only an array param has items');
    out[name] = param as unknown as StateParam;
  }
  return out;
}

function stateOf(file: string, raw: unknown, index: number): ProviderStateDefinition {
  const at = `/states/${index}`;
  if (!isObject(raw)) throw new PactStatesFileError(file, at, 'a state is an object { name, params?, steps, answers?, teardown? }');
  for (const key of Object.keys(raw))
    if (!STATE_KEYS.has(key)) throw new PactStatesFileError(file, `${at}/${pointerToken(key)}`, `unknown property ${JSON.stringify(key)}`);
  if (typeof raw.name !== 'string' || raw.name.trim() === '')
    throw new PactStatesFileError(file, `${at}/name`, 'name must be a non-empty string');
  const params = checkParams(file, `${at}/params`, raw.params);
  for (const placeholder of statePattern(raw.name).placeholders)
    if (!Object.hasOwn(params, placeholder)) params[placeholder] = { type: 'string', description: 'from the state name' };
  const steps = checkSteps(file, `${at}/steps`, raw.steps);
  if (raw.answers !== undefined && !isObject(raw.answers))
    throw new PactStatesFileError(
      file,
      `${at}/answers`,
      'answers must be an object of value name -> template, e.g. { paymentId: "${paymentId}" }',
    );
  const answers = raw.answers ?? {};
  const teardown = raw.teardown === undefined ? undefined : checkSteps(file, `${at}/teardown`, raw.teardown);
  return {
    name: raw.name,
    description: typeof raw.description === 'string' ? raw.description : `A state of ${file}`,
    params,
    answers: Object.fromEntries(Object.keys(answers).map((k) => [k, `from ${file}`])),
    source: file,
    plan: () => ({
      steps: Object.keys(answers).length ? [...steps, { set: { [ANSWERS_VARIABLE]: answers } }] : steps,
      answers: (vars) => (vars[ANSWERS_VARIABLE] as Record<string, unknown> | undefined) ?? {},
    }),
    ...(teardown ? { teardown } : {}),
  };
}

/** Every state of the folder's YAML and JSON files, in file-name order. */
export function loadStateFiles(dir: string): ProviderStateDefinition[] {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => /\.(ya?ml|json)$/i.test(n))
      .sort();
  } catch (err) {
    throw new PactStatesFileError(dir, '', `cannot read the folder: ${(err as Error).message}`);
  }
  const states: ProviderStateDefinition[] = [];
  for (const name of names) {
    const file = join(dir, name);
    let doc: unknown;
    try {
      doc = yaml().parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new PactStatesFileError(file, '', `not YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
    }
    if (!isObject(doc) || !Array.isArray(doc.states))
      throw new PactStatesFileError(file, '/states', 'a file lists its states under "states"');
    for (const key of Object.keys(doc))
      if (key !== 'states') throw new PactStatesFileError(file, `/${pointerToken(key)}`, `unknown property ${JSON.stringify(key)}`);
    doc.states.forEach((raw, i) => states.push(stateOf(file, raw, i)));
  }
  return states;
}
