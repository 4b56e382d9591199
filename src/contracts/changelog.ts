/**
 * The changelog between two contract versions (docs/contract-versions.md, "The changelog"): their
 * documents compared operation by operation (matched by method and path), status by status and
 * field by field (src/contracts/schema-fields.ts), webhook by webhook, and their x-obsim switches
 * rule by rule. Each change has its kind, a JSON pointer into each side and its verdict
 * (src/domain/contract-changes.ts). A component used by two operations changes both: each is its
 * own change, since a partner may call only one of them (oasdiff compares components where they
 * are used, too).
 */
import {
  describeChange,
  verdictOf,
  type ChangeKind,
  type ChangePlace,
  type ContractChange,
  type VerdictFacts,
} from '../domain/contract-changes.js';
import type { AnswerSwitch, ContractSwitches } from '../domain/contract-switches.js';
import { pointerToken } from '../domain/drift.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import { fieldsOf, type EnumValue, type FieldInfo } from './schema-fields.js';
import { operationsOf, routeKey, type Operation } from './walk.js';

/** One side of a changelog: a version's name, document and switches (the base has none). */
export interface VersionSide {
  name: string;
  document: OpenApiDocument;
  switches: ContractSwitches;
}

type Json = Record<string, unknown>;
type Where = Pick<ContractChange, 'operationId' | 'method' | 'path' | 'event' | 'status'>;
type Draft = Omit<ContractChange, 'id' | 'breaking' | 'rule' | 'source' | 'description'> & { source?: ContractChange['source'] };

const JSON_MEDIA = 'application/json';
const opPointer = (op: Operation) => `/paths/${pointerToken(op.path)}/${op.method.toLowerCase()}`;
const under = (pointer: string, parents: readonly string[]) => parents.some((p) => pointer.startsWith(`${p}/`));
const show = (v: unknown) => JSON.stringify(v);

class Changes {
  readonly list: ContractChange[] = [];
  add(draft: Draft, facts: VerdictFacts = {}): void {
    const { breaking, rule } = verdictOf(draft.kind, {
      place: draft.place,
      status: draft.status,
      before: draft.before,
      after: draft.after,
      ...facts,
    });
    const where = draft.event ?? [draft.operationId, draft.status].filter((x) => x !== undefined).join(' ');
    const parts = [draft.kind, where, draft.place === 'query' || draft.place === 'header' ? `${draft.place}:${draft.field}` : draft.field];
    if (draft.value !== undefined) parts.push(show(draft.value));
    this.list.push({
      id: parts.filter((p) => p !== undefined && p !== '').join(' '),
      ...draft,
      breaking,
      rule,
      source: draft.source ?? 'document',
      description: describeChange(draft),
    });
  }
}

type FieldKinds = { added: ChangeKind; removed: ChangeKind; required: ChangeKind; optional: ChangeKind; retyped: ChangeKind };
const KINDS: Record<'request' | 'answer' | 'webhook', FieldKinds> = {
  request: {
    added: 'request-field-added',
    removed: 'request-field-removed',
    required: 'request-field-required',
    optional: 'request-field-optional',
    retyped: 'request-field-retyped',
  },
  answer: {
    added: 'answer-field-added',
    removed: 'answer-field-removed',
    required: 'answer-field-required',
    optional: 'answer-field-optional',
    retyped: 'answer-field-retyped',
  },
  webhook: {
    added: 'webhook-field-added',
    removed: 'webhook-field-removed',
    required: 'webhook-field-required',
    optional: 'webhook-field-optional',
    retyped: 'webhook-field-retyped',
  },
};

