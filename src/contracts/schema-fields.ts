/**
 * The fields of a JSON Schema as the changelog compares them (src/contracts/changelog.ts): every
 * field a body can hold, by RFC 6901 pointer into the body (`*` for every item of an array), with
 * its type, its enum, whether its object requires it, whether it is deprecated, and where its
 * schema is written in the document (a JSON pointer: `/components/schemas/Payment/properties/status`).
 * `$ref`s are followed, `allOf`/`anyOf`/`oneOf` branches merged (a field of any branch is a field).
 */
import { pointerToken } from '../domain/drift.js';
import type { OpenApiDocument } from '../openapi/documents.js';

type Json = Record<string, unknown>;
export type EnumValue = string | number | boolean | null;

export interface FieldInfo {
  /** The JSON types it may hold, sorted, with a string's format (`null|string/date-time`); '' when the schema names none. */
  type: string;
  enum?: EnumValue[];
  required: boolean;
  deprecated: boolean;
  /** Where its schema is written in the document. */
  at: string;
}

const REF = '#/components/schemas/';
/** Fields nested deeper than this are not compared (no body of the provider's API comes near it). */
const MAX_DEPTH = 16;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `schema` written at `at`, with its `$ref`s followed: the schema and where it is written. */
function resolve(doc: Pick<OpenApiDocument, 'components'>, schema: unknown, at: string): { node: Json; at: string } | undefined {
  let node = schema;
  let where = at;
  for (let i = 0; i < 32 && isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith(REF); i++) {
    const name = node.$ref.slice(REF.length);
    where = `/components/schemas/${pointerToken(name)}`;
    node = (doc.components.schemas ?? {})[name];
  }
  return isObject(node) ? { node, at: where } : undefined;
}

function typesOf(node: Json): string[] {
  const types = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === 'string' ? [node.type] : [];
  return types.map((t) => (t === 'string' && typeof node.format === 'string' ? `string/${node.format}` : t));
}

/** Every field of `schema` (written at `at` in `doc`), the body itself at ''. */
export function fieldsOf(doc: Pick<OpenApiDocument, 'components'>, schema: unknown, at: string): Map<string, FieldInfo> {
  const out = new Map<string, FieldInfo>();
  const types = new Map<string, Set<string>>();
  const visiting = new Set<string>();
  const walk = (s: unknown, schemaAt: string, pointer: string, required: boolean, depth: number): void => {
    const resolved = resolve(doc, s, schemaAt);
    if (!resolved || depth > MAX_DEPTH) return;
    const { node } = resolved;
    let info = out.get(pointer);
    if (!info) out.set(pointer, (info = { type: '', required, deprecated: false, at: resolved.at }));
    else info.required ||= required;
    if (node.deprecated === true || (isObject(s) && s.deprecated === true)) info.deprecated = true;
    const own = types.get(pointer) ?? new Set<string>();
    for (const t of typesOf(node)) own.add(t);
    types.set(pointer, own);
    if (Array.isArray(node.enum)) info.enum = [...new Set([...(info.enum ?? []), ...(node.enum as EnumValue[])])];
    // a schema reached again below itself (a recursive one) is not walked twice along one path
    if (visiting.has(resolved.at)) return;
    visiting.add(resolved.at);
    for (const branch of ['allOf', 'anyOf', 'oneOf'] as const) {
      const subs = (node[branch] as unknown[] | undefined) ?? [];
      subs.forEach((sub, i) => walk(sub, `${resolved.at}/${branch}/${i}`, pointer, required, depth));
    }
    if (node.items !== undefined) walk(node.items, `${resolved.at}/items`, `${pointer}/*`, true, depth + 1);
    const requiredNames = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    for (const [name, prop] of Object.entries((node.properties as Json | undefined) ?? {}))
      walk(prop, `${resolved.at}/properties/${pointerToken(name)}`, `${pointer}/${pointerToken(name)}`, requiredNames.has(name), depth + 1);
    visiting.delete(resolved.at);
  };
  walk(schema, at, '', true, 0);
  for (const [pointer, info] of out) info.type = [...(types.get(pointer) ?? [])].sort().join('|');
  return out;
}
