/**
 * From drift to a version (docs/contract-versions.md, "From drift to a version"): a shadow's
 * drift report (docs/drift.md) turned into an OpenAPI Overlay 1.0 version over the provider's
 * document, with the x-obsim switches that make obsim send what the upstream sent. Served with
 * `--contracts DIR`, a shadow pinned to it reports none of the drifts adopted.
 *
 * What a version can say, and so what is adopted:
 * - an answer (or webhook payload) field the upstream sends and obsim does not: the field in the
 *   document (optional, the upstream's value as its example) and a switch that makes it (a UUID
 *   derived from the answer, the sandbox's instant, or the upstream's value);
 * - an enum value the upstream sends where obsim sends another: the value in the document's enum
 *   and a switch that sends it where obsim would send its own;
 * - a field obsim sends and the upstream does not: the field no longer required, and a switch
 *   that stops sending it;
 * - a successful answer's status changed: the status in the document and the status switch;
 * - an answer header the upstream sends and obsim does not: the headers switch (the document
 *   declares it when the version loads).
 * The rest is listed as not adopted, with the reason: a version changes what the document allows
 * and what obsim sends, not obsim's state (values, types, formats it makes from its state), the
 * headers obsim sends on every answer, or how it delivers webhooks.
 *
 * A report made with obsim answering by a version V (`shadow --contract-version V`) is adopted over
 * V: the drifts are read against V's document, and the version written carries V's actions and
 * switches first, then what was adopted, so it serves on its own as V and the upstream's changes.
 */
import { headerNotMakeable, type ContractSwitches, type AnswerSwitch, type ValueSource } from '../domain/contract-switches.js';
import { formatOf, pointerToken, type Drift, type DriftKind } from '../domain/drift.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import type { OverlayAction, OverlayDocument } from './overlay.js';
import { responseKey } from './registry.js';
import { fieldsOf, type FieldInfo } from './schema-fields.js';
import { operationsOf, successHeaders, type Operation } from './walk.js';

/** The parts of a drift report (GET /_shadow/report) adopting reads; checked by DRIFT_REPORT_SCHEMA. */
export interface DriftReportInput {
  upstream: string;
  generatedAt: string;
  /** The contract version obsim answered by (absent in reports older than it: the base). */
  contractVersion?: string;
  exchanges: {
    index: number;
    method: string;
    path: string;
    operationId: string | null;
    upstreamStatus: number;
    obsimStatus: number | null;
    verdict: string;
    drifts: Drift[];
  }[];
  webhooks: { event: string; exchange: number | null; verdict: string; drifts: Drift[] }[];
}

export interface NotAdopted {
  /** Where it was: `exchange #3 POST /v1/partner/payments` or `webhook payment.completed`. */
  where: string;
  kind: DriftKind;
  pointer: string;
  reason: string;
}

