/**
 * Contract versions from a folder (`--contracts DIR`, OBSIM_CONTRACTS): each YAML or JSON file an
 * OpenAPI Overlay 1.0 over the provider's document (its `info.version` names the version), with
 * the behaviour switches under `x-obsim` (src/domain/contract-switches.ts). Everything is checked
 * here, at start, so that a version that loads is one obsim can serve: a problem is a
 * ContractFileError naming the file and an RFC 6901 pointer into it, and `obsim serve` prints it in
 * one line and exits 2 (docs/contract-versions.md).
 */
import { pointerToken } from '../domain/drift.js';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Ajv, ErrorObject } from 'ajv';
import { BASE_VERSION, headerNotMakeable, pointerTokens, type ContractSwitches, type ValueSource } from '../domain/contract-switches.js';
import { lazyRequire } from '../lazy.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import { applyOverlay, OverlayError, type OverlayDocument } from './overlay.js';
import { ContractFileError } from './errors.js';
import { brokenExample, declareMadeHeaders, shapeExamples } from './examples.js';
import { OVERLAY_SCHEMA, SWITCHES_SCHEMA } from './schemas.js';
import { deprecatedFields, schemaAt, successHeaders, type Operation, operationsOf } from './walk.js';

export interface LoadedVersion {
  name: string;
  /** The file it came from, as given (folder and name). */
  file: string;
  document: OpenApiDocument;
  switches: ContractSwitches;
  title: string;
  /** The file as written (its actions): what `drift adopt` carries into a version made over this one. */
  overlay: OverlayDocument;
}

export const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const FILES = /\.(ya?ml|json)$/i;

const ajvModule = lazyRequire<typeof import('ajv')>('ajv');
let ajv: Ajv | undefined;
const validatorOf = (schema: object) => {
  ajv ??= new (ajvModule().Ajv)({ allErrors: false, strict: false, allowUnionTypes: true });
  return ajv.compile(schema);
};

const firstError = (errors: ErrorObject[] | null | undefined): { at: string; message: string } => {
  let e = errors?.[0];
  if (!e) return { at: '', message: 'is not valid' };
  // the only oneOf of the schemas is a value maker: a wrong value inside one branch says what is
  // wrong with it; otherwise the object is none of them (not "the first branch's key is missing")
  const oneOf = errors!.find((x) => x.keyword === 'oneOf');
  if (oneOf) {
    const deeper = errors!.find((x) => x.instancePath.startsWith(`${oneOf.instancePath}/`));
    if (!deeper) return { at: oneOf.instancePath, message: 'is not one value maker: {const}, {copy}, {template} or {generate}' };
    e = deeper;
  }
  let at = e.instancePath;
  // a key of a map (a status, a header's name) that is not one: the pointer names the key
  if (e.propertyName !== undefined)
    return { at: `${at}/${pointerToken(e.propertyName)}`, message: `is not a valid name here (${e.message})` };
  if (e.keyword === 'required') at += `/${String(e.params.missingProperty)}`;
  if (e.keyword === 'additionalProperties')
    return { at: `${at}/${String(e.params.additionalProperty)}`, message: 'is not a known property' };
  return { at, message: e.message ?? 'is not valid' };
};

/** The version files of `dir`, in name order. */
export function versionFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new ContractFileError(dir, '', `cannot read the folder (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return names
    .filter((n) => FILES.test(n))
    .sort()
    .map((n) => join(dir, n));
}

/** Parse and check one version file against `base` (the provider's document). Synchronous checks only; see `checkDocument`. */
export function loadVersion(file: string, base: OpenApiDocument): LoadedVersion {
  const fail = (pointer: string, problem: string): never => {
    throw new ContractFileError(file, pointer, problem);
  };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return fail('', `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text, { prettyErrors: false, maxAliasCount: 100 });
  } catch (err) {
    return fail('', `is neither YAML nor JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  const overlayCheck = validatorOf(OVERLAY_SCHEMA);
  if (!overlayCheck(raw)) {
    const { at, message } = firstError(overlayCheck.errors);
    return fail(at, `is not an OpenAPI Overlay 1.0 document: ${message}`);
  }
  const overlay = raw as OverlayDocument;
  const name = overlay.info.version;
  if (!VERSION_NAME.test(name)) fail('/info/version', 'a version name is 1 to 64 letters, digits, dots, dashes or underscores');
  if (name === BASE_VERSION) fail('/info/version', `"${BASE_VERSION}" is the provider's document itself: name the version otherwise`);
  const switches = (overlay['x-obsim'] ?? {}) as ContractSwitches;
  const switchCheck = validatorOf(SWITCHES_SCHEMA);
  if (!switchCheck(switches)) {
    const { at, message } = firstError(switchCheck.errors);
    fail(`/x-obsim${at}`, message);
  }
  let document: OpenApiDocument;
  try {
    document = applyOverlay(base, overlay);
  } catch (err) {
    if (err instanceof OverlayError) return fail(`/actions/${err.action}/${err.property}`, err.message);
    throw err;
  }
  document.info = { ...document.info, version: name };
  checkSwitches(switches, base, document, fail);
  // the document shows what the version sends: the headers it makes, and examples shaped by its switches that follow its schemas
  declareMadeHeaders(document, switches);
  shapeExamples(document, switches, name);
  const broken = brokenExample(document);
  if (broken) fail('', `the example at ${broken.at} of the document it makes does not follow its schema: ${broken.problem}`);
  return { name, file, document, switches, title: overlay.info.title, overlay };
}

/** The whole document is OpenAPI 3.1 (swagger-parser: the OAS 3.1 JSON Schema and every $ref resolvable). */
export async function checkDocument(version: LoadedVersion): Promise<void> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  try {
    await SwaggerParser.validate(structuredClone(version.document) as never);
  } catch (err) {
    const message = (err as Error).message.split('\n').slice(0, 2).join(' ').trim();
    throw new ContractFileError(version.file, '', `the document it makes is not a valid OpenAPI 3.1 document: ${message}`);
  }
}

