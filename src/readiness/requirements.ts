/**
 * A requirements file (docs/readiness.md "Your own requirements"): YAML or JSON, checked against
 * the published schema (readiness/requirements.schema.json, from schemas/readiness.ts), then
 * applied to a report (src/domain/readiness-requirements.ts). Every problem is one line naming
 * the file, the JSON pointer of the offending value and what is wrong with it:
 *
 *   go-live.yaml: /operations/1/statuses/0: must be an HTTP status (100-599) or a class such as 4xx
 */
import type { ErrorObject } from 'ajv';
import { readFileSync } from 'node:fs';
import { Requirements as RequirementsSchema } from '../../schemas/readiness.js';
import type { ReadinessReport } from '../domain/readiness.js';
import { applyRequirements, RequirementsError, type Requirements } from '../domain/readiness-requirements.js';
import { lazyRequire } from '../lazy.js';

const ajvModule = lazyRequire<typeof import('ajv')>('ajv');
const yaml = lazyRequire<typeof import('yaml')>('yaml');

export class RequirementsFileError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    readonly problem: string,
  ) {
    super(`${file}: ${pointer || '/'}: ${problem}`);
  }
}

/** The published JSON Schema of a requirements file, as written to readiness/requirements.schema.json. */
export const requirementsSchemaText = (): string => `${JSON.stringify(RequirementsSchema, null, 2)}\n`;

let validate: import('ajv').ValidateFunction | undefined;

/** The most useful of Ajv's errors, in words: the deepest, and there the most specific (oneOf hides the real one). */
function problemOf(errors: readonly ErrorObject[]): { pointer: string; problem: string } {
  const depth = Math.max(...errors.map((e) => e.instancePath.split('/').length));
  const deepest = errors.filter((e) => e.instancePath.split('/').length === depth);
  const pointer = deepest[0].instancePath;
  if (/\/statuses\/\d+$/.test(pointer)) return { pointer, problem: 'must be an HTTP status (100-599) or a class such as 4xx' };
  const rank = ['additionalProperties', 'required', 'enum', 'oneOf'];
  const e = [...deepest].sort((a, b) => ((rank.indexOf(a.keyword) + 5) % 5) - ((rank.indexOf(b.keyword) + 5) % 5))[0];
  switch (e.keyword) {
    case 'additionalProperties':
      return { pointer, problem: `unknown field "${String(e.params.additionalProperty)}"` };
    case 'required':
      return { pointer, problem: `missing required field "${String(e.params.missingProperty)}"` };
    case 'enum':
      return { pointer, problem: `must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}` };
    case 'oneOf':
      if (pointer === '/smells') return { pointer, problem: 'must be "absent" or a list of smell codes' };
      if (/^\/operations\/\d+$/.test(pointer)) return { pointer, problem: 'must be an operation name or { operation, statuses }' };
      return { pointer, problem: 'has the wrong shape' };
    default:
      return { pointer, problem: e.message ?? 'is not valid' };
  }
}

/** Check a parsed requirements document; `file` names it in the error. */
export function validateRequirements(doc: unknown, file: string): Requirements {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new RequirementsFileError(file, '', 'must be an object (operations, events, states, transitions, smells, checks)');
  if (!validate) {
    const { Ajv } = ajvModule();
    validate = new Ajv({ strict: false, allErrors: true }).compile(RequirementsSchema);
  }
  if (!validate(doc)) {
    const { pointer, problem } = problemOf(validate.errors ?? []);
    throw new RequirementsFileError(file, pointer, problem);
  }
  return doc;
}

/** Read and check a requirements file (YAML, or JSON which is YAML too); errors name it as given. */
export function loadRequirements(file: string): Requirements {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new RequirementsFileError(file, '', `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let doc: unknown;
  try {
    doc = yaml().parse(text);
  } catch (err) {
    throw new RequirementsFileError(file, '', `is not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  return validateRequirements(doc, file);
}

/** The report judged by `requirements` instead of the default checklist; `file` names them in errors and as the source. */
export function judgeBy(report: ReadinessReport, requirements: Requirements, file: string): ReadinessReport {
  try {
    return applyRequirements(report, requirements, requirements.name ?? file);
  } catch (err) {
    if (err instanceof RequirementsError) throw new RequirementsFileError(file, err.pointer, err.message);
    throw err;
  }
}
