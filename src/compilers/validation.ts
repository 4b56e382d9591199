/**
 * Request validation: Ajv instances chosen per request part and per door.
 *
 * - body: no type coercion (a sandbox exists to catch integrator mistakes: "12.5" for a number
 *   is a 400 naming the field).
 * - querystring, params, headers: strings coerced to the declared types (?page=2 is a number).
 * - Unknown properties. obsim's own controls (`/_sandbox/…`, openapi-controls.json) refuse them at
 *   every depth of the body and in the query string, with 400 `unknown_field` and a pointer to the
 *   property: a typo in a control must never answer 200 having done nothing (docs/errors.md). The
 *   provider's API drops them, as the provider is taken to (docs/decisions.md), and refuses them
 *   in strict mode (--strict).
 *
 * Every instance knows every shared schema, so `{ $ref: 'X#' }` works in any part.
 */
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ApiError, ErrorDetail, ErrorPlace, JsonPointer } from '../domain/errors.js';
import { ApiError as ApiErrorClass, pointer, readablePointer } from '../domain/errors.js';
import { lazyRequire } from '../lazy.js';
import { compiledOnce, isRecording, precompiledKey, record } from './precompiled.js';

// Ajv is loaded only when a validator must be compiled (none at all when dist/compiled has them)
const ajvModule = lazyRequire<typeof import('ajv')>('ajv');
const ajvFormats = lazyRequire<{ default: (ajv: Ajv) => Ajv }>('ajv-formats');
const standaloneCode = lazyRequire<(ajv: Ajv, fn: ValidateFunction) => string>('ajv/dist/standalone');
const require = createRequire(import.meta.url);
/** Everything besides the schema that a compiled validator depends on. */
const COMPILER_VERSIONS = [require('ajv/package.json').version, require('ajv-formats/package.json').version] as const;

/**
 * Routes of obsim's own controls (/_sandbox/…, openapi-controls.json): strict at every door. The
 * health check and the metrics take no input and ignore a query string, as probes and scrapers
 * add their own.
 */
export const isControlRoute = (url: string | undefined): boolean => url !== undefined && url.startsWith('/_sandbox');

type AjvKind = 'body' | 'strict-body' | 'parts';

/**
 * `servedElsewhere`: requests another validator checks (a contract version's, for a request that
 * version serves: src/plugins/contract-versions.ts); the routes' own validators let them through.
 * Fastify hands a validator the request as `parentData`.
 */
export function buildValidatorCompiler(
  sharedSchemas: readonly object[],
  strict: boolean,
  servedElsewhere?: (request: unknown) => boolean,
): FastifySchemaCompiler<unknown> {
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
  const options: Record<AjvKind, Options> = {
    body: { ...base, coerceTypes: false, removeAdditional: true },
    'strict-body': { ...base, coerceTypes: false, removeAdditional: false },
    parts: { ...base, coerceTypes: true, removeAdditional: false },
  };
  // building dist/compiled (src/precompile.ts): Ajv also keeps each validator's source
  const recording = isRecording();
  const ajvs = new Map<AjvKind, Ajv>();
  const ajvFor = (kind: AjvKind): Ajv => {
    let ajv = ajvs.get(kind);
    if (!ajv) {
      const { Ajv, _ } = ajvModule();
      const code: Options = recording ? { code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } } : {};
      ajv = new Ajv({ ...options[kind], ...code });
      ajvFormats().default(ajv);
      for (const schema of sharedSchemas) ajv.addSchema(schema);
      ajvs.set(kind, ajv);
    }
    return ajv;
  };
  // the schemas a route schema can $ref are part of what its validator depends on (hashed once)
  const shared = createHash('sha256').update(JSON.stringify(sharedSchemas)).digest('base64url');
  // one validator per distinct (kind, schema): many routes share a body or params schema
  const compiled = new Map<string, ValidateFunction>();
  return ({ schema, httpPart, url }) => {
    const control = isControlRoute(url);
    const kind: AjvKind = httpPart !== 'body' ? 'parts' : strict || control ? 'strict-body' : 'body';
    // a control's query string is closed: a parameter it does not name is refused like a body property
    const closed =
      control && httpPart === 'querystring' && (schema as { additionalProperties?: unknown }).additionalProperties === undefined;
    const effective = closed ? { ...(schema as object), additionalProperties: false } : schema;
    const key = `${kind}${JSON.stringify(effective)}`;
    let validate = compiled.get(key);
    if (!validate) {
      const pkey = precompiledKey('validators', COMPILER_VERSIONS, options[kind], shared, effective);
      validate = compiledOnce<ValidateFunction>('validators', pkey, () => {
        const fresh = ajvFor(kind).compile(effective as object);
        if (recording) record('validators', pkey, standaloneCode()(ajvFor(kind), fresh));
        return fresh;
      });
      // Fastify passes Ajv's { parentData, parentDataProperty } only to functions with a
      // schemaEnv (Ajv's own); standalone ones take the same argument: call them the same way
      (validate as { schemaEnv?: unknown }).schemaEnv ??= true;
      if (servedElsewhere) validate = passing(validate, servedElsewhere);
      compiled.set(key, validate);
    }
    return validate as never;
  };
}