/** The changes between two field maps of one body (or one parameter, at ''). */
function compareFields(
  out: Changes,
  where: Where,
  place: ChangePlace,
  kinds: FieldKinds,
  a: Map<string, FieldInfo>,
  b: Map<string, FieldInfo>,
): void {
  // a field removed or added is reported once, not again for each field below it; a field whose
  // type changed is the change, not the fields it held
  const retyped = [...a.keys()].filter(
    (p) => b.has(p) && a.get(p)!.type !== '' && b.get(p)!.type !== '' && a.get(p)!.type !== b.get(p)!.type,
  );
  const removed = [...a.keys()].filter((p) => !b.has(p) && !under(p, retyped));
  const added = [...b.keys()].filter((p) => !a.has(p) && !under(p, retyped));
  for (const p of removed)
    if (!under(p, removed))
      out.add({ kind: kinds.removed, place, ...where, field: p, fromPointer: a.get(p)!.at }, { required: a.get(p)!.required });
  for (const p of added)
    if (!under(p, added))
      out.add({ kind: kinds.added, place, ...where, field: p, toPointer: b.get(p)!.at }, { required: b.get(p)!.required });
  for (const [p, before] of a) {
    const after = b.get(p);
    if (!after || under(p, retyped)) continue;
    const pointers = { fromPointer: before.at, toPointer: after.at };
    if (retyped.includes(p)) {
      out.add({ kind: kinds.retyped, place, ...where, field: p, ...pointers, before: before.type, after: after.type });
      continue;
    }
    // the body itself and an array's items are always there: only a property is required or not
    if (p !== '' && !p.endsWith('/*') && before.required !== after.required)
      out.add({ kind: after.required ? kinds.required : kinds.optional, place, ...where, field: p, ...pointers });
    if (before.enum && after.enum) enumChanges(out, where, place, p, before, after);
    if (!before.deprecated && after.deprecated) out.add({ kind: 'field-deprecated', place, ...where, field: p, ...pointers });
  }
}

function enumChanges(out: Changes, where: Where, place: ChangePlace, field: string, before: FieldInfo, after: FieldInfo): void {
  const has = (list: readonly EnumValue[], v: EnumValue) => list.some((x) => x === v);
  before.enum!.forEach((v, i) => {
    if (!has(after.enum!, v))
      out.add({
        kind: 'enum-value-removed',
        place,
        ...where,
        field,
        value: v,
        fromPointer: `${before.at}/enum/${i}`,
        toPointer: `${after.at}/enum`,
      });
  });
  after.enum!.forEach((v, i) => {
    if (!has(before.enum!, v))
      out.add({
        kind: 'enum-value-added',
        place,
        ...where,
        field,
        value: v,
        fromPointer: `${before.at}/enum`,
        toPointer: `${after.at}/enum/${i}`,
      });
  });
}

const media = (node: unknown): { schema?: unknown } | undefined =>
  ((node as Json | undefined)?.content as Json | undefined)?.[JSON_MEDIA] as never;