export interface Adoption {
  version: OverlayDocument & { 'x-obsim': ContractSwitches };
  /** One line per change the version makes. */
  adopted: string[];
  notAdopted: NotAdopted[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** An RFC 6901 pointer into the document as the JSONPath an overlay action targets (`$.components.schemas.Payment`). */
export function jsonPathOf(pointer: string): string {
  const tokens =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  return `$${tokens.map((t) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(t) ? `.${t}` : `['${t.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`)).join('')}`;
}

const valueAt = (root: unknown, pointer: string): unknown =>
  pointer === ''
    ? root
    : pointer
        .slice(1)
        .split('/')
        .reduce<unknown>(
          (n, t) => (n !== null && typeof n === 'object' ? (n as Json)[t.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
          root,
        );

/** A report's pointer with its array indexes as `*` (the switches' every item). */
const anyItem = (pointer: string) => pointer.replace(/\/\d+(?=\/|$)/g, '/*');
const parentOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));
const nameOf = (pointer: string) =>
  pointer
    .slice(pointer.lastIndexOf('/') + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');

const SCHEMA_FORMATS: Record<string, string> = { 'date-time': 'date-time', date: 'date', uuid: 'uuid', email: 'email', url: 'uri' };

/** A schema for a field whose value the upstream sent: its type (and format), the value as its example. */
function schemaOfValue(value: unknown): Json {
  const type =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : Number.isInteger(value)
          ? 'integer'
          : typeof value === 'number'
            ? 'number'
            : typeof value;
  const format = typeof value === 'string' ? SCHEMA_FORMATS[formatOf(value)] : undefined;
  return { type, ...(format ? { format } : {}), examples: [value], description: 'Sent by the provider (adopted from a drift report)' };
}

/** How obsim makes a value of the same shape as the upstream's: the instant, a UUID of its own, else the upstream's value. */
function generatorOf(value: unknown): ValueSource {
  if (typeof value === 'string' && formatOf(value) === 'date-time') return { generate: 'now' };
  if (typeof value === 'string' && formatOf(value) === 'uuid') return { generate: 'uuid' };
  return { const: value };
}

/** What a drift is about: an operation's answer, or a webhook's payload. */
interface Subject {
  /** The switch's `in`. */
  target: string;
  where: string;
  schema: unknown;
  schemaAt: string;
}

/** The version a report's obsim answered by, which the adopted version is made over. */
export interface AdoptedOver {
  name: string;
  overlay: OverlayDocument;
  switches: ContractSwitches;
}

/**
 * `report` adopted as version `name`. `base` is the document obsim answered by when the report was
 * made: the provider's, or the version `over`'s (whose file the version written then carries).
 */
export function adoptDrifts(report: DriftReportInput, base: OpenApiDocument, name: string, over?: AdoptedOver): Adoption {
  const ops = new Map([...operationsOf(base)].map((op) => [op.id, op]));
  const actions = new Map<string, OverlayAction & { from: string[] }>();
  const answers = new Map<string, AnswerSwitch & { from: string[] }>();
  const statuses: NonNullable<ContractSwitches['operations']> = {};
  const adopted: string[] = [];
  const notAdopted: NotAdopted[] = [];
  const skip = (where: string, d: Drift, reason: string) => notAdopted.push({ where, kind: d.kind, pointer: d.pointer, reason });

  const action = (key: string, from: string, make: () => OverlayAction) => {
    const found = actions.get(key);
    if (found) found.from.push(from);
    else actions.set(key, { ...make(), from: [from] });
  };
  const answer = (rule: AnswerSwitch, from: string, what: string) => {
    const key = JSON.stringify([rule.in, rule.field, rule.remove ?? null, rule.send ?? null, rule.when ?? null]);
    const found = answers.get(key);
    if (found) return found.from.push(from);
    answers.set(key, { ...rule, from: [from] });
    adopted.push(what);
  };

  /** One field drift (added, missing, enum) of an answer or payload, where `fields` are the document's. */
  function adoptField(
    subject: Subject,
    fields: Map<string, FieldInfo>,
    d: Drift & { kind: 'field_added' | 'field_missing' | 'enum_value' },
    from: string,
  ) {
    const field = anyItem(d.pointer);
    const parent = fields.get(parentOf(field));
    const known = fields.get(field);
    if (d.kind === 'field_added') {
      if (!parent) return skip(from, d, `${parentOf(field) || 'the body'} is not an object of the document's ${subject.where}`);
      if (!known)
        action(`${parent.at} add ${nameOf(field)}`, from, () => ({
          target: jsonPathOf(parent.at),
          update: { properties: { [nameOf(field)]: schemaOfValue(d.upstream) } },
        }));
      return answer({ in: subject.target, field, value: generatorOf(d.upstream) }, from, `${subject.where}: obsim sends ${field}`);
    }
    if (!known) return skip(from, d, `${field} is not a field of the document's ${subject.where}`);
    if (d.kind === 'field_missing') {
      if (known.required && parent) {
        const required = ((valueAt(base, parent.at) as Json | undefined)?.required as string[] | undefined) ?? [];
        action(`${parent.at} optional ${nameOf(field)}`, from, () => ({
          target: jsonPathOf(parent.at),
          update: { required: required.filter((r) => r !== nameOf(field)) },
        }));
      }
      return answer({ in: subject.target, field, remove: true }, from, `${subject.where}: obsim no longer sends ${field}`);
    }
    if (d.obsim === undefined || typeof d.upstream !== 'string')
      return skip(from, d, 'obsim sent no value here for the switch to replace, or the upstream sent no string');
    const list = known.enum;
    if (list && !list.includes(d.upstream)) {
      const key = `${known.at} enum`;
      const found = actions.get(key);
      if (found) {
        const update = found.update as { enum: unknown[] };
        if (!update.enum.includes(d.upstream)) update.enum.push(d.upstream);
        found.from.push(from);
      } else actions.set(key, { target: jsonPathOf(known.at), update: { enum: [...list, d.upstream] }, from: [from] });
    }
    answer(
      { in: subject.target, field, send: d.upstream, when: { field, equals: d.obsim } },
      from,
      `${subject.where}: obsim sends ${JSON.stringify(d.upstream)} in ${field} where it sent ${JSON.stringify(d.obsim)}`,
    );
  }

  const FIELD_KINDS = new Set<DriftKind>(['field_added', 'field_missing', 'enum_value']);
  const REASONS: Partial<Record<DriftKind, string>> = {
    type: "a version does not change a value's type: obsim makes the value from its state",
    format: "a version does not change the shape of a value obsim makes from its state (a date's, an id's)",
    value: 'a value that differs once ids are mapped is state, not contract: obsim makes it from its state machine',
    event_missing: 'which events obsim sends is the base’s behaviour under every version',
    event_extra: 'which events obsim sends is the base’s behaviour under every version',
    event_order: 'when obsim delivers is the base’s behaviour under every version',
    event_late: 'when obsim delivers is the base’s behaviour under every version',
    event_signature: 'how obsim signs deliveries is the base’s behaviour under every version',
  };

  for (const e of report.exchanges) {
    if (e.verdict !== 'drift') continue;
    const from = `exchange #${e.index} ${e.method} ${e.path}`;
    const op: Operation | undefined = e.operationId === null ? undefined : ops.get(e.operationId);
    for (const d of e.drifts) {
      if (!op) {
        skip(from, d, `${e.operationId ?? 'the request'} is not an operation of the provider's document`);
        continue;
      }
      const responses = (op.operation.responses ?? {}) as Record<string, Json>;
      if (d.kind === 'status') {
        const upstream = e.upstreamStatus;
        const obsim = e.obsimStatus;
        if (obsim === null || upstream < 200 || upstream > 299 || obsim < 200 || obsim > 299) {
          skip(from, d, 'a version changes the status of a successful answer only (its switches apply to 2xx answers)');
          continue;
        }
        const opAt = `/paths/${pointerToken(op.path)}/${op.method.toLowerCase()}`;
        const source = responseKey(responses, obsim);
        if (!(String(upstream) in responses) && source !== undefined)
          action(`${opAt} status ${upstream}`, from, () => ({
            target: jsonPathOf(`${opAt}/responses`),
            update: {
              [String(upstream)]: {
                ...structuredClone(responses[source]),
                description: `Answered by the provider (adopted from a drift report)`,
              },
            },
          }));
        (statuses[op.id] ??= {}).status = { ...statuses[op.id]?.status, [String(obsim)]: upstream };
        adopted.push(`${op.id}: answers ${upstream} where obsim answered ${obsim}`);
        continue;
      }
      if (d.kind === 'header') {
        const refused = headerRefusal(op, e.upstreamStatus, d);
        if (refused !== undefined) skip(from, d, refused);
        else if ((statuses[op.id] ??= {}).headers?.[d.pointer] === undefined) {
          (statuses[op.id].headers ??= {})[d.pointer] = generatorOf(d.upstream);
          adopted.push(`${op.id}: obsim sends the header ${d.pointer}`);
        }
        continue;
      }
      if (!FIELD_KINDS.has(d.kind)) {
        skip(from, d, REASONS[d.kind] ?? 'not a change a version can make');
        continue;
      }
      const key = responseKey(responses, e.upstreamStatus);
      const schemaAt = `/paths/${pointerToken(op.path)}/${op.method.toLowerCase()}/responses/${pointerToken(key ?? '')}/content/application~1json/schema`;
      const schema = key === undefined ? undefined : (responses[key]?.content as Json | undefined)?.['application/json'];
      if (!isObject(schema) || schema.schema === undefined || e.upstreamStatus >= 300) {
        skip(
          from,
          d,
          `the document gives no JSON answer for ${e.upstreamStatus}, or it is not a successful answer (the switches apply to 2xx answers)`,
        );
        continue;
      }
      const subject: Subject = { target: op.id, where: `${op.id} ${key}`, schema: schema.schema, schemaAt };
      adoptField(subject, fieldsOf(base, schema.schema, schemaAt), d as Drift & { kind: 'field_added' }, from);
    }
  }

  for (const w of report.webhooks) {
    if (w.verdict !== 'drift') continue;
    const from = `webhook ${w.event}${w.exchange !== null ? ` (exchange #${w.exchange})` : ''}`;
    const hook = (base.webhooks?.[w.event] as { post?: { requestBody?: { content?: Record<string, { schema?: unknown }> } } } | undefined)
      ?.post;
    const schema = hook?.requestBody?.content?.['application/json']?.schema;
    for (const d of w.drifts) {
      const kind = d.kind === 'event_payload' ? d.detail : d.kind;
      if (schema === undefined || kind === undefined || !FIELD_KINDS.has(kind)) {
        skip(
          from,
          d,
          schema === undefined
            ? `${w.event} is not a webhook of the provider's document`
            : (REASONS[d.kind === 'event_payload' ? (d.detail ?? d.kind) : d.kind] ?? 'not a change a version can make'),
        );
        continue;
      }
      const schemaAt = `/webhooks/${pointerToken(w.event)}/post/requestBody/content/application~1json/schema`;
      adoptField(
        { target: w.event, where: `webhook ${w.event}`, schema, schemaAt },
        fieldsOf(base, schema, schemaAt),
        { ...d, kind } as Drift & { kind: 'field_added' },
        from,
      );
    }
  }

  /** Why a header drift cannot be adopted (undefined: it can, as a header obsim now sends). */
  function headerRefusal(op: Operation, upstreamStatus: number, d: Drift): string | undefined {
    if (upstreamStatus < 200 || upstreamStatus > 299) return "a version's headers are sent on successful answers only";
    if (typeof d.upstream !== 'string')
      return `obsim sends ${d.pointer} and the upstream does not: a version does not take away a header obsim sends on every answer`;
    if (d.obsim !== undefined)
      return `the upstream sends ${d.pointer} otherwise (${d.upstream} where obsim sends ${String(d.obsim)}): a version's answers are the media type its document gives`;
    return headerNotMakeable(d.pointer, op.id, successHeaders(op));
  }

  const named = (list: string[]) => `${list[0]}${list.length > 1 ? ` (and ${list.length - 1} more)` : ''}`;
  const switches: ContractSwitches = {};
  if (Object.keys(statuses).length > 0) switches.operations = statuses;
  if (answers.size > 0)
    switches.answers = [...answers.values()].map(({ from, ...rule }) => ({ ...rule, description: `from ${named(from)}` }));
  return {
    version: {
      overlay: '1.0.0',
      info: {
        title: `Adopted from the drift against ${report.upstream} (report of ${report.generatedAt})${over ? ` over ${over.name}` : ''}`,
        version: name,
      },
      actions: [
        // where the version comes from, in its document too (an overlay has at least one action)
        {
          target: '$.info',
          description: 'where this version comes from',
          update: {
            'x-obsim-adopted-from': { upstream: report.upstream, report: report.generatedAt, ...(over ? { over: over.name } : {}) },
          },
        },
        // the version obsim answered by, as its file says, then what the upstream changes on it
        ...(over?.overlay.actions ?? []),
        ...[...actions.values()].map(({ from, ...a }) => ({ ...a, description: `from ${named(from)}` })),
      ],
      'x-obsim': over ? switchesOver(over.switches, switches) : switches,
    },
    adopted,
    notAdopted,
  };
}

/**
 * `adopted` on top of the switches of the version obsim answered by: its instants, docs and
 * sunsets kept; a status it changed changes again from the base's status (the report saw the
 * version's); its headers with the adopted ones; its answer rules, but for one that an adopted
 * rule undoes (a field it stopped sending that the upstream sends: its removal would be applied
 * after the new value; a field it made that the upstream does not send), then the adopted rules.
 */
function switchesOver(under: ContractSwitches, adopted: ContractSwitches): ContractSwitches {
  const out = structuredClone(under);
  for (const [id, ops] of Object.entries(adopted.operations ?? {})) {
    const mine = ((out.operations ??= {})[id] ??= {});
    for (const [answered, upstream] of Object.entries(ops.status ?? {})) {
      const from = Object.entries(mine.status ?? {}).find(([, to]) => String(to) === answered)?.[0] ?? answered;
      mine.status = { ...mine.status, [from]: upstream };
      if (from === String(upstream)) delete mine.status[from];
      if (Object.keys(mine.status).length === 0) delete mine.status;
    }
    if (ops.headers) mine.headers = { ...mine.headers, ...ops.headers };
  }
  const undone = (r: AnswerSwitch) =>
    (adopted.answers ?? []).some(
      (a) =>
        a.in === r.in &&
        a.field === r.field &&
        ((a.value !== undefined && r.remove === true) || (a.remove === true && r.value !== undefined)),
    );
  const answers = [...(out.answers ?? []).filter((r) => !undone(r)), ...(adopted.answers ?? [])];
  if (answers.length > 0) out.answers = answers;
  else delete out.answers;
  return out;
}
