/**
 * The changelog (src/contracts/changelog.ts) on the seeded corpus and on the shipped example
 * version:
 * - it finds exactly the corpus's changes (written down by hand from the two version files), the
 *   answer headers a version's switches make among them;
 * - every pointer resolves in the side it names, to what the change is about;
 * - its verdicts agree with an independent tool, api-smart-diff (npm, offline, OpenAPI 3.1), on
 *   every operation, status, parameter and field both compare. api-smart-diff compares enum
 *   lists by position and not by value, so verdicts are compared per field (a field is breaking
 *   when any of its changes is); it has no verdict for webhooks (it does not read them) nor for the
 *   x-obsim switches (they are not in the documents). One kind is a known disagreement, kept here
 *   so that the test notices if it ends: an answer field retyped (obsim: breaking, with oasdiff's
 *   response-property-type-changed; api-smart-diff: non-breaking).
 */
import { apiCompare } from 'api-smart-diff';
import t, { type Test } from 'tap';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { changelog, type VersionSide } from '../../src/contracts/changelog.js';
import { loadVersions } from '../../src/contracts/load.js';
import type { ContractChange } from '../../src/domain/contract-changes.js';
import { committedProviderDocument } from '../../src/plugins/contract-versions.js';
import { build, json, PARTNER, schemaErrors } from '../helpers/app.js';
import { CORPUS_CHANGES, CORPUS_DIR, corpusVersions } from '../helpers/changelog-corpus.js';
import { ROOT } from '../helpers/processes.js';

type Json = Record<string, any>;
const base: VersionSide = { name: 'base', document: committedProviderDocument(), switches: {} };

/** RFC 6901, read here by hand: the test does not take its pointers from the code under test's helpers. */
function resolve(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node = root as Json | undefined;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node === null || typeof node !== 'object' ? undefined : node[token];
  }
  return node;
}

t.test('the corpus: at least 20 seeded changes of every kind the issue names, all found and nothing else', async (t) => {
  const { a, b } = await corpusVersions();
  const changes = changelog(a, b);
  t.same(changes.map((c) => c.id).sort(), Object.keys(CORPUS_CHANGES).sort());
  t.ok(changes.length >= 20);
  const kinds = new Set(changes.map((c) => c.kind));
  for (const kind of [
    'request-field-added',
    'request-field-removed',
    'request-field-retyped',
    'answer-field-added',
    'answer-field-removed',
    'answer-field-retyped',
    'enum-value-added',
    'enum-value-removed',
    'operation-deprecated',
    'operation-removed',
    'status-added',
    'status-removed',
    'status-changed',
    'webhook-field-added',
    'webhook-field-removed',
    'header-added',
    'header-removed',
    'sunset',
    'value-now-sent',
    'field-no-longer-sent',
  ] as const)
    t.ok(kinds.has(kind), `the corpus has a ${kind}`);
  // an answer header a switch makes is declared in the document: a header change of the answer
  t.match(
    changes.find((c) => c.id === 'header-added getPaymentStatus 200 retry-after'),
    { place: 'answer-header', breaking: false, rule: 'response-header-added', toPointer: /\/responses\/200\/headers\/Retry-After$/ },
  );
  // a rename is a field removed and one added, in the same object
  t.ok(changes.some((c) => c.id === 'answer-field-removed createPayment 200 /referenceNumber'));
  t.ok(changes.some((c) => c.id === 'answer-field-added createPayment 200 /reference'));
});

t.test('each pointer resolves in its side: the document for a document change, the version file for a switch', async (t) => {
  const { a, b } = await corpusVersions();
  const files = {
    a: parse(readFileSync(join(CORPUS_DIR, 'corpus-a.yaml'), 'utf8')) as Json,
    b: parse(readFileSync(join(CORPUS_DIR, 'corpus-b.yaml'), 'utf8')) as Json,
  };
  for (const c of changelog(a, b)) {
    const from = c.source === 'switches' ? files.a : a.document;
    const to = c.source === 'switches' ? files.b : b.document;
    if (c.fromPointer !== undefined) t.not(resolve(from, c.fromPointer), undefined, `${c.id}: ${c.fromPointer} in corpus-a`);
    if (c.toPointer !== undefined) t.not(resolve(to, c.toPointer), undefined, `${c.id}: ${c.toPointer} in corpus-b`);
    t.ok(c.fromPointer !== undefined || c.toPointer !== undefined, `${c.id}: points somewhere`);
    if (c.kind.endsWith('-removed') && !c.kind.startsWith('enum') && c.source === 'document')
      t.equal(c.toPointer, undefined, `${c.id}: nothing to point at in corpus-b`);
    if (c.kind === 'enum-value-added') t.equal(resolve(b.document, c.toPointer!), c.value, `${c.id}: the value itself`);
    if (c.kind === 'enum-value-removed') t.equal(resolve(a.document, c.fromPointer!), c.value, `${c.id}: the value itself`);
  }
});

