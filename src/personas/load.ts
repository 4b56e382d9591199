/**
 * Personas: read a YAML or JSON persona (a file, a shipped name, or an inline object) and check it
 * against schemas/persona.ts before anything is created. A refusal names the file, the path in it
 * and the reason: `personas/x.yaml: merchants[0].payments[2].state: must be one of: …`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { PersonaSchema, type Persona } from '../../schemas/persona.js';
import { pointer, readablePointer, type JsonPointer } from '../domain/errors.js';
import { lazyRequire } from '../lazy.js';
import { packageRoot } from '../package-root.js';

const yaml = lazyRequire<typeof import('yaml')>('yaml');
const ajvModule = lazyRequire<typeof import('ajv')>('ajv');
const ajvFormats = lazyRequire<typeof import('ajv-formats')>('ajv-formats');

export class PersonaError extends Error {
  constructor(
    readonly source: string,
    /** Where in the persona document (an RFC 6901 pointer; '' for the whole document). */
    readonly at: JsonPointer,
    readonly reason: string,
  ) {
    const path = readablePointer(at);
    super(`${source}: ${path ? `${path}: ` : ''}${reason}`);
  }
}

let validator: ValidateFunction | undefined;
function validate(): ValidateFunction {
  if (!validator) {
    const ajv = new (ajvModule().Ajv)({ strict: false, allErrors: false, useDefaults: true });
    (ajvFormats() as unknown as { default: (a: unknown) => void }).default(ajv);
    validator = ajv.compile(PersonaSchema);
  }
  return validator;
}

/** Where an Ajv error is (a missing or unknown property: the property itself), and why. */
function reasonOf(e: ErrorObject): { at: JsonPointer; reason: string } {
  const at = e.instancePath as JsonPointer;
  switch (e.keyword) {
    case 'required':
      return { at: `${at}${pointer(String(e.params.missingProperty))}`, reason: 'is required' };
    case 'additionalProperties':
      return { at: `${at}${pointer(String(e.params.additionalProperty))}`, reason: 'is not a known property' };
    case 'enum':
      return { at, reason: `must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}` };
    default:
      return { at, reason: e.message ?? 'is not valid' };
  }
}

/** A parsed persona document, checked; `source` names it in errors. */
export function validatePersona(doc: unknown, source: string): Persona {
  const copy = structuredClone(doc);
  const check = validate();
  if (!check(copy)) {
    const { at, reason } = reasonOf(check.errors![0]);
    throw new PersonaError(source, at, reason);
  }
  const persona = copy as Persona;
  for (const [i, m] of (persona.merchants ?? []).entries()) {
    if (m.state === 'activated') continue;
    if (m.payments?.length)
      throw new PersonaError(source, pointer('merchants', i, 'payments'), 'only an activated merchant can have payments');
    if (m.consents?.length)
      throw new PersonaError(source, pointer('merchants', i, 'consents'), 'only an activated merchant can have consents');
  }
  for (const [i, m] of (persona.merchants ?? []).entries()) {
    for (const [j, p] of (m.payments ?? []).entries()) {
      if (p.failureReason !== undefined && p.state !== 'failed') {
        throw new PersonaError(
          source,
          pointer('merchants', i, 'payments', j, 'failureReason'),
          'only a failed payment has a failureReason',
        );
      }
    }
  }
  return persona;
}

/** The personas shipped with obsim (personas/ next to package.json). */
export function shippedPersonasDir(): string {
  return join(packageRoot(), 'personas');
}

/** A persona by file path or shipped name (`shop-with-history`). */
export function loadPersona(ref: string): Persona {
  let file = ref;
  if (!existsSync(file)) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(ref)) throw new PersonaError(ref, '', 'no such file, and not the name of a shipped persona');
    file = ['yaml', 'yml', 'json'].map((ext) => join(shippedPersonasDir(), `${ref}.${ext}`)).find((f) => existsSync(f)) ?? '';
    if (!file) throw new PersonaError(ref, '', 'no such file, and not the name of a shipped persona (see personas/)');
  }
  let doc: unknown;
  try {
    const text = readFileSync(file, 'utf8');
    doc = file.endsWith('.json') ? JSON.parse(text) : yaml().parse(text);
  } catch (err) {
    throw new PersonaError(file, '', `cannot be read or parsed: ${(err as Error).message}`);
  }
  return validatePersona(doc, file);
}
