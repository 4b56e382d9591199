/**
 * `obsim pact check` behind the command: is every interaction of a pact a subset of the document
 * obsim serves? PactFlow's @pactflow/swagger-mock-validator does the check, on a copy of the
 * document it reads as OpenAPI 3.1 means it (./check-document.ts); each mismatch it finds gets an
 * RFC 6901 pointer into the pact and one into the document (its location, with references
 * followed to where the schema is written).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pointerToken } from '../domain/drift.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import { adaptForValidator } from './check-document.js';
import { loadSwaggerMockValidator, type ValidationResult } from './libraries.js';
import { documentedOperation } from './operations.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface CheckFinding {
  file: string;
  /** The interaction's index in the pact, and its description. */
  interaction: number | undefined;
  description: string | undefined;
  code: string;
  message: string;
  /** RFC 6901 pointer into the pact. */
  pact: string;
  /** RFC 6901 pointer into the document (references followed), when the mismatch is at a place in it. */
  document: string | undefined;
}

export interface CheckReport {
  mismatches: CheckFinding[];
  warnings: CheckFinding[];
  /** Pointers into the document of what the validator does not check. */
  unchecked: string[];
}

/** Validator results that say a request carries something the document does not allow: mismatches, not warnings. */
const PROMOTED = new Set(['request.query.unknown']);

/** `[root].interactions[3].request.body.amount` as tokens (`interactions`, `3`, `request`, …). */
function locationTokens(location: string): string[] {
  return location
    .replace(/^\[root\]\.?/, '')
    .split(/\.|(?=\[)/)
    .filter((t) => t !== '')
    .map((t) => t.replace(/^\[(.*)\]$/, '$1'));
}

/** The pointer into the pact: a V4 body's value is under `content`. */
function pactPointer(pact: Json, location: string | undefined): string {
  if (!location) return '';
  const tokens = locationTokens(location);
  const out: string[] = [];
  let node: unknown = pact;
  for (const token of tokens) {
    out.push(token);
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[token] : undefined;
    if (token === 'body' && isObject(node) && 'content' in node && 'contentType' in node) {
      out.push('content');
      node = node.content;
    }
  }
  return out.map(pointerToken).join('/').replace(/^/, '/');
}

/** The pointer into the document: the path template read whole, then each token, following a $ref where the document has one. */
function documentPointer(doc: Json, location: string | undefined): string | undefined {
  if (!location?.startsWith('[root].paths')) return undefined;
  const rest = location.slice('[root].paths.'.length);
  const template = Object.keys((doc.paths ?? {}) as Json)
    .filter((p) => rest === p || rest.startsWith(`${p}.`))
    .sort((a, b) => b.length - a.length)[0];
  if (!template) return '/paths';
  const tokens = ['paths', template, ...locationTokens(rest.slice(template.length + 1))];
  let pointer: string[] = [];
  let node: unknown = doc;
  for (const token of tokens) {
    for (let i = 0; isObject(node) && typeof node.$ref === 'string' && !(token in node) && i < 10; i++) {
      pointer = node.$ref.replace(/^#\//, '').split('/');
      node = pointer.reduce<unknown>((n, t) => (isObject(n) ? n[t.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
      pointer = pointer.map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    }
    // a status the validator was given from a range (check-document.ts) is the range's in the document
    const key = isObject(node) && !(token in node) && /^\d{3}$/.test(token) && `${token[0]}XX` in node ? `${token[0]}XX` : token;
    pointer.push(key);
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return `/${pointer.map(pointerToken).join('/')}`;
}

function finding(file: string, pact: Json, doc: Json, r: ValidationResult): CheckFinding {
  const location = r.mockDetails?.location;
  const index = location ? /interactions\[(\d+)\]/.exec(location)?.[1] : undefined;
  return {
    file,
    interaction: index === undefined ? undefined : Number(index),
    description: r.mockDetails?.interactionDescription,
    code: r.code,
    message: r.message,
    pact: pactPointer(pact, location),
    document: documentPointer(doc, r.specDetails?.location),
  };
}

/** The (method, template, status) each interaction of the pacts expects, for the document's response ranges. */
function expectedStatuses(pacts: readonly { doc: Json }[]) {
  const out: { method: string; template: string; status: number }[] = [];
  for (const { doc } of pacts)
    for (const i of (doc.interactions as unknown[] | undefined) ?? []) {
      if (!isObject(i) || !isObject(i.request) || !isObject(i.response)) continue;
      const method = String(i.request.method ?? 'GET').toLowerCase();
      const op = documentedOperation(method, String(i.request.path ?? ''));
      if (op?.kind === 'provider' && typeof i.response.status === 'number')
        out.push({ method, template: op.template, status: i.response.status });
    }
  return out;
}

export async function checkPacts(opts: {
  pacts: readonly { file: string; doc: Json }[];
  document: OpenApiDocument;
  command: string;
}): Promise<CheckReport> {
  const validator = await loadSwaggerMockValidator(opts.command);
  const { doc, unchecked } = adaptForValidator(opts.document, expectedStatuses(opts.pacts));
  const dir = mkdtempSync(join(tmpdir(), 'obsim-pact-check-'));
  const specPath = join(dir, 'openapi.json');
  writeFileSync(specPath, JSON.stringify(doc));
  const report: CheckReport = { mismatches: [], warnings: [], unchecked };
  try {
    for (const pact of opts.pacts) {
      const outcome = await validator.validate({ specPathOrUrl: specPath, mockPathOrUrl: pact.file });
      const original = opts.document as unknown as Json;
      for (const r of outcome.errors) report.mismatches.push(finding(pact.file, pact.doc, original, r));
      for (const r of outcome.warnings)
        (PROMOTED.has(r.code) ? report.mismatches : report.warnings).push(finding(pact.file, pact.doc, original, r));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return report;
}
