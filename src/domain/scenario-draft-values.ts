/**
 * Values in a recorded session: which ones obsim handed out (ids, tokens, links) and so become
 * captured variables, which ones are volatile (times, generated ids) and so are not asserted, and
 * how a value is written back into a scenario as a template.
 */

/** Keys whose values obsim hands out: captured when used later, never asserted literally. */
const GENERATED_KEY = /^(id|.*Id|.*Token|token|.*Url|clientId|subTppId|iban|.*Iban|eventId)$/;
/** Keys whose values are times or secrets: never asserted. */
const VOLATILE_KEY = /(At|Date|DateTime|Time|Timestamp|^expires.*|^signature|^secret|^message|^lastUpdated|Secret)$/;
const volatileKeys = new Map<string, boolean>();
function isVolatileKey(key: string): boolean {
  let known = volatileKeys.get(key);
  if (known === undefined) volatileKeys.set(key, (known = VOLATILE_KEY.test(key)));
  return known;
}
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const CONTAINS_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
/** Arrays longer than this are not asserted (a long list is rarely what a story is about). */
const MAX_ASSERTED_ITEMS = 20;

const SINGULAR = new Map<string, string>([
  ['merchants', 'merchant'],
  ['payments', 'payment'],
  ['consents', 'consent'],
  ['deliveries', 'delivery'],
  ['webhooks', 'webhook'],
  ['accounts', 'account'],
  ['users', 'user'],
  ['stores', 'store'],
  ['snapshots', 'snapshot'],
  ['transactions', 'transaction'],
]);

/** Keys repeat (a recording sees a few dozen, a million times): each is judged once. */
const generatedKeys = new Map<string, boolean>();
export function isGeneratedKey(key: string): boolean {
  let known = generatedKeys.get(key);
  if (known === undefined) generatedKeys.set(key, (known = GENERATED_KEY.test(key)));
  return known;
}
export const isIsoInstant = (v: unknown): v is string => typeof v === 'string' && ISO_INSTANT.test(v) && !Number.isNaN(Date.parse(v));

/** The kind of thing a key or path segment names: `merchantId` → merchant; `id` under /merchants → merchant. */
export function kindOf(key: string, contextPath: string): string {
  if (key !== 'id' && key.endsWith('Id')) return key.slice(0, -2);
  const segments = contextPath.split('/');
  for (let i = segments.length - 1; i >= 0; i--) {
    const kind = SINGULAR.get(segments[i]);
    if (kind !== undefined) return kind;
  }
  return key;
}

/**
 * The variables of a recording: a value obsim handed out → the name it is captured as. Numbers
 * (merchant and payment ids are small integers) are told apart by kind, so payment 1 and
 * merchant 1 are two variables; strings by value. Every reference written (`${name}`) is noted
 * with the step it is written in, so captures nothing uses can be dropped without reading the
 * steps again.
 */
export class DraftVariables {
  private readonly byString = new Map<string, string>();
  private readonly byNumber = new Map<string, Map<number, string>>();
  private readonly byUrlPath = new Map<string, string>();
  private readonly names = new Set<string>();
  private readonly suffixes = new Map<string, number>();
  /** Every value seen under a generated key, captured or not: text containing one is volatile. */
  readonly generated = new Set<string>();
  /** The index of the step being written: references made now are made by it. */
  step = 0;
  /** Each name → the last step that refers to it. */
  readonly lastUse = new Map<string, number>();
  /** When set, why answers' values were not expected: reason → the keys left out for it (a HAR import's summary). */
  dropped?: Map<string, Set<string>>;

  /** Note that the value under `key` is not expected, and why. */
  drop(key: string, reason: string): void {
    if (!this.dropped || key === '') return;
    let keys = this.dropped.get(reason);
    if (!keys) this.dropped.set(reason, (keys = new Set()));
    keys.add(key);
  }

  /** The value's variable: a number's of that kind (`payment`), a string's whatever the kind. */
  nameFor(kind: string, value: string | number): string | undefined {
    return typeof value === 'number' ? this.byNumber.get(kind)?.get(value) : this.byString.get(value);
  }

  /** `${name}` for the value's variable, noted as used by the current step; undefined when it has none. */
  refFor(kind: string, value: string | number): string | undefined {
    const name = this.nameFor(kind, value);
    return name === undefined ? undefined : this.ref(name);
  }

  ref(name: string): string {
    this.lastUse.set(name, this.step);
    return `\${${name}}`;
  }