function compareOperation(out: Changes, from: VersionSide, to: VersionSide, a: Operation, b: Operation): void {
  const where: Where = { operationId: b.id, method: b.method, path: b.path };
  if (a.operation.deprecated !== true && b.operation.deprecated === true)
    out.add({ kind: 'operation-deprecated', ...where, fromPointer: opPointer(a), toPointer: `${opPointer(b)}/deprecated` });
  if (a.operation.deprecated === true && b.operation.deprecated !== true)
    out.add({ kind: 'operation-undeprecated', ...where, fromPointer: `${opPointer(a)}/deprecated`, toPointer: opPointer(b) });
  // parameters: a query parameter is a request field (at its name), a header its own kind
  const params = (op: Operation) =>
    new Map(
      (op.operation.parameters ?? [])
        .map((p, i) => ({ p, at: `${opPointer(op)}/parameters/${i}` }))
        .filter(({ p }) => p.in === 'query' || p.in === 'header')
        .map((x) => [`${x.p.in}:${x.p.in === 'header' ? x.p.name.toLowerCase() : x.p.name}`, x] as const),
    );
  const pa = params(a);
  const pb = params(b);
  for (const key of new Set([...pa.keys(), ...pb.keys()])) {
    const x = pa.get(key);
    const y = pb.get(key);
    const header = key.startsWith('header:');
    const name = (x ?? y)!.p.name;
    if (header) {
      const field = name.toLowerCase();
      if (x && !y)
        out.add({ kind: 'header-removed', place: 'header', ...where, field, fromPointer: x.at }, { required: x.p.required === true });
      else if (!x && y)
        out.add({ kind: 'header-added', place: 'header', ...where, field, toPointer: y.at }, { required: y.p.required === true });
      else if (x && y && x.p.required !== true && y.p.required === true)
        out.add({ kind: 'header-required', place: 'header', ...where, field, fromPointer: x.at, toPointer: y.at });
      if (x && y && x.p.deprecated !== true && y.p.deprecated === true)
        out.add({ kind: 'field-deprecated', place: 'header', ...where, field, fromPointer: x.at, toPointer: y.at });
      continue;
    }
    const fields = (
      p: { p: { required?: boolean; deprecated?: boolean; schema?: unknown }; at: string } | undefined,
      doc: OpenApiDocument,
    ) => {
      if (!p) return new Map<string, FieldInfo>();
      const map = new Map<string, FieldInfo>();
      const root = fieldsOf(doc, p.p.schema ?? {}, `${p.at}/schema`).get('');
      if (root)
        map.set(name, { ...root, required: p.p.required === true, deprecated: p.p.deprecated === true || root.deprecated, at: p.at });
      return map;
    };
    compareFields(out, where, 'query', KINDS.request, fields(x, from.document), fields(y, to.document));
  }
  // the request body
  const bodyAt = (op: Operation) => `${opPointer(op)}/requestBody/content/${pointerToken(JSON_MEDIA)}/schema`;
  const body = (op: Operation, doc: OpenApiDocument) => {
    const schema = media(op.operation.requestBody)?.schema;
    return schema === undefined ? new Map<string, FieldInfo>() : fieldsOf(doc, schema, bodyAt(op));
  };
  compareFields(out, where, 'request', KINDS.request, body(a, from.document), body(b, to.document));
  // the answers, status by status
  const ra = (a.operation.responses ?? {}) as Record<string, Json>;
  const rb = (b.operation.responses ?? {}) as Record<string, Json>;
  const responseAt = (op: Operation, status: string) => `${opPointer(op)}/responses/${pointerToken(status)}`;
  for (const status of Object.keys(ra))
    if (!(status in rb)) out.add({ kind: 'status-removed', ...where, status, fromPointer: responseAt(a, status) });
  for (const status of Object.keys(rb))
    if (!(status in ra)) out.add({ kind: 'status-added', ...where, status, toPointer: responseAt(b, status) });
  for (const status of Object.keys(ra)) {
    if (!(status in rb)) continue;
    const answer = (op: Operation, doc: OpenApiDocument, r: Json) => {
      const schema = media(r)?.schema;
      return schema === undefined
        ? new Map<string, FieldInfo>()
        : fieldsOf(doc, schema, `${responseAt(op, status)}/content/${pointerToken(JSON_MEDIA)}/schema`);
    };
    compareFields(
      out,
      { ...where, status },
      'answer',
      KINDS.answer,
      answer(a, from.document, ra[status]),
      answer(b, to.document, rb[status]),
    );
    // header names are compared case-insensitively; a pointer names the key as the document writes it
    const headers = (r: Json) =>
      new Map(
        Object.entries((r.headers as Record<string, Json> | undefined) ?? {}).map(([key, h]) => [key.toLowerCase(), { key, h }] as const),
      );
    const ha = headers(ra[status]);
    const hb = headers(rb[status]);
    for (const [name, { key, h }] of ha)
      if (!hb.has(name))
        out.add(
          {
            kind: 'header-removed',
            place: 'answer-header',
            ...where,
            status,
            field: name,
            fromPointer: `${responseAt(a, status)}/headers/${pointerToken(key)}`,
          },
          { required: h.required === true },
        );
    for (const [name, { key, h }] of hb)
      if (!ha.has(name))
        out.add(
          {
            kind: 'header-added',
            place: 'answer-header',
            ...where,
            status,
            field: name,
            toPointer: `${responseAt(b, status)}/headers/${pointerToken(key)}`,
          },
          { required: h.required === true },
        );
  }
}

function compareWebhooks(out: Changes, from: VersionSide, to: VersionSide): void {
  const hooks = (doc: OpenApiDocument) => (doc.webhooks ?? {}) as Record<string, { post?: { requestBody?: unknown } }>;
  const wa = hooks(from.document);
  const wb = hooks(to.document);
  const at = (event: string) => `/webhooks/${pointerToken(event)}/post`;
  for (const event of Object.keys(wa)) if (!(event in wb)) out.add({ kind: 'webhook-removed', event, fromPointer: at(event) });
  for (const event of Object.keys(wb)) if (!(event in wa)) out.add({ kind: 'webhook-added', event, toPointer: at(event) });
  for (const event of Object.keys(wa)) {
    if (!(event in wb)) continue;
    const payload = (doc: OpenApiDocument, item: { post?: { requestBody?: unknown } }) => {
      const schema = media(item.post?.requestBody)?.schema;
      return schema === undefined
        ? new Map<string, FieldInfo>()
        : fieldsOf(doc, schema, `${at(event)}/requestBody/content/${pointerToken(JSON_MEDIA)}/schema`);
    };
    compareFields(out, { event }, 'webhook', KINDS.webhook, payload(from.document, wa[event]), payload(to.document, wb[event]));
  }
}

/** What one answer switch makes obsim do: identified by what it acts on and what it does (a changed template is the same switch). */
const switchKey = (r: AnswerSwitch) =>
  `${r.in} ${r.field} ${r.remove === true ? 'remove' : r.value !== undefined ? 'value' : `send ${show(r.send)} ${show(r.when ?? null)}`}`;

