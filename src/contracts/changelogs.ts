/**
 * The changelogs between the versions one process serves, each worked out once (the documents
 * and switches do not change after start), and the operation templates of every document (what
 * the impact report matches the journal's paths against).
 */
import type { ContractChange } from '../domain/contract-changes.js';
import { BASE_VERSION } from '../domain/contract-switches.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import { changelog, type VersionSide } from './changelog.js';
import type { ContractRegistry } from './registry.js';
import { operationsOf } from './walk.js';

export interface Changelogs {
  /** The changes from `from` to `to`; undefined when either is not a version this process serves. */
  between(from: string, to: string): readonly ContractChange[] | undefined;
  /** Every operation of the base and the versions: method and path template. */
  templates(): readonly { method: string; path: string }[];
}

/** `base`: the provider's document the versions were built over (read on first need). */
export function createChangelogs(registry: ContractRegistry, base: () => OpenApiDocument): Changelogs {
  const memo = new Map<string, readonly ContractChange[]>();
  let baseSide: VersionSide | undefined;
  const side = (name: string): VersionSide | undefined =>
    name === BASE_VERSION ? (baseSide ??= { name, document: base(), switches: {} }) : registry.find(name);
  let templates: { method: string; path: string }[] | undefined;
  return {
    between(from, to) {
      const key = `${from}\u0000${to}`;
      let changes = memo.get(key);
      if (changes === undefined) {
        const a = side(from);
        const b = side(to);
        if (!a || !b) return undefined;
        memo.set(key, (changes = from === to ? [] : changelog(a, b)));
      }
      return changes;
    },
    templates() {
      if (!templates) {
        const seen = new Map<string, { method: string; path: string }>();
        for (const name of registry.names())
          for (const op of operationsOf(side(name)!.document)) seen.set(`${op.method} ${op.path}`, { method: op.method, path: op.path });
        templates = [...seen.values()];
      }
      return templates;
    },
  };
}
