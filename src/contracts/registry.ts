/**
 * The contract versions one process serves: the base (the provider's document, untouched) and the
 * versions of `--contracts`. For each version, what a request of it needs, worked out once: its
 * operations by route (deprecated? sunset when? which fields are deprecated?), the answer switches
 * of each operation and event, and (on first use of an operation, then kept) the request
 * validators and answer serializers compiled from the version's own document, with the same
 * compilers and options as the base's routes (src/compilers/validation.ts, serializers.ts).
 */
import type { FastifySchemaCompiler } from 'fastify';
import {
  BASE_VERSION,
  headerRules,
  type AnswerRules,
  type HeaderRules,
  type AnswerSwitch,
  type ContractSwitches,
  type OperationSwitches,
} from '../domain/contract-switches.js';
import { ApiError } from '../domain/errors.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import { dedupedSerializerFactory } from '../compilers/serializers.js';
import { buildValidatorCompiler } from '../compilers/validation.js';
import type { LoadedVersion } from './load.js';
import { deprecatedFields, operationsOf, routeKey, type Operation } from './walk.js';

export type RequestPart = 'body' | 'params' | 'querystring' | 'headers';
type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };
type Serialize = (data: unknown) => string;

export interface VersionOperation {
  id: string;
  key: string;
  deprecated: boolean;
  /** When the operation or its deprecated fields were deprecated (the Deprecation header's date). */
  deprecatedAt: string | undefined;
  sunsetAt: string | undefined;
  switches: OperationSwitches | undefined;
  rules: AnswerRules;
  /** The answer headers the version makes (undefined: none, and the request path does nothing for them). */
  headers: HeaderRules | undefined;
  /** Deprecated request body fields, query parameters and headers, and answer fields (pointers, `*` for items). */
  deprecatedBody: string[];
  deprecatedParams: { name: string; in: string }[];
  deprecatedAnswer: string[];
  validators(): Partial<Record<RequestPart, Validate>>;
  serializer(status: number): Serialize | undefined;
  /** The answer's schema for `status` in the version's document, refs by id (for --validate-responses); undefined: none documented. */
  answerSchema(status: number): unknown;
}

export interface ContractVersion {
  name: string;
  /** The file it was loaded from. */
  file: string;
  title: string;
  document: OpenApiDocument;
  switches: ContractSwitches;
  /** undefined: the route is not an operation of this version (the overlay removed it). */
  operation(key: string): VersionOperation | undefined;
  /** The answer switches of a webhook event. */
  eventRules(event: string): AnswerRules;
  /** The version's component schemas with `$id`s, refs by id: what its compiled code refers to. */
  componentSchemas(): object[];
}

const REF = '#/components/schemas/';

/** A copy of `value` whose `#/components/schemas/X` refs read `X#` (the shared schemas' ids, as the routes use them). */
function byId(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(byId);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith(REF) ? `${v.slice(REF.length)}#` : byId(v);
  return out;
}

/** The status key of an OpenAPI `responses` object that documents `status` (`200`, else `4XX`, else `default`). */
export function responseKey(responses: Record<string, unknown>, status: number): string | undefined {
  const exact = String(status);
  if (exact in responses) return exact;
  const range = `${exact[0]}XX`;
  if (range in responses) return range;
  if (`${exact[0]}xx` in responses) return `${exact[0]}xx`;
  return 'default' in responses ? 'default' : undefined;
}

function parametersSchema(op: Operation, where: string): object | undefined {
  const params = (op.operation.parameters ?? []).filter((p) => p.in === where);
  if (params.length === 0) return undefined;
  const name = (p: { name: string }) => (where === 'header' ? p.name.toLowerCase() : p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [name(p), byId(p.schema ?? {})])),
    required: params.filter((p) => p.required).map(name),
  };
}