function compareSwitches(out: Changes, from: VersionSide, to: VersionSide, ops: Map<string, { a: Operation; b: Operation }>): void {
  const byId = new Map([...ops.values()].map(({ b }) => [b.id, b]));
  const events = new Set(Object.keys(from.document.webhooks ?? {}).filter((e) => e in (to.document.webhooks ?? {})));
  const whereOf = (target: string): (Where & { place: ChangePlace }) | undefined => {
    if (events.has(target)) return { event: target, place: 'webhook' };
    const op = byId.get(target);
    return op ? { operationId: op.id, method: op.method, path: op.path, place: 'answer' } : undefined;
  };
  const rules = (side: VersionSide) =>
    new Map((side.switches.answers ?? []).map((r, i) => [switchKey(r), { r, at: `/x-obsim/answers/${i}` }]));
  const ra = rules(from);
  const rb = rules(to);
  for (const [key, { r, at }] of rb) {
    const where = whereOf(r.in);
    if (ra.has(key) || !where) continue;
    const kind: ChangeKind = r.remove === true ? 'field-no-longer-sent' : r.value !== undefined ? 'field-made' : 'value-now-sent';
    out.add({
      kind,
      ...where,
      field: r.field,
      toPointer: at,
      source: 'switches',
      ...(r.send !== undefined ? { value: r.send, ...(r.when ? { when: r.when } : {}) } : {}),
    });
  }
  for (const [key, { r, at }] of ra) {
    const where = whereOf(r.in);
    if (rb.has(key) || !where) continue;
    const kind: ChangeKind =
      r.remove === true ? 'field-sent-again' : r.value !== undefined ? 'field-no-longer-made' : 'value-no-longer-sent';
    out.add({ kind, ...where, field: r.field, fromPointer: at, source: 'switches', ...(r.send !== undefined ? { value: r.send } : {}) });
  }
  for (const { a, b } of ops.values()) {
    const where: Where = { operationId: b.id, method: b.method, path: b.path };
    const sa = from.switches.operations?.[a.id];
    const sb = to.switches.operations?.[b.id];
    const opAt = (id: string) => `/x-obsim/operations/${pointerToken(id)}`;
    for (const status of new Set([...Object.keys(sa?.status ?? {}), ...Object.keys(sb?.status ?? {})])) {
      const before = String(sa?.status?.[status] ?? status);
      const after = String(sb?.status?.[status] ?? status);
      if (before !== after)
        out.add({
          kind: 'status-changed',
          ...where,
          status,
          before,
          after,
          source: 'switches',
          ...(sa?.status?.[status] !== undefined ? { fromPointer: `${opAt(a.id)}/status/${status}` } : {}),
          ...(sb?.status?.[status] !== undefined ? { toPointer: `${opAt(b.id)}/status/${status}` } : {}),
        });
    }
    const x = sa?.sunsetAt;
    const y = sb?.sunsetAt;
    if (x !== y) {
      const sunset = x === undefined ? 'set' : y === undefined ? 'removed' : Date.parse(y) < Date.parse(x) ? 'earlier' : 'later';
      out.add(
        {
          kind: 'sunset',
          ...where,
          before: x,
          after: y,
          source: 'switches',
          ...(x !== undefined ? { fromPointer: `${opAt(a.id)}/sunsetAt` } : {}),
          ...(y !== undefined ? { toPointer: `${opAt(b.id)}/sunsetAt` } : {}),
        },
        { sunset },
      );
    }
  }
}

/** Every change from `from` to `to`, in a stable order: operations in `to`'s order, then webhooks, then the switches. */
export function changelog(from: VersionSide, to: VersionSide): ContractChange[] {
  const out = new Changes();
  const index = (doc: OpenApiDocument) => new Map([...operationsOf(doc)].map((op) => [routeKey(op.method, op.path), op]));
  const oa = index(from.document);
  const ob = index(to.document);
  const both = new Map<string, { a: Operation; b: Operation }>();
  for (const [key, a] of oa)
    if (!ob.has(key)) out.add({ kind: 'operation-removed', operationId: a.id, method: a.method, path: a.path, fromPointer: opPointer(a) });
  for (const [key, b] of ob) {
    const a = oa.get(key);
    if (!a) out.add({ kind: 'operation-added', operationId: b.id, method: b.method, path: b.path, toPointer: opPointer(b) });
    else {
      both.set(key, { a, b });
      compareOperation(out, from, to, a, b);
    }
  }
  compareWebhooks(out, from, to);
  compareSwitches(out, from, to, both);
  return out.list;
}
