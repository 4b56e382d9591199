/**
 * --validate-responses (on in the test suite): every JSON response obsim sends is validated
 * against the schema its route documents for that status, so the simulator can never drift
 * from its own OpenAPI document. A violation is not hidden: the response is replaced by a loud
 * 500 `response_validation_failed` whose message and details name the offending property, and
 * the violation is logged at error level.
 *
 * Two hooks, so every path is covered exactly once:
 * - preSerialization: objects returned by handlers and error bodies, checked BEFORE the
 *   serializer (fast-json-stringify silently drops unknown properties and coerces types, which
 *   would hide exactly the drift this mode exists to catch);
 * - onSend: JSON that reached the reply already serialized (a string or Buffer with a JSON
 *   content type), checked as the bytes that go out.
 * HTML (hosted pages), redirects, empty bodies and streams are not validated.
 *
 * Which schema: the route's `schema.response` entry for the exact status, else its `4xx`/`5xx`
 * class, else `default`. A JSON response whose status the route does not document is a
 * violation too. Routes without any response schema (hidden documents such as /openapi.json)
 * are skipped, except that an error status must still carry the one ErrorBody.
 * Validators are compiled once per schema object with an Ajv instance that knows every shared
 * schema (app.getSchemas()), without coercion, defaults or property removal.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, errorBody, pointer, type ErrorDetail, type JsonPointer } from '../domain/errors.js';
import { readableName } from '../compilers/validation.js';

const CHECKED = Symbol('obsim.responseChecked');
const ERROR_BODY_REF = { $ref: 'ErrorBody#' } as const;

type Checked = FastifyRequest & { [CHECKED]?: true };

interface Violation {
  message: string;
  details: ErrorDetail[];
}

/** The documented schema for `status`, `null` when the route documents responses but not this status, `undefined` when it documents none. */
export function responseSchemaFor(response: unknown, status: number, contentType?: string): object | null | undefined {
  if (!response || typeof response !== 'object') return status >= 400 ? ERROR_BODY_REF : undefined;
  const map = response as Record<string, unknown>;
  const entry = map[String(status)] ?? map[`${String(status)[0]}xx`] ?? map[`${String(status)[0]}XX`] ?? map.default;
  if (entry === undefined) return null;
  // OpenAPI-style { content: { 'application/json': { schema } } }
  const content = (entry as { content?: Record<string, { schema?: object }> }).content;
  if (content && typeof content === 'object' && !('type' in (entry as object)) && !('$ref' in (entry as object))) {
    // the answer's own media type first (a route answering JSON and HAR), else its JSON one
    const media = contentType?.split(';')[0].trim();
    const exact = media === undefined ? undefined : content[media];
    const json = Object.entries(content).find(([type]) => type.includes('json'));
    return exact?.schema ?? json?.[1]?.schema ?? null;
  }
  return entry;
}

/** The RFC 6901 pointer into the answer of what an Ajv error is about. */
function pointerOf(e: ErrorObject): JsonPointer {
  const at = e.instancePath as JsonPointer;
  if (e.keyword === 'additionalProperties') return `${at}${pointer(String(e.params.additionalProperty))}`;
  if (e.keyword === 'required') return `${at}${pointer(String(e.params.missingProperty))}`;
  return at;
}

function describe(e: ErrorObject, field: string): string {
  switch (e.keyword) {
    case 'additionalProperties':
      return `${field} is not in the documented schema`;
    case 'required':
      return `${field} is required by the documented schema but missing`;
    case 'enum':
      return `${field} must be one of: ${(e.params.allowedValues as unknown[]).map(String).join(', ')}`;
    default:
      return `${field} ${e.message ?? 'is not valid'}`;
  }
}

