/**
 * A version's document shows what the version sends: the examples of its answers and webhooks are
 * shaped by the same switches as the answers obsim sends (a new field made, a value now sent, a
 * field no longer sent; an answer whose status a switch changes gets its example under the new
 * status), and every example of the document must then follow its schema, or the version is
 * refused naming the example's pointer. A partner generates clients and mocks from that document;
 * its lint (Spectral's oas3-valid-media-example, Redocly's no-invalid-media-type-examples) passes
 * as the base's does (test/contracts/version-lint.test.ts).
 */
import type { Ajv, ErrorObject } from 'ajv';
import { pointerToken } from '../domain/drift.js';
import { shapeAnswer, type AnswerSwitch, type ContractSwitches } from '../domain/contract-switches.js';
import { lazyRequire } from '../lazy.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import { operationsOf } from './walk.js';

type Json = Record<string, unknown>;
interface MediaType {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The instant a `{generate: now}` switch writes into an example: the example's own, else a fixed one (examples never depend on when obsim started). */
function exampleInstant(example: unknown): string {
  if (isObject(example))
    for (const key of ['timestamp', 'updatedAt', 'createdAt']) if (typeof example[key] === 'string') return example[key];
  return '2026-01-01T00:00:00.000Z';
}

function shapeMedia(media: MediaType | undefined, rules: readonly AnswerSwitch[], version: string): void {
  if (!media || rules.length === 0) return;
  const shape = (example: unknown) => shapeAnswer(rules, example, { version, now: () => exampleInstant(example) });
  if (media.example !== undefined) media.example = shape(media.example);
  for (const named of Object.values(media.examples ?? {})) if (named.value !== undefined) named.value = shape(named.value);
}

/** The examples of `document` (a version's, changed in place) shaped by its switches, as its answers are. */
export function shapeExamples(document: OpenApiDocument, switches: ContractSwitches, version: string): void {
  const rulesOf = (target: string) => (switches.answers ?? []).filter((r) => r.in === target);
  for (const op of operationsOf(document)) {
    const responses = (op.operation.responses ?? {}) as Record<string, { content?: Record<string, MediaType> }>;
    // a status the version answers instead: its answer shows the example the base's status showed
    for (const [from, to] of Object.entries(switches.operations?.[op.id]?.status ?? {})) {
      const source = responses[from]?.content?.['application/json'];
      const target = responses[String(to)]?.content?.['application/json'];
      if (source?.example !== undefined && target && target.example === undefined && target.examples === undefined)
        target.example = structuredClone(source.example);
    }
    const rules = rulesOf(op.id);
    for (const [status, response] of Object.entries(responses))
      if (status.startsWith('2')) shapeMedia(response.content?.['application/json'], rules, version);
  }
  for (const [event, item] of Object.entries(document.webhooks ?? {}))
    shapeMedia(
      (item as { post?: { requestBody?: { content?: Record<string, MediaType> } } }).post?.requestBody?.content?.['application/json'],
      rulesOf(event),
      version,
    );
}

/**
 * The headers a version's `headers` switches make, declared where a client reads what an answer
 * carries: in each successful answer of the operation (a header the overlay already declares
 * there is left as the overlay wrote it). The changelog then shows each as an answer header added.
 */
export function declareMadeHeaders(document: OpenApiDocument, switches: ContractSwitches): void {
  for (const op of operationsOf(document)) {
    const made = switches.operations?.[op.id]?.headers;
    if (made === undefined) continue;
    const responses = (op.operation.responses ?? {}) as Record<string, { headers?: Record<string, unknown> }>;
    for (const [status, response] of Object.entries(responses)) {
      if (!status.startsWith('2')) continue;
      const declared = new Set(Object.keys(response.headers ?? {}).map((n) => n.toLowerCase()));
      for (const [name, source] of Object.entries(made)) {
        if (declared.has(name.toLowerCase())) continue;
        (response.headers ??= {})[name] = {
          description: `Sent by obsim under this version (x-obsim.operations.${op.id}.headers)`,
          schema: { type: 'string', ...('const' in source ? { examples: [String(source.const)] } : {}) },
        };
      }
    }
  }
}

const ajvModule = lazyRequire<typeof import('ajv')>('ajv');
const ajvFormats = lazyRequire<{ default: (ajv: Ajv) => Ajv }>('ajv-formats');

/** Every example of the document with its schema: where it is (an RFC 6901 pointer into the document) and where its schema is. */
function* examplesOf(document: OpenApiDocument): Generator<{ at: string; value: unknown; schemaAt: string }> {
  function* media(at: string, node: unknown): Generator<{ at: string; value: unknown; schemaAt: string }> {
    if (!isObject(node) || node.schema === undefined) return;
    if (node.example !== undefined) yield { at: `${at}/example`, value: node.example, schemaAt: `${at}/schema` };
    for (const [name, named] of Object.entries((node.examples as Record<string, Json> | undefined) ?? {}))
      if (isObject(named) && named.value !== undefined)
        yield { at: `${at}/examples/${pointerToken(name)}/value`, value: named.value, schemaAt: `${at}/schema` };
  }
  function* operation(at: string, op: Json): Generator<{ at: string; value: unknown; schemaAt: string }> {
    const parameters = (op.parameters as unknown[] | undefined) ?? [];
    for (let i = 0; i < parameters.length; i++) yield* media(`${at}/parameters/${i}`, parameters[i]);
    const content = (c: unknown, where: string) =>
      Object.entries((c as Json | undefined) ?? {}).map(([type, m]) => media(`${where}/content/${pointerToken(type)}`, m));
    for (const gen of content((op.requestBody as Json | undefined)?.content, `${at}/requestBody`)) yield* gen;
    for (const [status, response] of Object.entries((op.responses as Json | undefined) ?? {}))
      for (const gen of content((response as Json).content, `${at}/responses/${pointerToken(status)}`)) yield* gen;
  }
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const [method, op] of Object.entries(item as Json))
      if (isObject(op) && method !== 'parameters') yield* operation(`/paths/${pointerToken(path)}/${pointerToken(method)}`, op);
  for (const [event, item] of Object.entries(document.webhooks ?? {}))
    for (const [method, op] of Object.entries(item as Json))
      if (isObject(op)) yield* operation(`/webhooks/${pointerToken(event)}/${pointerToken(method)}`, op);
}

