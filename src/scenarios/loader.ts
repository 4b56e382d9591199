/**
 * Scenario loader: read a YAML or JSON file, validate it against the scenario schema
 * (schemas/scenario.ts) and answer a typed Scenario, or throw ScenarioLoadError naming the
 * file, the step number (1-based) and the reason.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pointer, type JsonPointer } from '../domain/errors.js';
import { lazyRequire } from '../lazy.js';
import { packageRoot } from '../package-root.js';
import { CONTROL_TARGETS, ScenarioSchema, STEP_KINDS, type StepKind } from '../../schemas/scenario.js';
import type { Scenario } from './types.js';

const ajvModule = lazyRequire<typeof import('ajv')>('ajv');
const ajvFormats = lazyRequire<typeof import('ajv-formats')>('ajv-formats');

export class ScenarioLoadError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly step?: number,
    /** Where in the scenario document (an RFC 6901 pointer), when the problem is in one place. */
    readonly at?: JsonPointer,
  ) {
    super(`${file}${step !== undefined ? `: step ${step}` : ''}: ${reason}`);
  }
}

export const KINDS = Object.keys(STEP_KINDS) as StepKind[];

/** yaml is loaded with the first scenario file, not at start-up. */
const yaml = lazyRequire<typeof import('yaml')>('yaml');

// the scenario validators are compiled on first use: compiling them at import cost every
// `obsim serve` ~0.2 s of CPU before its first answer
let validators: { top: ValidateFunction; steps: Map<StepKind, ValidateFunction> } | undefined;
function scenarioValidators() {
  if (!validators) {
    const { Ajv } = ajvModule(); // loaded with the first scenario file, not at start-up
    const ajv = new Ajv({ strict: false, allErrors: false, allowUnionTypes: true });
    // date-time in a faults step's windows: checked, and no "unknown format" warning on every run
    (ajvFormats() as unknown as { default: (a: unknown) => void }).default(ajv);
    const { definitions: _unused, ...topSchema } = ScenarioSchema;
    validators = {
      top: ajv.compile(topSchema),
      steps: new Map<StepKind, ValidateFunction>(KINDS.map((k) => [k, ajv.compile(STEP_KINDS[k] as object)])),
    };
  }
  return validators;
}

function describeError(e: ErrorObject, prefix: string): string {
  const at = e.instancePath
    .split('/')
    .slice(1)
    .reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc === '' ? s : `${acc}.${s}`), '');
  const where = [prefix, at].filter(Boolean).join('.');
  switch (e.keyword) {
    case 'required':
      return `missing required field "${[where, String(e.params.missingProperty)].filter(Boolean).join('.')}"`;
    case 'additionalProperties':
      return `unknown field "${[where, String(e.params.additionalProperty)].filter(Boolean).join('.')}"`;
    case 'enum':
      return `"${where}" must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}`;
    case 'type':
      return `"${where}" must be of type ${String(e.params.type)}`;
    case 'oneOf':
    case 'anyOf':
      return `"${where}" has the wrong shape`;
    default:
      return `"${where || 'value'}" ${e.message ?? 'is not valid'}`;
  }
}

