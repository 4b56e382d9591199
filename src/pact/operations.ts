/**
 * Which documented operation a journaled request is, for the pact exporter and checker: asked of
 * the one capture rule (src/contracts/ids.ts, `operations().match`, read once), never matched
 * again here. Two things the rule leaves to its callers, because only Pact needs them:
 *
 * - a request answered under a contract version is read through that version's document (the
 *   registry's, handed in by the caller): the operation is the base's (a version may remove
 *   operations, never add one obsim could serve), its schemas the version's;
 * - an answer's schema for a status only a range documents (`4XX`, `default`): the rule hands out
 *   ids from exact statuses only (an error hands out none), but a pact still matches an error
 *   body (its `code`) by the schema the range gives.
 */
import { operations, type Doc, type Operation, type Operations } from '../contracts/ids.js';
import type { OpenApiDocument } from '../openapi/documents.js';

type Json = Record<string, unknown>;

let known: Operations | undefined;

/** The documented operation `method path` is (no query): the provider's, else one of obsim's controls. */
export function documentedOperation(method: string, path: string): Operation | undefined {
  known ??= operations();
  return known.match(method, path);
}

/**
 * A provider operation with its schemas from `versionDocument` when it was served under a contract
 * version; undefined: a control, or an operation the version removed.
 */
export function providerOperationIn(op: Operation, method: string, versionDocument?: OpenApiDocument): Operation | undefined {
  if (op.kind !== 'provider') return undefined;
  if (versionDocument === undefined) return op;
  const doc = versionDocument as unknown as Doc;
  const spec = doc.paths[op.template]?.[method.toLowerCase()];
  return spec === undefined ? undefined : { ...op, spec, doc };
}

/** The JSON schema of `op`'s answer of `status`: the status's own, else its range's (`4XX`), else `default`. */
export function answerSchemaOf(op: Operation, status: number): Json | undefined {
  const responses = (op.spec.responses ?? {}) as Record<string, { content?: Record<string, { schema?: Json }> }>;
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
  return key === undefined ? undefined : responses[key].content?.['application/json']?.schema;
}