export const responseValidationPlugin = fp(
  async (app: FastifyInstance) => {
    let ajv: Ajv | undefined;
    const compiled = new Map<object, ValidateFunction>();

    const validatorFor = (schema: object): ValidateFunction => {
      let validate = compiled.get(schema);
      if (validate) return validate;
      if (!ajv) {
        ajv = new Ajv({
          strict: false,
          allErrors: true,
          coerceTypes: false,
          useDefaults: false,
          removeAdditional: false,
          allowUnionTypes: true,
        });
        addFormats.default(ajv);
        for (const s of Object.values(app.getSchemas())) ajv.addSchema(s as object);
      }
      const id = (schema as { $id?: string }).$id;
      validate = (id && ajv.getSchema(id)) || ajv.compile(schema);
      compiled.set(schema, validate);
      return validate;
    };

    // a contract version's answers are checked against its own document (src/contracts/registry.ts)
    const versionAjvs = new Map<string, Ajv>();
    const versionValidatorFor = (version: string, schema: object): ValidateFunction => {
      let vajv = versionAjvs.get(version);
      if (!vajv) {
        vajv = new Ajv({ strict: false, allErrors: true, allowUnionTypes: true });
        addFormats.default(vajv);
        for (const s of app.contracts
          .list()
          .find((v) => v.name === version)
          ?.componentSchemas() ?? [])
          vajv.addSchema(s);
        versionAjvs.set(version, vajv);
      }
      return vajv.compile(schema);
    };
    const versionCompiled = new Map<string, ValidateFunction>();

    const check = (request: FastifyRequest, reply: FastifyReply, body: unknown): Violation | undefined => {
      const status = reply.statusCode;
      const type = reply.getHeader('content-type');
      const op = request.contractOperation;
      if (op !== null) {
        const schema = op.answerSchema(status) as object | undefined;
        const where = `${request.method} ${request.routeOptions.url} ${status} (contract version ${request.contractVersion})`;
        if (schema === undefined) {
          const message = `Response ${where}: status ${status} is not documented for this route`;
          return { message, details: [{ field: '', in: 'response', message }] };
        }
        const key = `${request.contractVersion} ${op.key} ${status}`;
        let validate = versionCompiled.get(key);
        if (!validate) versionCompiled.set(key, (validate = versionValidatorFor(request.contractVersion!, schema)));
        return violationOf(validate, body, where);
      }
      const schema = responseSchemaFor(request.routeOptions.schema?.response, status, typeof type === 'string' ? type : undefined);
      const where = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]} ${status}`;
      if (schema === undefined) return undefined;
      if (schema === null) {
        const message = `Response ${where}: status ${status} is not documented for this route`;
        return { message, details: [{ field: '', in: 'response', message }] };
      }
      return violationOf(validatorFor(schema), body, where);
    };

    const violationOf = (validate: ValidateFunction, body: unknown, where: string): Violation | undefined => {
      if (validate(body)) return undefined;
      const details = (validate.errors ?? []).map((e): ErrorDetail => {
        const field = pointerOf(e);
        return { field, in: 'response', message: describe(e, readableName(field, 'response')) };
      });
      return { message: `Response ${where} violates its documented schema: ${details.map((d) => d.message).join('; ')}`, details };
    };

    const fail = (request: FastifyRequest, reply: FastifyReply, violation: Violation) => {
      request.log.error({ violation: violation.details, status: reply.statusCode }, violation.message);
      const err = new ApiError('response_validation_failed', {
        message: violation.message,
        field: violation.details[0]?.field,
        in: 'response',
        details: violation.details,
      });
      void reply.code(err.status);
      return errorBody(err, request.id);
    };

    app.addHook('preSerialization', async (request, reply, payload) => {
      (request as Checked)[CHECKED] = true;
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && !type.includes('json')) return payload;
      const violation = check(request, reply, payload);
      return violation ? fail(request, reply, violation) : payload;
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if ((request as Checked)[CHECKED]) return payload;
      (request as Checked)[CHECKED] = true;
      const type = reply.getHeader('content-type');
      if (typeof type !== 'string' || !type.includes('json')) return payload;
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      if (payload.length === 0) return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload.toString());
      } catch (err) {
        const message = `Response ${request.method} ${request.url.split('?')[0]} ${reply.statusCode} is labelled JSON but is not valid JSON: ${(err as Error).message}`;
        void reply.removeHeader('content-length');
        return JSON.stringify(fail(request, reply, { message, details: [{ field: '', in: 'response', message }] }));
      }
      const violation = check(request, reply, body);
      if (!violation) return payload;
      void reply.header('content-type', 'application/json; charset=utf-8').removeHeader('content-length');
      return JSON.stringify(fail(request, reply, violation));
    });
  },
  { name: 'obsim-response-validation' },
);