/** Pick the most useful error of an Ajv run (oneOf errors hide the real one): its words, and where it is. */
function bestError(errors: ErrorObject[] | null | undefined, prefix: string): { message: string; at: JsonPointer } {
  const list = errors ?? [];
  const specific = list.find((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if') ?? list[0];
  if (!specific) return { message: 'is not valid', at: '' };
  let at = specific.instancePath as JsonPointer;
  if (specific.keyword === 'required') at = `${at}${pointer(String(specific.params.missingProperty))}`;
  if (specific.keyword === 'additionalProperties') at = `${at}${pointer(String(specific.params.additionalProperty))}`;
  return { message: describeError(specific, prefix), at };
}

/** Validate an already-parsed scenario document. `file` is used in error messages. */
export function validateScenario(doc: unknown, file: string): Scenario {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new ScenarioLoadError(file, 'a scenario must be an object with "name" and "steps"');
  const raw = doc as Record<string, unknown>;
  // steps first, so that a wrong step names its number rather than a generic top-level error
  if (Array.isArray(raw.steps)) {
    raw.steps.forEach((step, i) => validateStep(step, i + 1, file));
  }
  const topValidator = scenarioValidators().top;
  if (!topValidator(raw)) {
    const { message, at } = bestError(topValidator.errors, '');
    throw new ScenarioLoadError(file, message, undefined, at);
  }
  return raw as unknown as Scenario;
}

function validateStep(step: unknown, n: number, file: string): void {
  const here = pointer('steps', n - 1);
  const fail = (reason: string, ...within: (string | number)[]) => new ScenarioLoadError(file, reason, n, `${here}${pointer(...within)}`);
  if (step === null || typeof step !== 'object' || Array.isArray(step)) {
    throw fail(`a step must be an object with one of: ${KINDS.join(', ')}`);
  }
  const keys = Object.keys(step).filter((k) => k !== 'name');
  const kinds = keys.filter((k): k is StepKind => (KINDS as string[]).includes(k));
  const unknown = keys.filter((k) => !(KINDS as string[]).includes(k));
  if (unknown.length > 0) {
    const hint =
      ['expect', 'capture', 'body'].includes(unknown[0]) && kinds.length === 1
        ? `; "${unknown[0]}" belongs inside the ${kinds[0]} step`
        : '';
    throw fail(`unknown step kind "${unknown[0]}" (expected one of: ${KINDS.join(', ')})${hint}`, unknown[0]);
  }
  if (kinds.length === 0) throw fail(`the step has no kind (expected one of: ${KINDS.join(', ')})`);
  if (kinds.length > 1) throw fail(`a step has exactly one kind, this one has ${kinds.join(' and ')}`, kinds[1]);
  const s = step as Record<string, unknown>;
  if (s.name !== undefined && typeof s.name !== 'string') throw fail('"name" must be a string', 'name');
  const kind = kinds[0];
  const validate = scenarioValidators().steps.get(kind)!;
  if (!validate(s[kind])) {
    const { message, at } = bestError(validate.errors, '');
    throw new ScenarioLoadError(file, `${kind}: ${message}`, n, `${here}${pointer(kind)}${at}`);
  }
  if (kind === 'control') checkControl(s.control as Record<string, unknown>, (reason, ...within) => fail(reason, 'control', ...within));
  if (kind === 'request') {
    const r = s.request as Record<string, unknown>;
    if ([r.body, r.rawBody, r.form].filter((v) => v !== undefined).length > 1) {
      throw fail('request: give one of "body", "rawBody" or "form", not several', 'request');
    }
  }
}

function checkControl(c: Record<string, unknown>, fail: (reason: string, ...within: string[]) => ScenarioLoadError): void {
  const targets = (['merchant', 'payment', 'consent', 'delivery', 'reset'] as const).filter((t) => c[t] !== undefined);
  if (targets.length !== 1) {
    throw fail('control: give exactly one of "merchant", "payment", "consent", "delivery" or "reset"');
  }
  const target = targets[0];
  if (target === 'reset') {
    if (c.action !== undefined) throw fail('control: "reset" takes no action', 'action');
    return;
  }
  const allowed = CONTROL_TARGETS[target] as readonly string[];
  if (c.action === undefined) throw fail(`control: missing required field "action" (for ${target}: ${allowed.join(', ')})`, 'action');
  if (!allowed.includes(c.action as string)) {
    throw fail(`control: "${String(c.action)}" is not an action on a ${target} (expected one of: ${allowed.join(', ')})`, 'action');
  }
}

/** Parse text as YAML (JSON is valid YAML too, but .json files go through JSON.parse for exact errors). */
export function parseScenarioText(text: string, file: string): unknown {
  if (extname(file).toLowerCase() === '.json') {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new ScenarioLoadError(file, `not valid JSON: ${(err as Error).message}`);
    }
  }
  const doc = yaml().parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const line = e.linePos?.[0];
    throw new ScenarioLoadError(
      file,
      `not valid YAML${line ? ` (line ${line.line}, column ${line.col})` : ''}: ${e.message.split('\n')[0]}`,
    );
  }
  return doc.toJS();
}

export function loadScenarioFile(file: string, including: readonly string[] = []): Scenario & { file: string; includes: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ScenarioLoadError(file, `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const scenario = validateScenario(parseScenarioText(text, file), file);
  return { ...scenario, file, includes: includedFiles(scenario, file, including) };
}

/** Where an `include` step of `from` points. */
export const includePath = (from: string, include: string): string => resolve(dirname(from), include);

/** Every file the scenario's include steps bring in, read and checked (a cycle is refused). */
function includedFiles(scenario: Scenario, file: string, including: readonly string[]): string[] {
  const chain = [...including, resolve(file)];
  const found = new Set<string>();
  scenario.steps.forEach((step, i) => {
    if (step.include === undefined) return;
    const target = includePath(file, step.include);
    if (chain.includes(target)) {
      const cycle = [...chain.slice(chain.indexOf(target)), target].map((f) => basename(f)).join(' → ');
      throw new ScenarioLoadError(file, `include: ${step.include} includes itself (${cycle})`, i + 1);
    }
    let inner: { includes: string[] };
    try {
      inner = loadScenarioFile(target, chain);
    } catch (err) {
      // a file that is not there is the including step's mistake; one that is wrong names itself
      if (err instanceof ScenarioLoadError && err.file === target && err.reason.startsWith('cannot read')) {
        throw new ScenarioLoadError(file, `include: ${step.include}: ${err.reason}`, i + 1);
      }
      throw err;
    }
    found.add(target);
    for (const f of inner.includes) found.add(f);
  });
  return [...found];
}

const SCENARIO_EXT = new Set(['.yaml', '.yml', '.json']);

/** Files for the arguments: a file as is, a folder -> its scenario files (sorted, not recursive). */
export function expandPaths(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new ScenarioLoadError(p, 'no such file or folder');
    }
    if (st.isDirectory()) {
      const files = readdirSync(p)
        .filter((f) => SCENARIO_EXT.has(extname(f).toLowerCase()) && !f.endsWith('.schema.json'))
        .sort()
        .map((f) => join(p, f));
      if (files.length === 0) throw new ScenarioLoadError(p, 'the folder has no .yaml, .yml or .json scenario files');
      out.push(...files);
    } else out.push(p);
  }
  return out;
}

/** The scenarios/ folder shipped with the package (works from src/ via tsx and from dist/). */
export function shippedScenariosDir(): string {
  return join(packageRoot(), 'scenarios');
}

/** Shipped scenario names (file names without extension). */
export function shippedScenarioNames(): string[] {
  return expandPaths([shippedScenariosDir()]).map((f) => basename(f, extname(f)));
}

/** A shipped scenario by name, or undefined. */
export function findShippedScenario(name: string): string | undefined {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) return undefined;
  return expandPaths([shippedScenariosDir()]).find((f) => basename(f, extname(f)) === name);
}