  /** Add a variable for the value; its name from the key (`paymentId`, then `paymentId2`, …). */
  add(kind: string, key: string, value: string | number): string {
    const base = (key === 'id' ? `${kind}Id` : key).replace(/[^A-Za-z0-9_.]/g, '_');
    let name = base;
    // the next free suffix of each base is remembered: 5,000 payments must not try 1..n each
    for (let n = this.suffixes.get(base) ?? 2; this.names.has(name); n++) {
      name = `${base}${n}`;
      this.suffixes.set(base, n + 1);
    }
    this.set(kind, value, name);
    return name;
  }

  /** Set a name chosen elsewhere (a webhook's `as`). */
  set(kind: string, value: string | number, name: string): void {
    this.names.add(name);
    if (typeof value === 'string') this.byString.set(value, name);
    else {
      let byValue = this.byNumber.get(kind);
      if (byValue === undefined) this.byNumber.set(kind, (byValue = new Map()));
      byValue.set(value, name);
    }
  }

  /** The path with each segment that is a variable's value replaced by it, or a whole URL path (`${paymentUrl}`). */
  path(path: string): string {
    const parts = path.split('/');
    const named = parts.map((seg, i) => {
      if (seg === '') return undefined;
      const decoded = safeDecode(seg);
      const asNumber = /^\d+$/.test(decoded) ? this.nameFor(SINGULAR.get(parts[i - 1] ?? '') ?? '', Number(decoded)) : undefined;
      return asNumber ?? (decoded.length >= 6 ? this.byString.get(decoded) : undefined);
    });
    // a link whose token is not handed out on its own (paymentUrl) is requested by the link
    const whole = this.byUrlPath.get(path);
    if (whole !== undefined && named.every((n) => n === undefined) && !path.includes('${')) return this.ref(whole);
    return parts
      .map((seg, i) => {
        const name = named[i];
        return name === undefined ? escapeTemplate(seg) : this.ref(name);
      })
      .join('/');
  }

  /** Remember a link's path so a request to it is written `path: ${paymentUrl}`. */
  addUrlPath(url: string, name: string): void {
    try {
      this.byUrlPath.set(new URL(url).pathname, name);
    } catch {
      // not a URL after all: nothing to remember
    }
  }

  /** Text that contains something generated (an id in an error message) is not asserted literally. */
  mentionsGenerated(text: string): boolean {
    if (this.generated.has(text)) return true;
    // ids are words of letters, digits, `_` and `-` (a UUID, `onb_…`): look each word up
    for (const word of text.split(/[^A-Za-z0-9_-]+/)) if (word.length >= 6 && this.generated.has(word)) return true;
    return false;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * A literal string as a scenario template: `${` written `$${` so it is sent as it was (replaced
 * by a function: in a replacement string `$$` means one `$`).
 */
export const escapeTemplate = (s: string): string => (s.includes('${') ? s.replaceAll('${', () => '$${') : s);

/** `90d`, `5s`, `1500ms`: the largest unit that divides the duration exactly. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/**
 * An instant sent in a request, as a shift of the replaying sandbox's now (`${now+90d}`), so a
 * replay on a fresh sandbox sends the same distances. Shifts close to whole days or seconds (the
 * recording's `now` and the sender's differ by the milliseconds a request takes) are rounded.
 */
export function relativeInstant(value: string, nowMs: number): string {
  const shift = Date.parse(value) - nowMs;
  const day = 86_400_000;
  const abs = Math.abs(shift);
  let rounded = Math.round(abs / 1000) * 1000;
  if (Math.abs(abs - Math.round(abs / day) * day) < 60_000) rounded = Math.round(abs / day) * day;
  if (rounded === 0) return '${now}';
  return `\${now${shift < 0 ? '-' : '+'}${formatDuration(rounded)}}`;
}

/** A request's value written back: handed-out values as variables, instants relative to now, the rest literal. */
export function templateOf(value: unknown, vars: DraftVariables, nowMs: number, key = '', contextPath = ''): unknown {
  if (typeof value === 'string') {
    const ref = vars.refFor('', value);
    if (ref) return ref;
    if (isIsoInstant(value)) return relativeInstant(value, nowMs);
    return escapeTemplate(value);
  }
  if (typeof value === 'number' && isGeneratedKey(key)) {
    return vars.refFor(kindOf(key, contextPath), value) ?? value;
  }
  if (Array.isArray(value)) return value.map((v) => templateOf(v, vars, nowMs, key, contextPath));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k in value) out[escapeTemplate(k)] = templateOf((value as Record<string, unknown>)[k], vars, nowMs, k, contextPath);
    return out;
  }
  return value;
}

