/**
 * The served document as @pactflow/swagger-mock-validator 14.5.0 reads it right. The validator
 * takes OpenAPI 3.1 documents but reads some of 3.1 as 3.0 (docs/pact.md, "Checking a pact
 * against the document"); obsim gives it a copy with those constructs written in the form it
 * reads, which says the same:
 *
 * - a numeric `exclusiveMinimum`/`exclusiveMaximum` (JSON Schema 2020-12, as in 3.1) is read as
 *   3.0's boolean, so `exclusiveMinimum: 0` (a payment's amount) lost its bound: it becomes
 *   3.0's `minimum: 0, exclusiveMinimum: true` (the stricter of it and a `minimum` beside it);
 * - a response range (`4XX`, `5XX`) is not read at all, so a pact expecting a 404 was told the
 *   document has no such status and its error body was never checked: each status a pact expects
 *   that only a range documents is written out as that status, with the range's response.
 *
 * What it cannot say in the validator's terms is listed (`unchecked`), never silently dropped.
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON Schema 2020-12 keywords the validator's Ajv (draft 2019-09) does not apply as 3.1 means them. */
const NOT_READ = ['prefixItems', '$dynamicRef', '$dynamicAnchor', 'dependentSchemas'] as const;

function exclusiveBounds(schema: Json): void {
  for (const [exclusive, inclusive, stricter] of [
    ['exclusiveMinimum', 'minimum', (e: number, i: number) => e >= i],
    ['exclusiveMaximum', 'maximum', (e: number, i: number) => e <= i],
  ] as const) {
    const e = schema[exclusive];
    if (typeof e !== 'number') continue;
    const i = schema[inclusive];
    if (typeof i !== 'number' || stricter(e, i)) {
      schema[inclusive] = e;
      schema[exclusive] = true;
    } else delete schema[exclusive];
  }
}

function walk(node: unknown, at: string, visit: (schema: Json, at: string) => void): void {
  if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${at}/${i}`, visit));
  else if (isObject(node)) {
    visit(node, at);
    for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, visit);
  }
}

export interface AdaptedDocument {
  doc: Json;
  /** Pointers into the document of what the validator does not check (2020-12 keywords it does not read). */
  unchecked: string[];
}

/** A copy of `document` the validator reads as 3.1 means it, for pacts expecting `statuses` per (method, path template). */
export function adaptForValidator(
  document: Json,
  expected: readonly { method: string; template: string; status: number }[],
): AdaptedDocument {
  const doc = structuredClone(document);
  const unchecked: string[] = [];
  walk(doc, '', (schema, at) => {
    exclusiveBounds(schema);
    for (const keyword of NOT_READ) if (keyword in schema) unchecked.push(`${at}/${keyword}`);
  });
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const { method, template, status } of expected) {
    const responses = paths[template]?.[method.toLowerCase()]?.responses as Record<string, unknown> | undefined;
    if (!responses || String(status) in responses) continue;
    const range = `${String(status)[0]}XX`;
    const ranged = responses[range] ?? responses[range.toLowerCase()];
    if (ranged !== undefined) responses[String(status)] = ranged;
  }
  return { doc, unchecked };
}
