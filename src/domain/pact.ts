/**
 * Pact's rules as obsim applies them (docs/pact.md), pure: which files are pacts obsim takes,
 * how a provider state's name is matched (a name, or a pattern with `{param}` placeholders) and
 * how the params a verifier sends are checked against what a state declares.
 */
import { ApiError, invalidInput } from './errors.js';

/** The Pact Specification major versions a pact may have (the reference verifier reads them all). */
export const PACT_SPEC_MAJORS = [1, 2, 3, 4] as const;

export type PactFileCheck = { ok: true; specVersion: string; interactions: number } | { ok: false; problem: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether `doc` is a pact obsim can hand to a verifier: a consumer and a provider with names,
 * interactions (or messages), and a specification version 1.x to 4.x (a pact without one is a
 * version 1 pact, as the specification says).
 */
export function checkPactFile(doc: unknown): PactFileCheck {
  if (!isObject(doc)) return { ok: false, problem: 'not a pact: a pact is a JSON object' };
  for (const side of ['consumer', 'provider'] as const) {
    const party = doc[side];
    if (!isObject(party) || typeof party.name !== 'string' || party.name === '')
      return { ok: false, problem: `not a pact: no ${side}.name` };
  }
  const interactions = Array.isArray(doc.interactions) ? doc.interactions : Array.isArray(doc.messages) ? doc.messages : undefined;
  if (!interactions) return { ok: false, problem: 'not a pact: no interactions' };
  const metadata = isObject(doc.metadata) ? doc.metadata : {};
  const spec = metadata.pactSpecification ?? metadata['pact-specification'];
  const raw = isObject(spec) ? spec.version : (metadata.pactSpecificationVersion ?? undefined);
  const version = raw === undefined ? '1.0.0' : String(raw);
  const major = Number(/^(\d+)/.exec(version)?.[1]);
  if (!(PACT_SPEC_MAJORS as readonly number[]).includes(major))
    return {
      ok: false,
      problem: `Pact Specification version ${JSON.stringify(version)} is not supported (obsim takes ${PACT_SPEC_MAJORS.map((m) => `${m}.x`).join(', ')})`,
    };
  return { ok: true, specVersion: version, interactions: interactions.length };
}

type ScalarType = 'string' | 'number' | 'integer' | 'boolean';

/** How a provider state declares one of its params. */
export interface StateParam {
  type: ScalarType | 'array';
  enum?: readonly (string | number)[];
  /** An array param's items: each of this type (and among its enum). */
  items?: { type: ScalarType; enum?: readonly (string | number)[] };
  default?: unknown;
  description?: string;
}

/** A state's name with its `{param}` placeholders, as a matcher. */
export interface StatePattern {
  name: string;
  placeholders: string[];
  match(state: string): Record<string, string> | undefined;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `a payment of {amount} DKK` matches `a payment of 12.5 DKK` with `{ amount: "12.5" }`; a name without placeholders matches itself. */
export function statePattern(name: string): StatePattern {
  const placeholders: string[] = [];
  const source = name
    .split(/(\{[A-Za-z_][\w.-]*\})/)
    .map((part) => {
      const placeholder = /^\{([A-Za-z_][\w.-]*)\}$/.exec(part);
      if (!placeholder) return escapeRegExp(part);
      placeholders.push(placeholder[1]);
      return '(.+?)';
    })
    .join('');
  const regex = new RegExp(`^${source}$`);
  return {
    name,
    placeholders,
    match(state) {
      const m = regex.exec(state);
      if (!m) return undefined;
      return Object.fromEntries(placeholders.map((p, i) => [p, m[i + 1]]));
    },
  };
}

const describeScalar = (p: { type: string; enum?: readonly (string | number)[] }) =>
  p.enum ? `one of ${p.enum.map((v) => JSON.stringify(v)).join(', ')}` : `a ${p.type}`;
const describeType = (p: StateParam) => (p.type === 'array' && p.items ? `a list, each ${describeScalar(p.items)}` : describeScalar(p));

/** A value read from a state's name (always text) in the type its param declares; undefined when it is not one. */
function fromText(text: string, param: StateParam): unknown {
  if (param.type === 'number' && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (param.type === 'integer' && /^-?\d+$/.test(text)) return Number(text);
  if (param.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (param.type === 'string') return text;
  return undefined;
}

const inEnum = (value: unknown, allowed?: readonly (string | number)[]) => !allowed || allowed.includes(value as string | number);

function ofType(value: unknown, param: { type: StateParam['type']; items?: StateParam['items'] }): boolean {
  switch (param.type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value) && (!param.items || value.every((item) => ofType(item, param.items!) && inEnum(item, param.items!.enum)));
  }
}

/**
 * The params a state is set up with: those its name carried, then those the verifier sent (each
 * of the type the state declares, as a 400 naming `/params/<name>` otherwise; one it does not
 * declare is `unknown_field`), then the defaults.
 */
export function stateParams(
  declared: Readonly<Record<string, StateParam>>,
  fromName: Readonly<Record<string, string>>,
  sent: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(fromName)) {
    const param = Object.hasOwn(declared, name) ? declared[name] : { type: 'string' as const };
    const value = fromText(text, param);
    if (value === undefined)
      throw invalidInput('/state', `The state's name gives ${name} = ${JSON.stringify(text)}, which is not ${describeType(param)}`);
    out[name] = value;
  }
  for (const [name, value] of Object.entries(sent)) {
    // own params only: `constructor` or `toString` is not a param of every state
    const param = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (!param)
      throw new ApiError('unknown_field', {
        field: `/params/${name}`,
        message: `This state takes no param ${JSON.stringify(name)}; its params are ${Object.keys(declared).join(', ') || 'none'}`,
      });
    if (value === null || value === undefined) continue;
    if (!ofType(value, param) || !inEnum(value, param.enum))
      throw invalidInput(`/params/${name}`, `params.${name} must be ${describeType(param)}; got ${JSON.stringify(value)}`);
    out[name] = value;
  }
  for (const [name, param] of Object.entries(declared)) {
    if (out[name] === undefined && param.default !== undefined) out[name] = param.default;
  }
  return out;
}

/** What the served document says of one answer field, as the exporter reads it. */
export interface FieldFacts {
  enum?: readonly unknown[];
  format?: string;
  pattern?: string;
  /** The field holds an id the contract places (a merchant id, a payment id, a token). */
  id: boolean;
  /** ErrorBody.code: the refusal's identity. */
  errorCode?: boolean;
}

/** A Pact V4 matcher (`{ match: … }`), or undefined for equality. */
export type PactMatcher = { match: 'type' | 'integer' | 'decimal' | 'number' | 'regex' | 'equality'; regex?: string; min?: number };

/** RFC 3339 date-time, as obsim writes instants (`2026-03-02T09:30:00.000Z`). */
export const INSTANT_REGEX = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';

/**
 * How an exported pact matches one answer field: what identifies the answer (an enum value such
 * as a status, an error code, a flag, a null) by equality; ids and tokens by their documented
 * pattern, else by type; instants by an RFC 3339 regex; every other value by its type, so a
 * fresh sandbox's own names, amounts and links verify.
 */
export function matcherFor(value: unknown, facts: FieldFacts): PactMatcher {
  if (value === null || typeof value === 'boolean' || facts.errorCode || (facts.enum && !facts.id)) return { match: 'equality' };
  if (typeof value === 'number') return Number.isInteger(value) ? { match: 'integer' } : { match: 'number' };
  if (typeof value !== 'string') return { match: 'type' };
  if (facts.pattern && new RegExp(facts.pattern).test(value)) return { match: 'regex', regex: facts.pattern };
  if (facts.format === 'date-time') return { match: 'regex', regex: INSTANT_REGEX };
  return { match: 'type' };
}
