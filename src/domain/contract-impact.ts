/**
 * The impact of an upgrade on one partner (docs/contract-versions.md, "Impact"): the changelog
 * from each version the sandbox's traffic ran under to the target, joined with what that traffic
 * touched (src/domain/contract-traffic.ts). A change is touched when the traffic involves what it
 * changes; each kind says how, in one table below (`touching`), and docs/contract-versions.md
 * repeats it. A touched change names its evidence (the first journal entries or deliveries and
 * their count); an untouched one is counted, not listed.
 */
import type { ContractChange } from './contract-changes.js';
import { mergeEvidence, type CallsSeen, type EventsSeen, type Evidence, type FieldSeen, type TrafficFacts } from './contract-traffic.js';

export interface TouchedChange extends ContractChange {
  /** The version the touching traffic ran under. */
  from: string;
  evidence: { entries?: Evidence; deliveries?: Evidence };
}

export interface ImpactReport {
  to: string;
  /** The versions the traffic ran under, with what each served. */
  traffic: {
    entries: number;
    deliveries: number;
    unreadBodies: number;
    journalTruncated: boolean;
    versions: { name: string; entries: number; deliveries: number }[];
    /** Versions the journal names that this obsim no longer loads: their traffic is not judged. */
    unknownVersions: string[];
  };
  touched: TouchedChange[];
  /** Touched changes that break a client. */
  breaking: number;
  /** The changes no traffic touched: counted, not listed. */
  untouched: { count: number; breaking: number };
  /** `breaking`: a touched change breaks a client; `clear`: none does. */
  verdict: 'breaking' | 'clear';
}

const none = (): Evidence => ({ count: 0, first: [] });
const all = (list: readonly Evidence[]): Evidence => list.reduce(mergeEvidence, none());

/** Whether an answered status falls under a document's status key (`200`, `4XX`, `default`). */
export const statusMatches = (key: string, status: string): boolean =>
  key === status || key === 'default' || (/^[1-5]XX$/i.test(key) && key[0] === status[0]);

interface Seen {
  op: CallsSeen | undefined;
  hook: EventsSeen | undefined;
}

const answersUnder = (op: CallsSeen | undefined, key: string | undefined, success = false) =>
  Object.entries(op?.answers ?? {}).filter(([s]) => (key === undefined ? !success || s.startsWith('2') : statusMatches(key, s)));
const statusesUnder = (op: CallsSeen | undefined, key: string | undefined, success = false) =>
  all(
    Object.entries(op?.statuses ?? {})
      .filter(([s]) => (key === undefined ? !success || s.startsWith('2') : statusMatches(key, s)))
      .map(([, e]) => e),
  );
const fieldIn = (fields: Record<string, FieldSeen> | undefined, field: string | undefined): Evidence =>
  fields?.[field ?? '']?.seen ?? none();
const valueIn = (fields: Record<string, FieldSeen> | undefined, field: string | undefined, value: unknown): Evidence => {
  const f = fields?.[field ?? ''];
  // a field of more distinct values than are kept: every entry that carried it may have held it
  if (f && f.values === null) return f.seen;
  return f?.values?.[JSON.stringify(value)] ?? none();
};
/** The calls that did not carry `what` (a body field, `?query`, `header:name`): those a new requirement refuses. */
const callsWithout = (op: CallsSeen | undefined, what: string): Evidence => {
  if (!op) return none();
  if (op.shapes === null) return op.calls;
  return all(op.shapes.filter((s) => !s.carried.includes(what)).map((s) => s.seen));
};

type Touch = (c: ContractChange, seen: Seen) => Evidence;

const calls: Touch = (_, { op }) => op?.calls ?? none();
const sentBody: Touch = (c, { op }) => fieldIn(op?.request, c.field);
const sentQuery: Touch = (c, { op }) => fieldIn(op?.query, c.field);
const sentHeader: Touch = (c, { op }) => op?.headers[c.field ?? ''] ?? none();
/** What the request carried where the change is (a body field, a query parameter, a header). */
const sent: Touch = (c, seen) =>
  c.place === 'query' ? sentQuery(c, seen) : c.place === 'header' ? sentHeader(c, seen) : sentBody(c, seen);
const notSent: Touch = (c, { op }) =>
  callsWithout(op, c.place === 'query' ? `?${c.field ?? ''}` : c.place === 'header' ? `header:${c.field ?? ''}` : (c.field ?? ''));
const valueSent: Touch = (c, { op }) => valueIn(c.place === 'query' ? op?.query : op?.request, c.field, c.value);
/** Answers of the change's status (a switch: every 2xx). */
const answered: Touch = (c, { op }) => statusesUnder(op, c.status, true);
const received: Touch = (c, { op }) => all(answersUnder(op, c.status, true).map(([, f]) => fieldIn(f, c.field)));
const valueReceived: Touch = (c, { op }) => all(answersUnder(op, c.status, true).map(([, f]) => valueIn(f, c.field, c.value)));
const delivered: Touch = (_, { hook }) => hook?.deliveries ?? none();
const deliveredField: Touch = (c, { hook }) => fieldIn(hook?.fields, c.field);
const deliveredValue: Touch = (c, { hook }) => valueIn(hook?.fields, c.field, c.value);
/** Where the change is: a webhook's deliveries, or the operation's answers. */
const inAnswer =
  (answer: Touch, webhook: Touch): Touch =>
  (c, seen) =>
    c.place === 'webhook' ? webhook(c, seen) : answer(c, seen);

