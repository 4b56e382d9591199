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

const SINGULAR: Record<string, string> = {
  merchants: 'merchant',
  payments: 'payment',
  consents: 'consent',
  deliveries: 'delivery',
  webhooks: 'webhook',
  accounts: 'account',
  users: 'user',
  stores: 'store',
  snapshots: 'snapshot',
  transactions: 'transaction',
};

/** Keys repeat (a recording sees a few dozen, a million times): each is judged once. */
const generatedKeys = new Map<string, boolean>();
export function isGeneratedKey(key: string): boolean {
  let known = generatedKeys.get(key);
  if (known === undefined) generatedKeys.set(key, (known = GENERATED_KEY.test(key)));
  return known;
}
export const isIsoInstant = (v: unknown): v is string => typeof v === 'string' && ISO_INSTANT.test(v) && !Number.isNaN(Date.parse(v));

/** The kind of thing a key or path segment names: `merchantId` → merchant; `id` under /merchants → merchant. */
const kinds = new Map<string, string>();
export function kindOf(key: string, contextPath: string): string {
  if (key !== 'id' && key.endsWith('Id')) return key.slice(0, -2);
  const cacheKey = `${key} ${contextPath}`;
  let kind = kinds.get(cacheKey);
  if (kind === undefined) {
    kind = kindFromPath(key, contextPath);
    if (kinds.size < 10_000) kinds.set(cacheKey, kind);
  }
  return kind;
}

function kindFromPath(key: string, contextPath: string): string {
  const segments = contextPath.split('/').filter((s) => s !== '' && !/\d/.test(s));
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = SINGULAR[segments[i]];
    if (s) return s;
  }
  return key;
}

/**
 * The variables of a recording: a value obsim handed out → the name it is captured as. Numbers
 * (merchant and payment ids are small integers) are told apart by kind, so payment 1 and
 * merchant 1 are two variables; strings by value.
 */
export class DraftVariables {
  private readonly byValue = new Map<string, string>();
  private readonly names = new Set<string>();
  private readonly suffixes = new Map<string, number>();
  /** Every value seen under a generated key, captured or not: text containing one is volatile. */
  readonly generated = new Set<string>();

  private static keyOf(kind: string, value: string | number): string {
    return typeof value === 'number' ? `${kind}:${value}` : `s:${value}`;
  }

  nameFor(kind: string, value: string | number): string | undefined {
    return this.byValue.get(DraftVariables.keyOf(kind, value));
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
    this.names.add(name);
    this.byValue.set(DraftVariables.keyOf(kind, value), name);
    return name;
  }

  /** Set a name chosen elsewhere (a webhook's `as`). */
  set(kind: string, value: string | number, name: string): void {
    this.names.add(name);
    this.byValue.set(DraftVariables.keyOf(kind, value), name);
  }

  /** The path with each segment that is a variable's value replaced by it, or a whole URL path (`${paymentUrl}`). */
  path(path: string): string {
    const parts = path.split('/');
    const bySegment = parts
      .map((seg, i) => {
        if (seg === '') return seg;
        const decoded = safeDecode(seg);
        const kind = SINGULAR[parts[i - 1] ?? ''] ?? '';
        const asNumber = /^\d+$/.test(decoded) ? this.nameFor(kind, Number(decoded)) : undefined;
        const name = asNumber ?? (decoded.length >= 6 ? this.nameFor('', decoded) : undefined);
        return name ? `\${${name}}` : escapeTemplate(seg);
      })
      .join('/');
    // a link whose token is not handed out on its own (paymentUrl) is requested by the link
    const whole = this.byValue.get(`url:${path}`);
    return whole && !bySegment.includes('${') ? `\${${whole}}` : bySegment;
  }

  /** Remember a link's path so a request to it is written `path: ${paymentUrl}`. */
  addUrlPath(url: string, name: string): void {
    try {
      this.byValue.set(`url:${new URL(url).pathname}`, name);
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
export const escapeTemplate = (s: string): string => s.replaceAll('${', () => '$${');

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
    const name = vars.nameFor(kindOf(key, contextPath), value) ?? vars.nameFor('', value);
    if (name) return `\${${name}}`;
    if (isIsoInstant(value)) return relativeInstant(value, nowMs);
    return escapeTemplate(value);
  }
  if (typeof value === 'number' && isGeneratedKey(key)) {
    const name = vars.nameFor(kindOf(key, contextPath), value);
    return name ? `\${${name}}` : value;
  }
  if (Array.isArray(value)) return value.map((v) => templateOf(v, vars, nowMs, key, contextPath));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[escapeTemplate(k)] = templateOf(v, vars, nowMs, k, contextPath);
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
  if (isVolatileKey(key)) return SKIP;
  if (typeof value === 'string' || typeof value === 'number') {
    const name = vars.nameFor(kindOf(key, contextPath), value) ?? (typeof value === 'string' ? vars.nameFor('', value) : undefined);
    if (name) return `\${${name}}`;
    if (isGeneratedKey(key) || !STATE_KEY.test(key)) return SKIP;
    if (typeof value === 'number') return value;
    if (value.startsWith('$') || value.includes('[redacted]') || URL_LIKE.test(value) || CONTAINS_INSTANT.test(value)) return SKIP;
    if (vars.mentionsGenerated(value)) return SKIP;
    return escapeTemplate(value);
  }
  if (Array.isArray(value)) {
    if (value.length > MAX_ASSERTED_ITEMS) return SKIP;
    const items = value.map((item) => stable(item, vars, key, contextPath));
    if (items.every((i) => i === SKIP)) return SKIP;
    return items.map((i) => (i === SKIP ? '$any' : i));
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const s = stable(v, vars, k, contextPath);
      if (s !== SKIP) out[escapeTemplate(k)] = s;
    }
    return Object.keys(out).length > 0 ? out : SKIP;
  }
  // null and booleans: a state (failureReason: null, isActivated: true) or nothing
  return STATE_KEY.test(key) ? value : SKIP;
}

/** Every generated value under a generated key in a JSON value, with the key and its path (`items[0].id`). */
export function generatedValues(value: unknown, path = '', key = ''): { path: string; key: string; value: string | number }[] {
  if ((typeof value === 'string' || typeof value === 'number') && isGeneratedKey(key)) return [{ path, key, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => generatedValues(v, `${path}[${i}]`, key));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => generatedValues(v, path === '' ? k : `${path}.${k}`, k));
  }
  return [];
}
