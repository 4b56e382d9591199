/**
 * The fuzzer's mutations (test/helpers/fuzz.ts): every path into a valid body, and what can be
 * done at each (wrong type, removed, nasty value, extra or prototype keys), as a raw JSON text.
 */
import fc from 'fast-check';
import {
  deepObject,
  deref,
  type FuzzContext,
  HUGE_ARRAY,
  HUGE_STRING,
  INVALID_DATES,
  NASTY_NUMBERS,
  NASTY_STRINGS,
  RAW_NUMBERS,
  type Schema,
  typesOf,
  validArb,
  wrongTypeValues,
} from './fuzz-values.js';

// ------------------------------------------------------------------------------- mutations

interface Path {
  keys: (string | number)[];
  schema: Schema;
  /** The key is required by its parent (and has no default). */
  required: boolean;
}

/** Every position inside a generated value, with its schema. */
function pathsOf(value: unknown, schema: Schema | undefined, keys: (string | number)[] = [], out: Path[] = [], required = true): Path[] {
  const s = deref(schema);
  out.push({ keys, schema: s, required });
  if (keys.length > 4) return out;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const req = new Set<string>(s.required ?? []);
    for (const [k, v] of Object.entries(value)) {
      const sub = s.properties?.[k];
      pathsOf(v, sub, [...keys, k], out, req.has(k) && deref(sub).default === undefined);
    }
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => pathsOf(v, s.items, [...keys, i], out, false));
  }
  return out;
}

function getAt(root: unknown, keys: (string | number)[]): unknown {
  let cur = root as any;
  for (const k of keys) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = cur[k];
  }
  return cur;
}