const describe = (e: ErrorObject): string => {
  if (e.keyword === 'required') return `${e.instancePath}/${String(e.params.missingProperty)} is required`;
  if (e.keyword === 'additionalProperties')
    return `${e.instancePath}/${String(e.params.additionalProperty)} is not a property of its schema`;
  return `${e.instancePath || '(the example)'} ${e.message ?? 'is not valid'}`;
};

const REF = '#/components/schemas/';
/** A copy of `value` whose `#/components/schemas/X` refs read `X#`: each component is a schema of its own, compiled once for every example. */
function byId(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(byId);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value))
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith(REF) ? `${v.slice(REF.length)}#` : byId(v);
  return out;
}

const valueAt = (root: unknown, pointer: string): unknown =>
  pointer
    .slice(1)
    .split('/')
    .reduce<unknown>(
      (node, t) => (node !== null && typeof node === 'object' ? (node as Json)[t.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
      root,
    );

/** The first example of `document` that does not follow its schema: its pointer and why; undefined when all do. */
export function brokenExample(document: OpenApiDocument): { at: string; problem: string } | undefined {
  const { Ajv } = ajvModule();
  const ajv = new Ajv({ allErrors: false, strict: false, allowUnionTypes: true, validateSchema: false });
  ajvFormats().default(ajv);
  for (const [id, schema] of Object.entries(document.components.schemas ?? {})) ajv.addSchema({ ...(byId(schema) as object), $id: id });
  // many examples share a schema (a $ref to the same component, the same parameter)
  const compiled = new Map<string, ReturnType<Ajv['compile']>>();
  for (const { at, value, schemaAt } of examplesOf(document)) {
    const schema = byId(valueAt(document, schemaAt)) as object;
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile(schema)));
    if (!validate(value)) return { at, problem: describe(validate.errors![0]) };
  }
  return undefined;
}