function compileVersion(
  name: string,
  file: string,
  title: string,
  document: OpenApiDocument,
  switches: ContractSwitches,
  strict: boolean,
): ContractVersion {
  let components: object[] | undefined;
  const componentSchemas = () =>
    (components ??= Object.entries(document.components.schemas ?? {}).map(([id, schema]) => ({ ...(byId(schema) as object), $id: id })));
  let validatorCompiler: FastifySchemaCompiler<unknown> | undefined;
  let serializerOf: ((info: { schema: object; method: string; url: string; httpStatus: string }) => Serialize) | undefined;
  const external = () => Object.fromEntries(componentSchemas().map((s) => [(s as { $id: string }).$id, s]));

  const rulesByTarget = new Map<string, AnswerSwitch[]>();
  for (const rule of switches.answers ?? []) {
    const list = rulesByTarget.get(rule.in) ?? [];
    list.push(rule);
    rulesByTarget.set(rule.in, list);
  }

  const operations = new Map<string, VersionOperation>();
  for (const op of operationsOf(document)) {
    const key = routeKey(op.method, op.path);
    const opSwitches = switches.operations?.[op.id];
    const body = op.operation.requestBody?.content?.['application/json']?.schema;
    const deprecatedBody = body === undefined ? [] : deprecatedFields(document, body);
    const deprecatedParams = (op.operation.parameters ?? []).filter((p) => p.deprecated === true).map((p) => ({ name: p.name, in: p.in }));
    const answerSchemaOf = (status: number): unknown => {
      const responses = op.operation.responses ?? {};
      const k = responseKey(responses, status);
      return k === undefined ? undefined : responses[k]?.content?.['application/json']?.schema;
    };
    const ok = Object.keys(op.operation.responses ?? {}).filter((s) => s.startsWith('2'));
    const deprecatedAnswer = [...new Set(ok.flatMap((s) => deprecatedFields(document, answerSchemaOf(Number(s)))))];
    let validators: Partial<Record<RequestPart, Validate>> | undefined;
    const serializers = new Map<string, Serialize | undefined>();
    operations.set(key, {
      id: op.id,
      key,
      deprecated: op.operation.deprecated === true,
      deprecatedAt: opSwitches?.deprecatedAt ?? switches.deprecatedAt,
      sunsetAt: opSwitches?.sunsetAt,
      switches: opSwitches,
      rules: rulesByTarget.get(op.id) ?? [],
      headers: headerRules(op.id, opSwitches?.headers),
      deprecatedBody,
      deprecatedParams,
      deprecatedAnswer,
      validators() {
        if (validators) return validators;
        validatorCompiler ??= buildValidatorCompiler(componentSchemas(), strict);
        const url = key.slice(key.indexOf(' ') + 1);
        const parts: [RequestPart, object | undefined][] = [
          ['body', body === undefined ? undefined : (byId(body) as object)],
          ['params', parametersSchema(op, 'path')],
          ['querystring', parametersSchema(op, 'query')],
          ['headers', parametersSchema(op, 'header')],
        ];
        validators = {};
        for (const [part, schema] of parts)
          if (schema) validators[part] = validatorCompiler({ schema, httpPart: part, url, method: op.method }) as Validate;
        return validators;
      },
      serializer(status) {
        const responses = op.operation.responses ?? {};
        const k = responseKey(responses, status);
        if (k === undefined) return undefined;
        if (serializers.has(k)) return serializers.get(k);
        const schema = responses[k]?.content?.['application/json']?.schema;
        let serialize: Serialize | undefined;
        if (schema !== undefined) {
          serializerOf ??= dedupedSerializerFactory()(external(), undefined) as never;
          serialize = serializerOf({ schema: byId(schema) as object, method: op.method, url: op.path, httpStatus: k });
        }
        serializers.set(k, serialize);
        return serialize;
      },
      answerSchema: (status) => {
        const schema = answerSchemaOf(status);
        return schema === undefined ? undefined : byId(schema);
      },
    });
  }
  return {
    name,
    file,
    title,
    document,
    switches,
    operation: (key) => operations.get(key),
    eventRules: (event) => rulesByTarget.get(event) ?? [],
    componentSchemas,
  };
}

export interface ContractRegistry {
  /** True when `--contracts` loaded at least one version: answers name their version. */
  readonly versioned: boolean;
  /** Every version's name, the base first. */
  names(): string[];
  /** The version named `name`; an unknown one is a 400 naming `field` in `place`. */
  get(name: string, field: `/${string}`, place: 'header' | 'body' | 'query'): ContractVersion | undefined;
  has(name: string): boolean;
  /** The loaded version of that name (undefined: the base, or none of that name). */
  find(name: string): ContractVersion | undefined;
  /** The loaded versions (the base is not one: the routes' own validators and serializers serve it). */
  list(): ContractVersion[];
}

/** A registry over the loaded versions; the base is only named (`base`), never compiled here. */
export function createRegistry(loaded: readonly LoadedVersion[], strict: boolean): ContractRegistry {
  const versions = new Map<string, ContractVersion>(
    loaded.map((v) => [v.name, compileVersion(v.name, v.file, v.title, v.document, v.switches, strict)]),
  );
  const names = () => [BASE_VERSION, ...versions.keys()];
  return {
    versioned: versions.size > 0,
    names,
    has: (name) => name === BASE_VERSION || versions.has(name),
    find: (name) => versions.get(name),
    get(name, field, place) {
      if (name === BASE_VERSION) return undefined;
      const found = versions.get(name);
      if (found) return found;
      throw new ApiError('unknown_contract_version', {
        field,
        in: place,
        message: `No contract version ${JSON.stringify(name)}: the versions are ${names().join(', ')}`,
      });
    },
    list: () => [...versions.values()],
  };
}