function objectPaths(paths: Path[]): Path[] {
  const objects = paths.filter((p) => typesOf(p.schema).includes('object'));
  return objects.length ? objects : paths.slice(0, 1);
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

function setAt(root: unknown, keys: (string | number)[], value: unknown, remove = false): unknown {
  if (keys.length === 0) return value;
  const copy = clone(root) as any;
  let cur = copy;
  for (const k of keys.slice(0, -1)) {
    if (cur === null || typeof cur !== 'object') return copy;
    cur = cur[k];
  }
  if (cur === null || typeof cur !== 'object') return copy;
  const last = keys[keys.length - 1];
  if (remove) {
    if (Array.isArray(cur)) cur.splice(last as number, 1);
    else delete cur[last];
  } else {
    // own property even for "__proto__"
    Object.defineProperty(cur, last, { value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

const RAW = '\u0000RAW:';

interface Mutation {
  value: unknown;
  invalid: boolean;
  label: string;
}

function mutationsAt(path: Path): fc.Arbitrary<Mutation> {
  const s = path.schema;
  const types = typesOf(s);
  const where = path.keys.join('.') || '(body)';
  const options: fc.Arbitrary<Mutation>[] = [];
  const wrong = wrongTypeValues(types).filter(() => !(s.enum && s.enum.includes(null)));
  if (wrong.length) options.push(fc.constantFrom(...wrong).map((value) => ({ value, invalid: true, label: `wrong type at ${where}` })));
  if (Array.isArray(s.enum) && types.includes('string')) {
    options.push(
      fc
        .constantFrom('NOT_IN_ENUM', String(s.enum[0]).toUpperCase() + ' ')
        .map((value) => ({ value, invalid: !s.enum.includes(value), label: `not in enum at ${where}` })),
    );
  }
  options.push(fc.constantFrom(...NASTY_STRINGS).map((value) => ({ value, invalid: false, label: `nasty string at ${where}` })));
  options.push(
    fc.constantFrom(...NASTY_NUMBERS).map((value) => ({ value, invalid: false, label: `nasty number ${String(value)} at ${where}` })),
  );
  options.push(
    fc
      .constantFrom(...RAW_NUMBERS)
      .map((raw) => ({ value: RAW + raw, invalid: !types.includes('string'), label: `raw number ${raw} at ${where}` })),
  );
  options.push(
    fc
      .constantFrom(...INVALID_DATES)
      .map((value) => ({ value, invalid: false, label: `invalid date ${JSON.stringify(value)} at ${where}` })),
  );
  options.push(fc.constant({ value: HUGE_STRING, invalid: false, label: `200k string at ${where}` }));
  options.push(fc.constant({ value: HUGE_ARRAY, invalid: !types.includes('array') && types.length > 0, label: `20k array at ${where}` }));
  options.push(
    fc.constant({ value: deepObject(2000), invalid: !types.includes('object') && types.length > 0, label: `2000-deep object at ${where}` }),
  );
  options.push(
    fc.string({ unit: 'binary', maxLength: 30 }).map((value) => ({ value, invalid: false, label: `random unicode at ${where}` })),
  );
  return fc.oneof(...options);
}

/** A body: valid, or valid then mutated once or twice. Returns the JSON text. */
export function bodyArb(schema: Schema | undefined, ctx: FuzzContext): fc.Arbitrary<{ text: string; invalid: boolean; label: string }> {
  const valid = validArb(schema, ctx);
  const asText = (v: unknown) => JSON.stringify(v).replace(new RegExp(`"${RAW.replace('\u0000', '\\\\u0000')}([^"]*)"`, 'g'), '$1');
  const mutated = valid.chain((v) => {
    const paths = pathsOf(v, schema);
    const droppable = paths.filter((p) => p.keys.length > 0 && p.required);
    const choices: fc.Arbitrary<Mutation & { keys: (string | number)[]; remove?: boolean }>[] = [
      fc.constantFrom(...paths).chain((p) => mutationsAt(p).map((m) => ({ ...m, keys: p.keys }))),
      // extra properties, including prototype-pollution keys (own properties, so they are sent)
      fc
        .tuple(fc.constantFrom(...objectPaths(paths)), fc.constantFrom('__proto__', 'constructor', 'prototype', 'unknownField', ''))
        .map(([p, key]) => ({
          keys: [...p.keys, key],
          value: key === 'constructor' ? { prototype: { polluted: true } } : { polluted: true },
          invalid: false,
          label: `extra key ${JSON.stringify(key)} at ${p.keys.join('.') || '(body)'}`,
        })),
    ];
    // boundary values that still match the field's pattern: every digit run inflated
    // ("5s" -> "999999999999s", "2026-01-15" -> "999999999999-…"): found the clock-advance 500
    const withDigits = paths.filter((p) => typeof getAt(v, p.keys) === 'string' && /\d/.test(getAt(v, p.keys) as string));
    if (withDigits.length) {
      choices.push(
        fc
          .tuple(fc.constantFrom(...withDigits), fc.constantFrom('999999999999', '0', '00000000000000000001', '9007199254740993'))
          .map(([p, digits]) => ({
            keys: p.keys,
            value: (getAt(v, p.keys) as string).replace(/\d+/g, digits),
            invalid: false,
            label: `digits -> ${digits} at ${p.keys.join('.')}`,
          })),
      );
    }
    if (droppable.length) {
      choices.push(
        fc
          .constantFrom(...droppable)
          .map((p) => ({ keys: p.keys, value: undefined, remove: true, invalid: true, label: `missing required ${p.keys.join('.')}` })),
      );
    }
    return fc.oneof(...choices).map((m) => {
      // dropping a required array item or an element of an array is not certainly invalid
      const invalid = m.invalid && !(m.remove && typeof m.keys[m.keys.length - 1] === 'number');
      return { text: asText(setAt(v, m.keys, m.value, m.remove)), invalid, label: m.label };
    });
  });
  return fc.oneof(
    { weight: 2, arbitrary: valid.map((v) => ({ text: asText(v), invalid: false, label: 'valid body' })) },
    { weight: 3, arbitrary: mutated },
  );
}
