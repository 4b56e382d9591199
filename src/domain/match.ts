/**
 * Partial matching of JSON values, with the path of the first mismatches for a readable diff.
 *
 * - objects: every expected property must match in the actual object (extra properties are fine)
 * - arrays: same length, element by element
 * - scalars: strict equality (1 and "1" differ)
 * - string matchers: `$any` (present, any value), `$absent` (property must not exist),
 *   `$type:<string|number|integer|boolean|object|array|null>`, `$regex:<pattern>`
 */
export interface Mismatch {
  path: string;
  expected: unknown;
  actual: unknown;
  reason: string;
}

const ABSENT = Symbol('absent');

export function partialMatch(expected: unknown, actual: unknown, path = ''): Mismatch[] {
  const out: Mismatch[] = [];
  walk(expected, actual, path, out);
  return out;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** `actual` may be ABSENT (the property is missing, not undefined). */
function walk(expected: unknown, actual: unknown, path: string, out: Mismatch[]): void {
  const where = path === '' ? '(root)' : path;
  if (typeof expected === 'string' && expected.startsWith('$')) {
    if (expected === '$absent') {
      if (actual !== ABSENT) out.push({ path: where, expected: '(absent)', actual, reason: 'must be absent' });
      return;
    }
    if (expected === '$any') {
      if (actual === ABSENT) out.push({ path: where, expected: '(present)', actual: '(absent)', reason: 'is missing' });
      return;
    }
    const type = expected.match(/^\$type:(\w+)$/);
    if (type) {
      const t = type[1];
      const ok = actual !== ABSENT && (t === 'integer' ? Number.isInteger(actual) : typeName(actual) === t);
      if (!ok)
        out.push({ path: where, expected: `(${t})`, actual: actual === ABSENT ? '(absent)' : actual, reason: `must be of type ${t}` });
      return;
    }
    const regex = expected.match(/^\$regex:([\s\S]*)$/);
    if (regex) {
      if (typeof actual !== 'string' || !new RegExp(regex[1]).test(actual)) {
        out.push({ path: where, expected: `/${regex[1]}/`, actual: actual === ABSENT ? '(absent)' : actual, reason: 'does not match' });
      }
      return;
    }
  }
  if (actual === ABSENT) {
    out.push({ path: where, expected, actual: '(absent)', reason: 'is missing' });
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      out.push({ path: where, expected, actual, reason: `expected an array, got ${typeName(actual)}` });
      return;
    }
    if (expected.length !== actual.length) {
      out.push({ path: where, expected: `${expected.length} items`, actual: `${actual.length} items`, reason: 'length differs' });
      return;
    }
    expected.forEach((e, i) => walk(e, actual[i], `${path}[${i}]`, out));
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      out.push({ path: where, expected, actual, reason: `expected an object, got ${typeName(actual)}` });
      return;
    }
    for (const [k, e] of Object.entries(expected)) {
      const a = Object.hasOwn(actual, k) ? (actual as Record<string, unknown>)[k] : ABSENT;
      walk(e, a, path === '' ? k : `${path}.${k}`, out);
    }
    return;
  }
  if (expected !== actual) out.push({ path: where, expected, actual, reason: 'differs' });
}

/** Human-readable diff: one line per mismatch, then the actual value (truncated). */
export function formatMismatches(what: string, mismatches: Mismatch[], actual: unknown, maxLines = 40): string {
  const lines = [`${what} does not match:`];
  for (const m of mismatches.slice(0, 10)) {
    lines.push(`  at ${m.path}: ${m.reason}`);
    lines.push(`    expected: ${short(m.expected)}`);
    lines.push(`    actual:   ${short(m.actual)}`);
  }
  if (mismatches.length > 10) lines.push(`  … and ${mismatches.length - 10} more`);
  lines.push(`  actual ${what}:`);
  lines.push(...indentJson(actual, maxLines));
  return lines.join('\n');
}

export function short(v: unknown): string {
  const s = typeof v === 'string' && /^\(.*\)$|^\/.*\/$/.test(v) ? v : JSON.stringify(v);
  if (s === undefined) return String(v);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

export function indentJson(v: unknown, maxLines = 40): string[] {
  const text = typeof v === 'string' ? v : (JSON.stringify(v, null, 2) ?? String(v));
  const lines = text.split('\n').map((l) => `    ${l}`);
  if (lines.length > maxLines) return [...lines.slice(0, maxLines), `    … (${lines.length - maxLines} more lines)`];
  return lines;
}