/** How each kind of change is touched by the traffic (docs/contract-versions.md, "What touches a change"). */
const TOUCHING: Record<ContractChange['kind'], Touch> = {
  'operation-added': calls,
  'operation-removed': calls,
  'operation-deprecated': calls,
  'operation-undeprecated': calls,
  sunset: calls,
  // a field no call could send is touched by the calls it now refuses (required) or by none
  'request-field-added': (c, seen) => (c.breaking ? notSent(c, seen) : sent(c, seen)),
  'request-field-removed': sent,
  'request-field-required': notSent,
  'request-field-optional': sent,
  'request-field-retyped': sent,
  'header-added': (c, seen) => (c.place === 'answer-header' ? answered(c, seen) : c.breaking ? notSent(c, seen) : sent(c, seen)),
  'header-removed': (c, seen) => (c.place === 'answer-header' ? answered(c, seen) : sent(c, seen)),
  'header-required': notSent,
  'field-deprecated': (c, seen) => (c.place === 'answer' ? received(c, seen) : sent(c, seen)),
  'answer-field-added': answered,
  'answer-field-required': answered,
  'answer-field-removed': received,
  'answer-field-optional': received,
  'answer-field-retyped': received,
  'enum-value-added': (c, seen) =>
    c.place === 'webhook' ? deliveredField(c, seen) : c.place === 'answer' ? received(c, seen) : valueSent(c, seen),
  'enum-value-removed': (c, seen) =>
    c.place === 'webhook' ? deliveredValue(c, seen) : c.place === 'answer' ? valueReceived(c, seen) : valueSent(c, seen),
  'status-added': calls,
  'status-removed': (c, { op }) => statusesUnder(op, c.status),
  'status-changed': (c, { op }) => op?.statuses[c.before ?? ''] ?? none(),
  'webhook-added': delivered,
  'webhook-removed': delivered,
  'webhook-field-added': delivered,
  'webhook-field-required': delivered,
  'webhook-field-removed': deliveredField,
  'webhook-field-optional': deliveredField,
  'webhook-field-retyped': deliveredField,
  // the switches: what obsim sends under each version
  'value-now-sent': inAnswer(
    (c, seen) =>
      c.when ? valueReceived({ ...c, field: c.when.field, value: c.when.equals as ContractChange['value'] }, seen) : received(c, seen),
    (c, seen) =>
      c.when
        ? deliveredValue({ ...c, field: c.when.field, value: c.when.equals as ContractChange['value'] }, seen)
        : deliveredField(c, seen),
  ),
  'value-no-longer-sent': inAnswer(valueReceived, deliveredValue),
  'field-made': inAnswer(answered, delivered),
  'field-sent-again': inAnswer(answered, delivered),
  'field-no-longer-made': inAnswer(received, deliveredField),
  'field-no-longer-sent': inAnswer(received, deliveredField),
};

/** The route key of a change's operation (the traffic's key: `POST /v1/partner/payments/:paymentId/status`). */
const routeOf = (c: ContractChange) =>
  c.method === undefined || c.path === undefined ? undefined : `${c.method} ${c.path.replace(/\{([^}]+)\}/g, ':$1')}`;

/**
 * The impact on `facts` of upgrading to `to`: `changelogs` holds the changes from each version the
 * traffic ran under (undefined: a version no longer loaded).
 */
export function impactReport(
  to: string,
  facts: TrafficFacts,
  changelogs: (from: string) => readonly ContractChange[] | undefined,
  journalTruncated = false,
): ImpactReport {
  const versions = [...new Set([...Object.keys(facts.operations), ...Object.keys(facts.webhooks)])].sort();
  const touched: TouchedChange[] = [];
  const untouched = { count: 0, breaking: 0 };
  const unknownVersions: string[] = [];
  const summary: ImpactReport['traffic']['versions'] = [];
  for (const from of versions) {
    const ops = facts.operations[from] ?? {};
    const hooks = facts.webhooks[from] ?? {};
    summary.push({
      name: from,
      entries: Object.values(ops).reduce((n, o) => n + o.calls.count, 0),
      deliveries: Object.values(hooks).reduce((n, h) => n + h.deliveries.count, 0),
    });
    const changes = changelogs(from);
    if (changes === undefined) {
      unknownVersions.push(from);
      continue;
    }
    for (const change of changes) {
      const route = routeOf(change);
      const seen: Seen = {
        op: route === undefined ? undefined : ops[route],
        hook: change.event === undefined ? undefined : hooks[change.event],
      };
      const evidence = TOUCHING[change.kind](change, seen);
      if (evidence.count === 0) {
        untouched.count++;
        if (change.breaking) untouched.breaking++;
        continue;
      }
      touched.push({ ...change, from, evidence: change.event !== undefined ? { deliveries: evidence } : { entries: evidence } });
    }
  }
  const breaking = touched.filter((c) => c.breaking).length;
  return {
    to,
    traffic: {
      entries: facts.entries,
      deliveries: facts.deliveries,
      unreadBodies: facts.unreadBodies,
      journalTruncated,
      versions: summary,
      unknownVersions,
    },
    touched,
    breaking,
    untouched,
    verdict: breaking > 0 ? 'breaking' : 'clear',
  };
}
