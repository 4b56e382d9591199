/**
 * What changes between two contract versions, and whether each change breaks a client
 * (docs/contract-versions.md, "The changelog"). A change is found by src/contracts/changelog.ts
 * (the two documents and their switches compared); its verdict is decided here, by one rule per
 * kind and place, each following oasdiff's published check of the same name where one applies
 * (github.com/oasdiff/oasdiff, docs/BREAKING-CHANGES.md; `oasdiff breaking` reports ERR and WARN,
 * so both are breaking here), else obsim's own rule, named `obsim-…`.
 *
 * The rule every verdict follows: a change is breaking when a client written against the old
 * version can stop working under the new one. What the partner sends is a request: narrowing it
 * breaks (a field now required, a value no longer accepted). What it receives is an answer or a
 * webhook: widening it breaks (a value it never got, a field it read no longer there).
 */

export const CHANGE_KINDS = [
  'operation-added',
  'operation-removed',
  'operation-deprecated',
  'operation-undeprecated',
  'sunset',
  'request-field-added',
  'request-field-removed',
  'request-field-required',
  'request-field-optional',
  'request-field-retyped',
  'answer-field-added',
  'answer-field-removed',
  'answer-field-required',
  'answer-field-optional',
  'answer-field-retyped',
  'enum-value-added',
  'enum-value-removed',
  'status-added',
  'status-removed',
  'webhook-added',
  'webhook-removed',
  'webhook-field-added',
  'webhook-field-removed',
  'webhook-field-required',
  'webhook-field-optional',
  'webhook-field-retyped',
  'header-added',
  'header-removed',
  'header-required',
  'field-deprecated',
  // what the version's x-obsim switches make obsim send
  'value-now-sent',
  'value-no-longer-sent',
  'field-made',
  'field-no-longer-made',
  'field-no-longer-sent',
  'field-sent-again',
  'status-changed',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** Where a change is: the request's body, a query parameter, a request header, the answer's body, an answer header, a webhook's payload. */
export type ChangePlace = 'request' | 'query' | 'header' | 'answer' | 'answer-header' | 'webhook';

export interface ContractChange {
  /** Stable within a changelog: the kind and where (`answer-field-removed createPayment 200 /merchantName`). */
  id: string;
  kind: ChangeKind;
  breaking: boolean;
  /** The rule the verdict follows: oasdiff's check id, or `obsim-…` (docs/contract-versions.md lists them). */
  rule: string;
  place?: ChangePlace;
  operationId?: string;
  method?: string;
  /** The operation's path as the documents write it. */
  path?: string;
  /** A webhook event. */
  event?: string;
  /** The answer's status key as the document writes it (`200`, `4XX`). */
  status?: string;
  /**
   * RFC 6901 pointer into the request, answer or webhook body (`*` for every item of an array; ''
   * the body itself); for a query parameter or header, its name.
   */
  field?: string;
  /** The enum value, or the value now (or no longer) sent. */
  value?: string | number | boolean | null;
  /** A value now sent only when another field of the answer holds a value (the switch's `when`). */
  when?: { field: string; equals: unknown };
  /** What it was and what it is: a type (`string/date-time`), a status, an instant. */
  before?: string;
  after?: string;
  /** JSON pointers into each side: the `from` version's document (or its file, for a switch) and the `to` version's. */
  fromPointer?: string;
  toPointer?: string;
  /** `switches`: the change is in the versions' x-obsim switches (the pointers are into their files); otherwise into their documents. */
  source: 'document' | 'switches';
  description: string;
}

/** The facts a verdict needs besides the kind. */
export interface VerdictFacts {
  place?: ChangePlace;
  /** The field or parameter is required where it now is (an added one) or was (a removed one). */
  required?: boolean;
  /** The status key (a removed or added status). */
  status?: string;
  /** A sunset: `set`, `earlier`, `later` or `removed`. */
  sunset?: 'set' | 'earlier' | 'later' | 'removed';
  /** A retyped field's types before and after (`number`, `null|string/date-time`). */
  before?: string;
  after?: string;
}

export interface Verdict {
  breaking: boolean;
  rule: string;
}

const received = (place: ChangePlace | undefined) => place === 'answer' || place === 'answer-header' || place === 'webhook';
const parameter = (place: ChangePlace | undefined) => place === 'query' || place === 'header';

/**
 * Whether every value of type `inner` is one of type `outer`, as oasdiff's published checks have
 * it for JSON (its isTypeContained and isFormatContained): the same type, an integer within a
 * number, a date or a time within a date-time string. Nothing else: in JSON "1" is not 1.
 */
const within = (inner: string, outer: string): boolean =>
  inner === outer ||
  (inner === 'integer' && outer === 'number') ||
  (outer === 'string/date-time' && (inner === 'string/date' || inner === 'string/time'));
/** Every type of `inner` (a `|` list) within one of `outer`'s. */
const typesWithin = (inner: string | undefined, outer: string | undefined): boolean =>
  inner !== undefined && outer !== undefined && inner !== '' && inner.split('|').every((i) => outer.split('|').some((o) => within(i, o)));

/** The types of a `|` list but null, and whether null is among them. */
const nullable = (types: string | undefined) => ({
  others: (types ?? '')
    .split('|')
    .filter((t) => t !== 'null')
    .join('|'),
  null: (types ?? '').split('|').includes('null'),
});

/**
 * A retyped answer (or payload) field, as oasdiff's response-property-type check classifies it:
 * what it now holds within what it held is specialized (number → integer; not breaking), the
 * reverse generalized (breaking: the client meets values it never had), anything else changed
 * (breaking); null alone gained or lost is its nullability checks'.
 */
function answerRetyped({ before, after }: VerdictFacts): Verdict {
  const a = nullable(before);
  const b = nullable(after);
  if (a.others === b.others && a.null !== b.null)
    return b.null
      ? { breaking: true, rule: 'response-property-became-nullable' }
      : { breaking: false, rule: 'response-property-became-not-nullable' };
  if (typesWithin(after, before)) return { breaking: false, rule: 'response-property-type-specialized' };
  if (typesWithin(before, after)) return { breaking: true, rule: 'response-property-type-generalized' };
  return { breaking: true, rule: 'response-property-type-changed' };
}

/** A retyped request field or parameter, the mirror: it breaks unless it still takes every value it took (integer → number). */
function requestRetyped({ before, after, place }: VerdictFacts): Verdict {
  const kind = parameter(place) ? 'parameter' : 'property';
  const a = nullable(before);
  const b = nullable(after);
  if (a.others === b.others && a.null !== b.null)
    return b.null
      ? { breaking: false, rule: `request-${kind}-became-nullable` }
      : { breaking: true, rule: `request-${kind}-became-not-nullable` };
  if (typesWithin(before, after)) return { breaking: false, rule: `request-${kind}-type-generalized` };
  return { breaking: true, rule: `request-${kind}-type-changed` };
}

/** The verdict on a change of `kind` (docs/contract-versions.md, "Verdicts": the same table). */
export function verdictOf(kind: ChangeKind, facts: VerdictFacts = {}): Verdict {
  const v = (breaking: boolean, rule: string): Verdict => ({ breaking, rule });
  const success = facts.status !== undefined && facts.status.startsWith('2');
  switch (kind) {
    case 'operation-added':
      return v(false, 'endpoint-added');
    case 'operation-removed':
      return v(true, 'api-removed-without-deprecation');
    case 'operation-deprecated':
      return v(false, 'endpoint-deprecated');
    case 'operation-undeprecated':
      return v(false, 'endpoint-reactivated');
    case 'sunset':
      if (facts.sunset === 'earlier') return v(true, 'api-sunset-date-changed-too-small');
      if (facts.sunset === 'removed') return v(true, 'api-sunset-deleted');
      return v(false, 'api-sunset-date-changed');
    case 'request-field-added':
      if (parameter(facts.place))
        return facts.required ? v(true, 'new-required-request-parameter') : v(false, 'new-optional-request-parameter');
      return facts.required ? v(true, 'new-required-request-property') : v(false, 'new-optional-request-property');
    case 'request-field-removed':
      // the provider's API drops a request property it does not know (docs/decisions.md): a
      // client still sending it keeps working; a parameter it no longer takes is refused
      return parameter(facts.place) ? v(true, 'request-parameter-removed') : v(false, 'request-property-removed');
    case 'request-field-required':
      return v(true, parameter(facts.place) ? 'request-parameter-became-required' : 'request-property-became-required');
    case 'request-field-optional':
      return v(false, parameter(facts.place) ? 'request-parameter-became-optional' : 'request-property-became-optional');
    case 'request-field-retyped':
      return requestRetyped(facts);
    case 'answer-field-added':
    case 'webhook-field-added':
      return v(false, facts.required ? 'response-required-property-added' : 'response-optional-property-added');
    case 'answer-field-removed':
    case 'webhook-field-removed':
      // a client could not count on an optional field being there (oasdiff since 1.30 reports it at INFO)
      return facts.required ? v(true, 'response-required-property-removed') : v(false, 'response-optional-property-removed');
    case 'answer-field-required':
    case 'webhook-field-required':
      return v(false, 'response-property-became-required');
    case 'answer-field-optional':
    case 'webhook-field-optional':
      return v(true, 'response-property-became-optional');
    case 'answer-field-retyped':
    case 'webhook-field-retyped':
      return answerRetyped(facts);
    case 'enum-value-added':
      if (received(facts.place)) return v(true, 'response-property-enum-value-added');
      return v(false, parameter(facts.place) ? 'request-parameter-enum-value-added' : 'request-property-enum-value-added');
    case 'enum-value-removed':
      if (received(facts.place)) return v(false, 'response-property-enum-value-removed');
      return v(true, parameter(facts.place) ? 'request-parameter-enum-value-removed' : 'request-property-enum-value-removed');
    case 'status-added':
      return v(false, success ? 'response-success-status-added' : 'response-non-success-status-added');
    case 'status-removed':
      // an error the document no longer gives leaves a client's handling of it undocumented
      // (oasdiff's optional breaking check; api-smart-diff: breaking)
      return v(true, success ? 'response-success-status-removed' : 'response-non-success-status-removed');
    case 'webhook-added':
      return v(false, 'obsim-webhook-added');
    case 'webhook-removed':
      return v(true, 'obsim-webhook-removed');
    case 'header-added':
      if (facts.place === 'answer-header') return v(false, 'response-header-added');
      return facts.required ? v(true, 'new-required-request-header-parameter') : v(false, 'new-optional-request-header-parameter');
    case 'header-removed':
      if (facts.place === 'answer-header')
        return v(true, facts.required ? 'response-required-header-removed' : 'response-optional-header-removed');
      return v(true, 'request-parameter-removed');
    case 'header-required':
      return v(true, 'request-parameter-became-required');
    case 'field-deprecated':
      return v(false, parameter(facts.place) ? 'request-parameter-deprecated' : 'obsim-property-deprecated');
    case 'value-now-sent':
      return v(true, 'obsim-value-now-sent');
    case 'value-no-longer-sent':
      return v(false, 'obsim-value-no-longer-sent');
    case 'field-made':
      return v(false, 'obsim-field-made');
    case 'field-no-longer-made':
      return v(true, 'obsim-field-no-longer-made');
    case 'field-no-longer-sent':
      return v(true, 'obsim-field-no-longer-sent');
    case 'field-sent-again':
      return v(false, 'obsim-field-sent-again');
    case 'status-changed':
      return v(true, 'obsim-status-changed');
  }
}

/** A one-line summary of a changelog: how many changes, how many breaking. */
export function changeCounts(changes: readonly ContractChange[]): { changes: number; breaking: number } {
  return { changes: changes.length, breaking: changes.filter((c) => c.breaking).length };
}

const show = (v: unknown) => JSON.stringify(v);

/** A change described in one line (the changelog's `description`). */
export function describeChange(c: Omit<ContractChange, 'id' | 'breaking' | 'rule' | 'source' | 'description'>): string {
  const where = c.event !== undefined ? `webhook ${c.event}` : `${c.operationId ?? ''} (${c.method ?? ''} ${c.path ?? ''})`;
  const status = c.status !== undefined ? ` ${c.status}` : '';
  const field = c.field === '' ? 'the body' : (c.field ?? '');
  const placeName: Record<ChangePlace, string> = {
    request: 'request field',
    query: 'query parameter',
    header: 'request header',
    answer: `answer${status} field`,
    'answer-header': `answer${status} header`,
    webhook: 'payload field',
  };
  const what = c.place ? `${placeName[c.place]} ${field}` : field;
  const values = c.before !== undefined || c.after !== undefined ? ` (${c.before ?? '—'} → ${c.after ?? '—'})` : '';
  const texts: Record<ChangeKind, string> = {
    'operation-added': `${where}: a new operation`,
    'operation-removed': `${where}: removed`,
    'operation-deprecated': `${where}: deprecated`,
    'operation-undeprecated': `${where}: no longer deprecated`,
    sunset: `${where}: sunset${values}`,
    'request-field-added': `${where}: new ${what}`,
    'request-field-removed': `${where}: ${what} removed`,
    'request-field-required': `${where}: ${what} now required`,
    'request-field-optional': `${where}: ${what} now optional`,
    'request-field-retyped': `${where}: ${what} retyped${values}`,
    'answer-field-added': `${where}: new ${what}`,
    'answer-field-removed': `${where}: ${what} removed`,
    'answer-field-required': `${where}: ${what} now required`,
    'answer-field-optional': `${where}: ${what} now optional`,
    'answer-field-retyped': `${where}: ${what} retyped${values}`,
    'enum-value-added': `${where}: ${what} takes the new value ${show(c.value)}`,
    'enum-value-removed': `${where}: ${what} no longer takes ${show(c.value)}`,
    'status-added': `${where}: answers ${c.status ?? ''}`,
    'status-removed': `${where}: no longer answers ${c.status ?? ''}`,
    'webhook-added': `${where}: a new event`,
    'webhook-removed': `${where}: no longer sent`,
    'webhook-field-added': `${where}: new ${what}`,
    'webhook-field-removed': `${where}: ${what} removed`,
    'webhook-field-required': `${where}: ${what} now required`,
    'webhook-field-optional': `${where}: ${what} now optional`,
    'webhook-field-retyped': `${where}: ${what} retyped${values}`,
    'header-added': `${where}: new ${what}`,
    'header-removed': `${where}: ${what} removed`,
    'header-required': `${where}: ${what} now required`,
    'field-deprecated': `${where}: ${what} deprecated`,
    'value-now-sent': `${where}: obsim now sends ${show(c.value)} in ${what}${c.when ? ` when ${c.when.field} is ${show(c.when.equals)}` : ''}`,
    'value-no-longer-sent': `${where}: obsim no longer sends ${show(c.value)} in ${what}`,
    'field-made': `${where}: obsim now sends ${what}`,
    'field-no-longer-made': `${where}: obsim no longer makes ${what}`,
    'field-no-longer-sent': `${where}: obsim no longer sends ${what}`,
    'field-sent-again': `${where}: obsim sends ${what} again`,
    'status-changed': `${where}: answers ${c.after ?? ''} where it answered ${c.before ?? ''}`,
  };
  return texts[c.kind];
}
