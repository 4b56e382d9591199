/**
 * Variables and templating for scenarios.
 *
 *   ${merchant.clientId}     a variable (set by `variables`, `set`, or `capture`)
 *   ${accounts[0].iban}      paths into captured objects
 *   ${uuid}                  a fresh UUID (new at every use)
 *   ${unique}                a fresh run-unique token, e.g. `k3f9a2-7` (new at every use)
 *   ${run.id}                the run id (the same for the whole run)
 *   ${random.int}            a random integer 1..999999999
 *   ${random.amount}         a random amount 1.00..999.00 that is not a magic amount
 *   ${random.digits(8)}      8 random digits (a string)
 *   ${now} ${now+90d} ${now-30d}   the simulator's virtual now (ISO), optionally shifted
 *   ${payment.expiresAt+1s}  any ISO instant variable shifted by a duration
 *   ${receiver.url}          the URL webhooks are registered with
 *
 * A string that is exactly one `${…}` keeps the value's type (so `merchantId: ${merchant.id}`
 * stays an integer). Inside a longer string values are stringified. `$${` escapes a literal `${`.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { parseDuration } from '../config-parsers.js';
import { isMagicAmount } from '../domain/magic.js';

export class TemplateError extends Error {}

export type Vars = Record<string, unknown>;

export interface TemplateContext {
  vars: Vars;
  runId: string;
  /** Virtual now in ms (the simulator's clock), tracked by the runner. */
  nowMs: () => number;
  counter: { n: number };
}

const WHOLE = /^\$\{([^{}]+)\}$/;
const ANY = /\$\$\{|\$\{([^{}]+)\}/g;

export function render<T = unknown>(value: T, ctx: TemplateContext): T {
  if (typeof value === 'string') return renderString(value, ctx) as T;
  if (Array.isArray(value)) return value.map((v) => render(v, ctx)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[renderString(k, ctx) as string] = render(v, ctx);
    return out as T;
  }
  return value;
}

export function renderString(s: string, ctx: TemplateContext): unknown {
  const whole = s.match(WHOLE);
  if (whole) return evaluate(whole[1].trim(), ctx);
  return s.replace(ANY, (m, expr: string | undefined) => {
    if (m === '$${') return '${';
    const v = evaluate(expr!.trim(), ctx);
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

function evaluate(expr: string, ctx: TemplateContext): unknown {
  switch (expr) {
    case 'uuid':
      return randomUUID();
    case 'unique':
      return `${ctx.runId}-${++ctx.counter.n}`;
    case 'run.id':
      return ctx.runId;
    case 'random.int':
      return randomInt(1, 1_000_000_000);
    case 'random.amount': {
      let a: number;
      do a = randomInt(100, 99_900) / 100;
      while (isMagicAmount(a)); // magic amounts force outcomes
      return a;
    }
    default:
      break;
  }
  const digits = expr.match(/^random\.digits\((\d{1,3})\)$/);
  if (digits) {
    let out = '';
    for (let i = 0; i < Number(digits[1]); i++) out += String(randomInt(0, 10));
    return out;
  }
  if (expr === 'now') return new Date(ctx.nowMs()).toISOString();
  // time arithmetic: `now+90d`, `payment.expiresAt+1s` (the left side must be an ISO instant)
  const shift = expr.match(/^(.+?)\s*([+-])\s*(\d+(?:\.\d+)?(?:ms|s|m|h|d))$/);
  if (shift) {
    const base = evaluate(shift[1].trim(), ctx);
    const ms = typeof base === 'string' ? Date.parse(base) : Number.NaN;
    if (Number.isNaN(ms))
      throw new TemplateError(`\${${expr}}: ${shift[1].trim()} is not an ISO 8601 instant (got ${JSON.stringify(base)})`);
    const d = parseDuration(shift[3]);
    return new Date(shift[2] === '+' ? ms + d : ms - d).toISOString();
  }
  if (!/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*|\[\d+\])*$/.test(expr)) throw new TemplateError(`\${${expr}} is not a valid expression`);
  const found = lookup(ctx.vars, expr);
  if (!found.ok) {
    const known = Object.keys(ctx.vars).sort();
    throw new TemplateError(
      `unknown variable \${${expr}}${known.length ? ` (defined: ${known.join(', ')})` : ' (no variables defined yet)'}`,
    );
  }
  return found.value;
}

/**
 * Variables are stored flat by their full dotted name (`merchant.clientId`) and may also hold
 * objects; lookup tries the longest defined prefix, then walks the rest as a path.
 */
export function lookup(vars: Vars, expr: string): { ok: true; value: unknown } | { ok: false } {
  if (Object.hasOwn(vars, expr)) return { ok: true, value: vars[expr] };
  const segments = splitPath(expr);
  for (let i = segments.length - 1; i >= 1; i--) {
    const head = joinPath(segments.slice(0, i));
    if (Object.hasOwn(vars, head)) return getPath(vars[head], segments.slice(i));
  }
  return { ok: false };
}

type Segment = string | number;

export function splitPath(path: string): Segment[] {
  const out: Segment[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

function joinPath(segments: Segment[]): string {
  let s = '';
  for (const seg of segments) s += typeof seg === 'number' ? `[${seg}]` : s === '' ? seg : `.${seg}`;
  return s;
}

/** Value at `path` in `root` (`$` or '' = root). */
export function getPath(root: unknown, path: string | Segment[]): { ok: true; value: unknown } | { ok: false } {
  const segments = typeof path === 'string' ? (path === '$' || path === '' ? [] : splitPath(path.replace(/^\$\.?/, ''))) : path;
  let cur: unknown = root;
  for (const seg of segments) {
    if (cur === null || typeof cur !== 'object') return { ok: false };
    if (typeof seg === 'number') {
      if (!Array.isArray(cur) || seg >= cur.length) return { ok: false };
      cur = cur[seg];
    } else {
      if (!Object.hasOwn(cur, seg)) return { ok: false };
      cur = (cur as Record<string, unknown>)[seg];
    }
  }
  return { ok: true, value: cur };
}