function checkSwitches(
  switches: ContractSwitches,
  base: OpenApiDocument,
  document: OpenApiDocument,
  fail: (pointer: string, problem: string) => never,
): void {
  const ops = new Map<string, Operation>();
  for (const doc of [base, document]) for (const op of operationsOf(doc)) if (!ops.has(op.id) || doc === document) ops.set(op.id, op);
  const events = new Set([...Object.keys(base.webhooks ?? {}), ...Object.keys(document.webhooks ?? {})]);
  for (const [id, op] of Object.entries(switches.operations ?? {})) {
    const at = `/x-obsim/operations/${pointerToken(id)}`;
    if (!ops.has(id)) fail(at, `names no operation of the document (operationIds: ${[...ops.keys()].join(', ')})`);
    for (const key of ['deprecatedAt', 'sunsetAt'] as const)
      if (op[key] !== undefined && Number.isNaN(Date.parse(op[key]))) fail(`${at}/${key}`, 'is not an instant');
    if (op.deprecatedAt && op.sunsetAt && Date.parse(op.sunsetAt) < Date.parse(op.deprecatedAt))
      fail(`${at}/sunsetAt`, 'is before the deprecation instant');
    checkHeaders(id, op.headers, `${at}/headers`, base, answerSchemas(id, base, document, ops, events) ?? [], fail);
    for (const [from, to] of Object.entries(op.status ?? {})) {
      const responses = ops.get(id)!.operation.responses ?? {};
      if (!(from in responses)) fail(`${at}/status/${from}`, `the operation never answers ${from}`);
      if (!(String(to) in (documentOperation(document, id)?.operation.responses ?? {})))
        fail(`${at}/status/${from}`, `${to} is not a status the version's document gives this operation: add it with an overlay action`);
    }
  }
  (switches.answers ?? []).forEach((rule, i) => {
    const at = `/x-obsim/answers/${i}`;
    const schemas = answerSchemas(rule.in, base, document, ops, events);
    if (schemas === undefined) fail(`${at}/in`, `names no operationId and no webhook event of the document`);
    const known = (pointer: string) =>
      schemas.some((s) => s.schema !== undefined && schemaAt(s.doc, s.schema, pointerTokens(pointer)) !== undefined);
    if (!known(rule.field)) fail(`${at}/field`, `${rule.field} is not a field of ${rule.in}'s answer`);
    if (rule.when && !known(rule.when.field)) fail(`${at}/when/field`, `${rule.when.field} is not a field of ${rule.in}'s answer`);
    if (rule.value && 'copy' in rule.value && !known(rule.value.copy))
      fail(`${at}/value/copy`, `${rule.value.copy} is not a field of ${rule.in}'s answer`);
    const kinds = [rule.remove === true, rule.value !== undefined, rule.send !== undefined].filter(Boolean).length;
    if (kinds !== 1) fail(at, 'a switch does one thing: remove, value (a new field) or send (a value now sent)');
    if (rule.when && rule.send === undefined) fail(`${at}/when`, 'only a value now sent (send) has a condition');
  });
  if (switches.deprecatedAt !== undefined && Number.isNaN(Date.parse(switches.deprecatedAt)))
    fail('/x-obsim/deprecatedAt', 'is not an instant');
  checkDeprecationInstants(switches, document, fail);
}

