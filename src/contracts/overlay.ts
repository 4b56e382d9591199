/**
 * OpenAPI Overlay 1.0 (the OpenAPI Initiative's standard): an ordered list of actions, each a
 * JSONPath target (RFC 9535) with an `update` merged into every node it selects, or `remove`.
 *
 * Written here rather than taken from the registry: the reference implementation
 * (openapi-overlays-js 0.2.0) fails the standard's own examples. Its JSONPath library predates RFC
 * 9535 (the standard's filters `[?@.name=='filter']` do not parse, and a failed update is only
 * printed), an update of an array target turns the array into an object instead of appending the
 * entry, and `remove: false` removes (docs/contract-versions.md, test/contracts/overlay.test.ts).
 * The JSONPath part is jsonpath-rfc9535, which passes the RFC's compliance suite; only the merge
 * rules below are ours, each a sentence of the standard.
 */
import { exec, type JsonValue } from 'jsonpath-rfc9535';

export interface OverlayAction {
  target: string;
  description?: string;
  update?: unknown;
  remove?: boolean;
}

export interface OverlayDocument {
  overlay: string;
  info: { title: string; version: string };
  extends?: string;
  actions: OverlayAction[];
  [extension: `x-${string}`]: unknown;
}

/** A problem with one action: its index and what is wrong (the caller makes a pointer of it). */
export class OverlayError extends Error {
  constructor(
    readonly action: number,
    readonly property: 'target' | 'update' | 'remove',
    message: string,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * "The properties in the update object are recursively merged with the properties in the target
 * object with the same names; new properties are added to the target object." A property whose
 * value is not an object on both sides is replaced (the standard: primitives and whole arrays are
 * replaced by updating their containing object).
 */
function merge(target: Json, update: Json): void {
  for (const [key, value] of Object.entries(update)) {
    const current = target[key];
    if (isObject(current) && isObject(value)) merge(current, value);
    else target[key] = structuredClone(value);
  }
}

interface Selected {
  value: unknown;
  /** The normalized path: keys and indexes from the root. */
  path: (string | number)[];
}

function select(document: unknown, target: string, index: number): Selected[] {
  const found: Selected[] = [];
  try {
    exec(document as JsonValue, target, (value, path) => found.push({ value, path: [...path] }));
  } catch (err) {
    throw new OverlayError(index, 'target', `is not a JSONPath expression (RFC 9535): ${(err as Error).message}`);
  }
  return found;
}

function parentOf(document: unknown, path: readonly (string | number)[]): unknown {
  let node = document;
  for (const key of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[key];
  return node;
}

/**
 * Apply `overlay`'s actions in order to a copy of `document`. A target that selects nothing is an
 * error here (the standard allows it; a version whose action changes nothing is a mistake its
 * author wants to hear about).
 */
export function applyOverlay<T>(document: T, overlay: Pick<OverlayDocument, 'actions'>): T {
  const result = structuredClone(document);
  overlay.actions.forEach((action, index) => {
    const selected = select(result, action.target, index);
    if (selected.length === 0) throw new OverlayError(index, 'target', `${action.target} selects nothing in the document`);
    if (action.remove === true) {
      // from the last to the first, so that removing an item does not move the indexes still to remove
      for (const { path } of [...selected].reverse()) {
        if (path.length === 0) throw new OverlayError(index, 'remove', 'the root of the document cannot be removed');
        const parent = parentOf(result, path);
        const key = path[path.length - 1];
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else delete (parent as Json)[key];
      }
      return;
    }
    if (action.update === undefined) return;
    for (const { value } of selected) {
      // "If the target selects an array, the value of this field MUST be an entry to append to the array."
      if (Array.isArray(value)) value.push(structuredClone(action.update));
      else if (isObject(value)) {
        if (!isObject(action.update)) throw new OverlayError(index, 'update', 'must be an object: the target selects an object');
        merge(value, action.update);
      } else throw new OverlayError(index, 'target', 'selects a primitive value: select the object that contains it');
    }
  });
  return result;
}
