/**
 * Request validation: two Ajv instances chosen per request part.
 *
 * - body: no type coercion (a sandbox exists to catch integrator mistakes: "12.5" for a number
 *   is a 400 naming the field). Unknown properties are dropped by default (removeAdditional on
 *   schemas that say additionalProperties: false) and rejected with 400 unknown_field in strict
 *   mode (--strict).
 * - querystring, params, headers: strings coerced to the declared types (?page=2 is a number).
 *
 * Both instances know every shared schema, so `{ $ref: 'X#' }` works in any part.
 */
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ApiError, ErrorDetail } from '../domain/errors.js';
import { ApiError as ApiErrorClass } from '../domain/errors.js';
import { lazyRequire } from '../lazy.js';
import { compiledOnce, isRecording, precompiledKey, record } from './precompiled.js';

// Ajv is loaded only when a validator must be compiled (none at all when dist/compiled has them)
const ajvModule = lazyRequire<typeof import('ajv')>('ajv');
const ajvFormats = lazyRequire<{ default: (ajv: Ajv) => Ajv }>('ajv-formats');
const standaloneCode = lazyRequire<(ajv: Ajv, fn: ValidateFunction) => string>('ajv/dist/standalone');
const require = createRequire(import.meta.url);
/** Everything besides the schema that a compiled validator depends on. */
const COMPILER_VERSIONS = [require('ajv/package.json').version, require('ajv-formats/package.json').version] as const;

export function buildValidatorCompiler(sharedSchemas: readonly object[], strict: boolean): FastifySchemaCompiler<unknown> {
  // strictNumbers: NaN and ±Infinity (JSON `1e999`) are not numbers (found by the fuzz suite:
  // without it `"merchantId": 1e999` passed `type: integer`)
  // validateSchema off: the schemas are static and covered by the OpenAPI validity test; checking
  // them against the meta-schema at every start (once per instance) only cost start-up time
  const base: Options = {
    allErrors: false,
    useDefaults: true,
    strict: false,
    allowUnionTypes: true,
    strictNumbers: true,
    validateSchema: false,
  };
  const bodyOptions: Options = { ...base, coerceTypes: false, removeAdditional: strict ? false : true };
  const partsOptions: Options = { ...base, coerceTypes: true, removeAdditional: false };
  // building dist/compiled (src/precompile.ts): Ajv also keeps each validator's source
  const recording = isRecording();
  const ajvs = new Map<boolean, Ajv>();
  const ajvFor = (body: boolean): Ajv => {
    let ajv = ajvs.get(body);
    if (!ajv) {
      const { Ajv, _ } = ajvModule();
      const code: Options = recording ? { code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } } : {};
      ajv = new Ajv({ ...(body ? bodyOptions : partsOptions), ...code });
      ajvFormats().default(ajv);
      for (const schema of sharedSchemas) ajv.addSchema(schema);
      ajvs.set(body, ajv);
    }
    return ajv;
  };
  // the schemas a route schema can $ref are part of what its validator depends on (hashed once)
  const shared = createHash('sha256').update(JSON.stringify(sharedSchemas)).digest('base64url');
  // one validator per distinct (part, schema): many routes share a body or params schema
  const compiled = new Map<string, ValidateFunction>();
  return ({ schema, httpPart }) => {
    const body = httpPart === 'body';
    const key = `${body ? 'b' : 'p'}${JSON.stringify(schema)}`;
    let validate = compiled.get(key);
    if (!validate) {
      const pkey = precompiledKey('validators', COMPILER_VERSIONS, body ? bodyOptions : partsOptions, shared, schema);
      validate = compiledOnce<ValidateFunction>('validators', pkey, () => {
        const fresh = ajvFor(body).compile(schema as object);
        if (recording) record('validators', pkey, standaloneCode()(ajvFor(body), fresh));
        return fresh;
      });
      // Fastify passes Ajv's { parentData, parentDataProperty } only to functions with a
      // schemaEnv (Ajv's own); standalone ones take the same argument: call them the same way
      (validate as { schemaEnv?: unknown }).schemaEnv ??= true;
      compiled.set(key, validate);
    }
    return validate as never;
  };
}

/** Dotted path of an Ajv error: `/address/countryCode` -> `address.countryCode`, `/ubos/0` -> `ubos[0]`. */
function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  // propertyNames (schemas that refuse unknown properties even in lenient mode): the name at fault
  if (error.propertyName !== undefined) segments.push(error.propertyName);
  let out = '';
  for (const s of segments) out += /^\d+$/.test(s) ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

function describe(error: ErrorObject, field: string, part: string): string {
  const where = field === '' ? part : field;
  switch (error.keyword) {
    case 'required':
      return `${where} is required`;
    case 'additionalProperties':
      return `${where} is not a known property`;
    case 'propertyNames':
      return `${where} is not a known property`;
    case 'type':
      return `${where} must be of type ${String(error.params.type)}`;
    case 'enum':
      return `${where} must be one of: ${(error.params.allowedValues as unknown[]).map(String).join(', ')}`;
    default:
      return `${where} ${error.message ?? 'is not valid'}`;
  }
}

/** Turn Fastify's validation error into the one error shape, naming the first offending field. */
export function validationToApiError(errors: ErrorObject[], part: string): ApiError {
  const details: ErrorDetail[] = errors.map((e) => {
    const field = fieldOf(e);
    return { field: field === '' ? part : field, message: describe(e, field, part) };
  });
  const first = details[0] ?? { field: part, message: `${part} is not valid` };
  const unknown = errors[0]?.keyword === 'additionalProperties' || errors[0]?.propertyName !== undefined;
  return new ApiErrorClass(unknown ? 'unknown_field' : 'validation_failed', {
    message: first.message,
    field: first.field,
    details,
  });
}

/**
 * The one error shape with `field` as an RFC 6901 JSON pointer into the request body, for the
 * bodies documented that way (fault profiles, docs/chaos.md): `/faults/rules/1/rate`.
 */
export function pointerValidationError(errors: ErrorObject[]): ApiError {
  const e = errors[0];
  let pointer = e.instancePath;
  const escape = (s: unknown) => String(s).replace(/~/g, '~0').replace(/\//g, '~1');
  if (e.keyword === 'required') pointer += `/${escape(e.params.missingProperty)}`;
  if (e.keyword === 'additionalProperties') pointer += `/${escape(e.params.additionalProperty)}`;
  const message = describe(e, pointer === '' ? '/' : pointer, 'body');
  return new ApiErrorClass(e.keyword === 'additionalProperties' ? 'unknown_field' : 'validation_failed', {
    message,
    field: pointer,
    details: [{ field: pointer, message }],
  });
}