/**
 * An operation's answer headers: each a name obsim does not already send (neither one it sets
 * itself nor one the provider's document gives the operation's successful answers, as
 * `x-request-id`), named once (header names are not case-sensitive), a copy reading a field of
 * the operation's answer.
 */
function checkHeaders(
  id: string,
  headers: Record<string, ValueSource> | undefined,
  at: string,
  base: OpenApiDocument,
  schemas: { doc: OpenApiDocument; schema: unknown }[],
  fail: (pointer: string, problem: string) => never,
): void {
  const given = new Map<string, string>();
  const baseOp = documentOperation(base, id);
  const documented = baseOp ? successHeaders(baseOp) : new Set<string>();
  for (const [name, source] of Object.entries(headers ?? {})) {
    const where = `${at}/${pointerToken(name)}`;
    const lower = name.toLowerCase();
    if (given.has(lower)) fail(where, `names the header ${given.get(lower)} again (header names are not case-sensitive)`);
    given.set(lower, name);
    const refused = headerNotMakeable(name, id, documented);
    if (refused !== undefined) fail(where, refused);
    if ('copy' in source && !schemas.some((s) => s.schema !== undefined && schemaAt(s.doc, s.schema, pointerTokens(source.copy))))
      fail(`${where}/copy`, `${source.copy} is not a field of ${id}'s answer`);
  }
}

/**
 * Every deprecation of the version's document says when: an operation marked `deprecated: true`
 * needs its own `deprecatedAt` or the version's, and so does an operation whose request or answer
 * carries a deprecated field or parameter. Without one, the answers would carry no `Deprecation`
 * header and the listing would hide the deprecation (docs/contract-versions.md).
 */
function checkDeprecationInstants(
  switches: ContractSwitches,
  document: OpenApiDocument,
  fail: (pointer: string, problem: string) => never,
): void {
  if (switches.deprecatedAt !== undefined) return;
  for (const op of operationsOf(document)) {
    if (switches.operations?.[op.id]?.deprecatedAt !== undefined) continue;
    const at = `/x-obsim/operations/${pointerToken(op.id)}/deprecatedAt`;
    const what = `${op.id} (${op.method} ${op.path})`;
    if (op.operation.deprecated === true)
      fail(
        at,
        `${what} is deprecated in the document the version makes, but no instant says since when: give it here, or give the version's x-obsim.deprecatedAt`,
      );
    const fields = [
      ...(op.operation.parameters ?? []).filter((p) => p.deprecated === true).map((p) => `the ${p.in} parameter ${p.name}`),
      ...deprecatedFields(document, op.operation.requestBody?.content?.['application/json']?.schema).map((f) => `the request field ${f}`),
      ...Object.entries(op.operation.responses ?? {})
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([, r]) => deprecatedFields(document, r.content?.['application/json']?.schema).map((f) => `the answer field ${f}`)),
    ];
    if (fields.length > 0)
      fail(
        at,
        `${what} has ${fields[0]} deprecated in the document the version makes, but no instant says since when: give it here, or give the version's x-obsim.deprecatedAt`,
      );
  }
}

function documentOperation(doc: OpenApiDocument, id: string): Operation | undefined {
  for (const op of operationsOf(doc)) if (op.id === id) return op;
  return undefined;
}

/** Every answer schema of an operation or event, in either document (a field the version removes is named by the base's). */
function answerSchemas(
  name: string,
  base: OpenApiDocument,
  document: OpenApiDocument,
  ops: Map<string, Operation>,
  events: Set<string>,
): { doc: OpenApiDocument; schema: unknown }[] | undefined {
  if (events.has(name)) {
    return [base, document].map((doc) => ({
      doc,
      schema: doc.webhooks?.[name]?.post?.requestBody?.content?.['application/json']?.schema,
    }));
  }
  if (!ops.has(name)) return undefined;
  return [base, document].flatMap((doc) => {
    const op = documentOperation(doc, name);
    return Object.values(op?.operation.responses ?? {}).map((r) => ({ doc, schema: r.content?.['application/json']?.schema }));
  });
}

/** Load every version of `dir` against `base`; names are unique. */
export async function loadVersions(dir: string, base: OpenApiDocument): Promise<LoadedVersion[]> {
  const versions: LoadedVersion[] = [];
  for (const file of versionFiles(dir)) {
    const version = loadVersion(file, base);
    const twin = versions.find((v) => v.name === version.name);
    if (twin) throw new ContractFileError(file, '/info/version', `${version.name} is also the version of ${basename(twin.file)}`);
    await checkDocument(version);
    versions.push(version);
  }
  return versions;
}