const SKIP = Symbol('skip');

/**
 * What of an answer a replay asserts: the state it reports (STATE_KEY) as it was, handed-out
 * values that are variables by reference; times, other generated values, URLs, secrets and
 * echoes of the request left out. Undefined when nothing is left.
 */
export function stableView(value: unknown, vars: DraftVariables, contextPath: string): unknown {
  const v = stable(value, vars, '', contextPath);
  return v === SKIP ? undefined : v;
}

/**
 * Keys whose values are the state an answer reports (what a regression shows): statuses,
 * failure reasons, error codes and fields, flags, counts. Echoes of what was sent (amounts,
 * names) are not asserted: a recording would repeat them on every read.
 */
const STATE_KEY = /^(status|\w*Status|failureReason|code|field|event|verified|is[A-Z]\w*|total\w*|count)$/;

function stable(value: unknown, vars: DraftVariables, key: string, contextPath: string): unknown {
  if (isVolatileKey(key)) return skip(vars, key, DROP.volatile);
  if (typeof value === 'string' || typeof value === 'number') {
    // a string is a variable by its value alone; a number only under a key naming an id (an
    // amount of 10 is not payment 10)
    const ref =
      typeof value === 'string' ? vars.refFor('', value) : isGeneratedKey(key) ? vars.refFor(kindOf(key, contextPath), value) : undefined;
    if (ref) return ref;
    if (isGeneratedKey(key)) return skip(vars, key, DROP.generated);
    if (!STATE_KEY.test(key)) return skip(vars, key, DROP.echo);
    if (typeof value === 'number') return value;
    if (value.startsWith('$') || value.includes('[redacted]')) return skip(vars, key, DROP.secret);
    if (URL_LIKE.test(value)) return skip(vars, key, DROP.link);
    if (CONTAINS_INSTANT.test(value)) return skip(vars, key, DROP.volatile);
    if (vars.mentionsGenerated(value)) return skip(vars, key, DROP.mentions);
    return escapeTemplate(value);
  }
  if (Array.isArray(value)) {
    if (value.length > MAX_ASSERTED_ITEMS) return skip(vars, key, DROP.long);
    const items = value.map((item) => stable(item, vars, key, contextPath));
    if (items.every((i) => i === SKIP)) return SKIP;
    return items.map((i) => (i === SKIP ? '$any' : i));
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    let any = false;
    for (const k in value) {
      const s = stable((value as Record<string, unknown>)[k], vars, k, contextPath);
      if (s !== SKIP) {
        out[escapeTemplate(k)] = s;
        any = true;
      }
    }
    return any ? out : SKIP;
  }
  // null and booleans: a state (failureReason: null, isActivated: true) or nothing
  return STATE_KEY.test(key) ? value : skip(vars, key, DROP.echo);
}

/** Why a value of an answer is not expected (said in a HAR import's summary). */
const DROP = {
  volatile: 'a time, or a value that changes on every call',
  generated: 'an id or link the replay is handed anew (captured where a later request uses it)',
  echo: 'not a state: an echo of what was sent, or a detail of this provider',
  secret: 'a secret or a redacted value',
  link: "a link (its host and layout are the provider's)",
  mentions: 'text naming an id the replay is handed anew',
  long: `a list of more than ${MAX_ASSERTED_ITEMS} items`,
} as const;

function skip(vars: DraftVariables, key: string, reason: string): typeof SKIP {
  vars.drop(key, reason);
  return SKIP;
}

export interface GeneratedValue {
  path: string;
  key: string;
  value: string | number;
}

/** Every generated value under a generated key in a JSON value, with the key and its path (`items[0].id`). */
export function generatedValues(value: unknown, out: GeneratedValue[] = [], path = '', key = ''): GeneratedValue[] {
  if (typeof value === 'string' || typeof value === 'number') {
    if (isGeneratedKey(key)) out.push({ path, key, value });
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) generatedValues(value[i], out, `${path}[${i}]`, key);
  } else if (value !== null && typeof value === 'object') {
    for (const k in value) generatedValues((value as Record<string, unknown>)[k], out, path === '' ? k : `${path}.${k}`, k);
  }
  return out;
}