/** `validate`, except for a request `servedElsewhere` (checked by its own validators). */
function passing(validate: ValidateFunction, servedElsewhere: (request: unknown) => boolean): ValidateFunction {
  const wrapped = ((data: unknown, ctx: { parentData?: unknown } | undefined) =>
    servedElsewhere(ctx?.parentData) || validate(data, ctx as never)) as unknown as ValidateFunction;
  Object.defineProperty(wrapped, 'errors', { get: () => validate.errors });
  (wrapped as { schemaEnv?: unknown }).schemaEnv = true;
  return wrapped;
}

/** Fastify's name of a request part → where an error body says the problem is. */
const PLACE: Record<string, ErrorPlace> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** The RFC 6901 pointer to what an Ajv error is about (Ajv's instancePath is one already). */
function pointerOf(error: ErrorObject): JsonPointer {
  let at = error.instancePath as JsonPointer;
  if (error.keyword === 'required') at = `${at}${pointer(String(error.params.missingProperty))}`;
  if (error.keyword === 'additionalProperties') at = `${at}${pointer(String(error.params.additionalProperty))}`;
  // propertyNames (schemas that refuse unknown properties even in lenient mode): the name at fault
  if (error.propertyName !== undefined) at = `${at}${pointer(error.propertyName)}`;
  return at;
}

/** A pointer as a reader names the place in a sentence: `/address/countryCode` → `address.countryCode`, `/ubos/0` → `ubos[0]`. */
export function readableName(at: JsonPointer, part: ErrorPlace): string {
  return readablePointer(at) || (part === 'query' ? 'the query string' : part);
}

function describe(error: ErrorObject, where: string): string {
  switch (error.keyword) {
    case 'required':
      return `${where} is required`;
    case 'additionalProperties':
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

const isUnknownProperty = (e: ErrorObject | undefined) => e?.keyword === 'additionalProperties' || e?.propertyName !== undefined;

/**
 * Ajv's errors for one request part as the one error shape: `field` an RFC 6901 pointer to the
 * first offending place (an unknown property: the property itself), `in` the part, every problem
 * in `details`. An unknown property is `unknown_field`, anything else `validation_failed`.
 */
export function validationToApiError(errors: ErrorObject[], fastifyPart: string): ApiError {
  const part = PLACE[fastifyPart] ?? 'body';
  const details: ErrorDetail[] = errors.map((e) => {
    const at = pointerOf(e);
    return { field: at, in: part, message: describe(e, readableName(at, part)) };
  });
  const first = details[0] ?? { field: '' as const, in: part, message: `${readableName('', part)} is not valid` };
  return new ApiErrorClass(isUnknownProperty(errors[0]) ? 'unknown_field' : 'validation_failed', {
    message: first.message,
    field: first.field,
    in: part,
    details,
  });
}