/** A group both tools can judge: an operation, a status, a parameter, or a field of a body. */
function groupOfChange(c: ContractChange): string | undefined {
  if (c.source === 'switches' || c.event !== undefined) return undefined;
  const op = `${c.method} ${c.path}`;
  if (c.kind.startsWith('operation-')) return `${op} | operation`;
  if (c.kind === 'status-added' || c.kind === 'status-removed') return `${op} | status ${c.status!.toLowerCase()}`;
  if (c.place === 'header' || c.place === 'query') return `${op} | ${c.place} parameter ${c.field}`;
  if (c.place === 'answer-header') return `${op} | answer ${c.status!.toLowerCase()} header ${c.field}`;
  if (c.place === 'request') return `${op} | request ${c.field}`;
  if (c.place === 'answer') return `${op} | answer ${c.status!.toLowerCase()} ${c.field}`;
  return undefined;
}

/** The same group of an api-smart-diff diff: its path read back to a field (`properties/x/items` → `/x/*`). */
function groupOfDiff(
  d: { path: (string | number)[]; action: string; before?: unknown; after?: unknown },
  docs: { a: Json; b: Json },
): string | undefined {
  const [root, path, method, part, ...rest] = d.path.map(String);
  if (root !== 'paths' || method === undefined) return undefined;
  const op = `${method.toUpperCase()} ${path}`;
  if (part === undefined || part === 'deprecated') return `${op} | operation`;
  if (part === 'parameters') {
    const doc = d.action === 'add' ? docs.b : docs.a;
    const p = doc.paths[path][method].parameters[Number(rest[0])] as { in: string; name: string };
    return `${op} | ${p.in} parameter ${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  }
  let schemaPath: string[];
  let prefix: string;
  if (part === 'requestBody') {
    schemaPath = rest.slice(3);
    prefix = 'request';
  } else if (part === 'responses') {
    if (rest.length === 1) return `${op} | status ${rest[0].toLowerCase()}`;
    if (rest[1] === 'headers') return `${op} | answer ${rest[0].toLowerCase()} header ${rest[2].toLowerCase()}`;
    schemaPath = rest.slice(4);
    prefix = `answer ${rest[0].toLowerCase()}`;
  } else return undefined;
  let field = '';
  for (let i = 0; i < schemaPath.length; i++) {
    const key = schemaPath[i];
    if (key === 'properties' && i + 1 < schemaPath.length) field += `/${schemaPath[++i]}`;
    else if (key === 'items') field += '/*';
    else if (key === 'required') {
      // an entry of `required`: the property it names
      const name = String(d.action === 'remove' ? d.before : d.after);
      field += `/${name}`;
      break;
    } else break;
  }
  return `${op} | ${prefix} ${field}`;
}

function compareWithApiSmartDiff(t: Test, from: VersionSide, to: VersionSide, disagreements: Record<string, string>): void {
  const ours = new Map<string, boolean>();
  for (const c of changelog(from, to)) {
    const g = groupOfChange(c);
    if (g !== undefined) ours.set(g, (ours.get(g) ?? false) || c.breaking);
  }
  const theirs = new Map<string, boolean>();
  const { diffs } = apiCompare(structuredClone(from.document), structuredClone(to.document));
  for (const d of diffs) {
    // unclassified: no verdict; an annotation (a description) is not a change of the contract
    if (d.type === 'unclassified' || d.type === 'annotation') continue;
    const g = groupOfDiff(d, { a: from.document, b: to.document });
    if (g !== undefined) theirs.set(g, (theirs.get(g) ?? false) || d.type === 'breaking');
  }
  t.ok(ours.size >= 5, `${ours.size} groups compared`);
  t.same([...theirs.keys()].sort(), [...ours.keys()].sort(), 'both find changes in the same operations, statuses, parameters and fields');
  for (const [g, breaking] of ours) {
    if (!theirs.has(g)) continue;
    if (g in disagreements) {
      t.equal(theirs.get(g), !breaking, `${g}: api-smart-diff still disagrees (${disagreements[g]})`);
      continue;
    }
    t.equal(breaking, theirs.get(g), `${g}: ${breaking ? 'breaking' : 'not breaking'} for both`);
  }
}

t.test("a retyped field's verdict is oasdiff's, case by case as its published tests have it", async (t) => {
  // github.com/oasdiff/oasdiff checker/check_breaking_response_type_changed_test.go and
  // check_breaking_request_type_changed_test.go: the type of a response (request) body changed
  const side = (name: string, answer: string, request: string): VersionSide => {
    const document = structuredClone(base.document) as Json;
    document.components.schemas.Payment.properties.amount = { type: answer };
    document.components.schemas.CreatePaymentRequest.properties.amount = { type: request };
    return { name, document: document as VersionSide['document'], switches: {} };
  };
  const verdicts = (from: VersionSide, to: VersionSide) =>
    Object.fromEntries(
      changelog(from, to)
        .filter((c) => c.operationId === 'createPayment' && c.field === '/amount')
        .map((c) => [c.place, c.breaking]),
    );
  const cases: [string, string, string, Record<string, boolean>][] = [
    // [answer and request type before, after, oasdiff's verdict per place]
    ['number', 'integer', 'RespTypeNumberToInteger: not breaking; ReqTypeNumberToInteger: breaking', { answer: false, request: true }],
    ['integer', 'number', 'RespTypeIntegerToNumber: breaking; ReqTypeIntegerToNumber: not breaking', { answer: true, request: false }],
    ['number', 'string', 'RespTypeNumberToString, ReqTypeNumberToString: breaking', { answer: true, request: true }],
    ['string', 'number', 'RespTypeStringToNumber, ReqTypeStringToNumber: breaking', { answer: true, request: true }],
  ];
  for (const [before, after, oasdiff, expected] of cases)
    t.same(verdicts(side('a', before, before), side('b', after, after)), expected, `${before} → ${after} (${oasdiff})`);
});

const RETYPED =
  "an answer field retyped: api-smart-diff calls every answer type change non-breaking (number → string here); oasdiff's response-property-type-changed, and obsim, breaking (docs/contract-versions.md, 'A field retyped: where api-smart-diff disagrees')";

t.test('the verdicts agree with api-smart-diff on the whole corpus (per field), but for the retyped answer fields', async (t) => {
  const { a, b } = await corpusVersions();
  compareWithApiSmartDiff(t, a, b, {
    'POST /v1/partner/payments | answer 200 /amount': RETYPED,
    'GET /v1/partner/payments/{paymentId}/status | answer 200 /amount': RETYPED,
  });
});

t.test('the verdicts agree with api-smart-diff from the base to the shipped example version', async (t) => {
  const [example] = await loadVersions(join(ROOT, 'examples/contracts'), base.document);
  compareWithApiSmartDiff(t, base, example, {});
});

t.test('GET /_sandbox/contract/changelog: the same changes over HTTP, in JSON and Markdown', async (t) => {
  const app = await build(t, { config: { contracts: CORPUS_DIR } });
  const res = await app.inject({ method: 'GET', url: '/_sandbox/contract/changelog?from=corpus-a&to=corpus-b', headers: PARTNER });
  t.equal(res.statusCode, 200);
  const body = json<{ from: string; to: string; summary: { changes: number; breaking: number }; changes: ContractChange[] }>(res);
  t.same(schemaErrors('ContractChangelog', body), []);
  t.same(body.changes.map((c) => c.id).sort(), Object.keys(CORPUS_CHANGES).sort());
  t.same(body.summary, { changes: body.changes.length, breaking: body.changes.filter((c) => c.breaking).length });
  const md = await app.inject({
    method: 'GET',
    url: '/_sandbox/contract/changelog?from=corpus-a&to=corpus-b&format=markdown',
    headers: PARTNER,
  });
  t.match(md.headers['content-type'], /^text\/markdown/);
  t.match(
    md.body,
    `# Contract changes from corpus-a to corpus-b\n\n${body.summary.changes} changes, ${body.summary.breaking} breaking a client.`,
  );
  t.equal(md.body.split('\n').filter((l) => /^\| (\*\*breaking\*\*|compatible) \|/.test(l)).length, body.changes.length);
  const none = json(await app.inject({ method: 'GET', url: '/_sandbox/contract/changelog?from=corpus-b&to=corpus-b', headers: PARTNER }));
  t.same(none, { from: 'corpus-b', to: 'corpus-b', summary: { changes: 0, breaking: 0 }, changes: [] });
});
