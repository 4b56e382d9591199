/**
 * A HAR becomes a scenario (docs/partner-tools.md, "A HAR becomes a scenario"): the file read and
 * validated (./har.ts), each entry classified (./classify.ts), the story told as draft entries
 * (./story.ts), and the scenario drafted by the same rules as a recording of obsim's own journal
 * (src/domain/scenario-draft.ts), written as YAML with a summary atop it.
 *
 * Pure work on a text: the CLI runs it in its own process, the server in a worker thread
 * (./worker.ts), never on the thread that answers requests.
 */
import { operations, type Doc, type Operations } from '../contracts/ids.js';
import { BASE_VERSION } from '../domain/contract-switches.js';
import { draftScenario } from '../domain/scenario-draft.js';
import type { LifecycleSettings } from '../domain/settings.js';
import { draftYaml } from '../recording/draft.js';
import { classify, type Classified } from './classify.js';
import { HarImportError, parseHar, readEntry, type ReadEntry } from './har.js';
import { tellStory } from './story.js';

export interface ImportOptions {
  /** The scenario's name (lower case, digits, dashes). */
  name?: string;
  /** Where the HAR came from, for the file's first comment (a file name). */
  origin?: string;
  /** obsim's delays the replay's clock must cover (the sandbox's, or the defaults). */
  settings: LifecycleSettings;
  /**
   * The contract versions the obsim that replays serves, each with its provider document as the
   * registry serves it (the server's; the CLI has none). A HAR under one of them is read by its
   * document; under another, it is flagged.
   */
  versions?: Readonly<Record<string, Doc>>;
}

export interface ImportSummary {
  entries: number;
  /** Entries taken into the story: requests to the provider's API (and obsim's controls), and hosted-page visits. */
  taken: number;
  steps: number;
  leftOut: { reason: string; count: number }[];
  skipped: string[];
  variables: string[];
  notExpected: { reason: string; keys: string[] }[];
  flagged: string[];
  literals: string[];
  inferred: string[];
  unseen: string[];
  contractVersion?: string;
}

export interface ImportResult {
  yaml: string;
  summary: ImportSummary;
  /** The summary in words, a line each (printed by the CLI, written atop the file). */
  lines: string[];
}

/** The operations of each document an import was read by (the base's under ''), made once. */
const opsByVersion = new Map<string, Operations>();

/** The documents the import reads `version`'s HAR by, and why not that version's own when it cannot. */
function operationsFor(version: string | undefined, options: ImportOptions): { ops: Operations; problem?: string } {
  const doc = version === undefined || version === BASE_VERSION ? undefined : options.versions?.[version];
  const key = doc === undefined ? '' : version!;
  let ops = opsByVersion.get(key);
  if (!ops) opsByVersion.set(key, (ops = operations(doc)));
  if (version === undefined || version === BASE_VERSION || doc !== undefined) return { ops };
  const served = options.versions ? [BASE_VERSION, ...Object.keys(options.versions)].join(', ') : undefined;
  return {
    ops,
    problem: served
      ? `the HAR names contract version ${version}, which this obsim does not serve (${served}): read by the base document, and the scenario replays only where ${version} is loaded (--contracts)`
      : `the HAR names contract version ${version}: read by the base document (this import has no contract versions), and the scenario replays only where ${version} is loaded (--contracts)`,
  };
}

function readEntries(raw: ReturnType<typeof parseHar>): ReadEntry[] {
  return raw.log.entries.map((e, i) => {
    try {
      return readEntry(e, i);
    } catch (err) {
      if (err instanceof HarImportError) throw err;
      // new URL() refused it (the schema's "uri" format admits a relative one)
      throw new HarImportError(`/log/entries/${i}/request/url`, `entry #${i}: ${(err as Error).message}`, 'invalid');
    }
  });
}

const requestOf = (c: Classified) => `entry #${c.entry.index} ${c.entry.method} ${c.entry.url.host}${c.entry.url.pathname}`;

/** Each step's captured variable names, in order. */
function variablesOf(steps: Record<string, unknown>[]): string[] {
  const out: string[] = [];
  for (const step of steps) {
    const inner = Object.values(step)[0] as { capture?: Record<string, string> } | undefined;
    if (inner && typeof inner === 'object' && inner.capture) out.push(...Object.keys(inner.capture));
  }
  return out;
}

export function importHar(raw: string | Uint8Array, options: ImportOptions): ImportResult {
  const har = parseHar(raw);
  // in the order they were sent (a HAR lists entries as its writer finished them); `#N` stays the HAR's own place
  const entries = readEntries(har).sort((a, b) => a.startedMs - b.startedMs);
  const named = [...new Set(entries.flatMap((e) => (e.contractVersion !== undefined ? [e.contractVersion] : [])))];
  const contractVersion = named[0];
  const { ops, problem } = operationsFor(contractVersion, options);
  const versionFlags = [
    ...(problem ? [problem] : []),
    ...(named.length > 1 ? [`the HAR names several contract versions (${named.join(', ')}): the scenario replays under the first`] : []),
  ];
  const classified = classify(entries, ops);
  const api = classified.filter((c) => c.kind === 'api');
  const leftOut = new Map<string, number>();
  for (const c of classified) if (c.kind === 'left') leftOut.set(c.reason, (leftOut.get(c.reason) ?? 0) + 1);
  const skipped = classified.flatMap((c) => (c.kind === 'aborted' ? [`${requestOf(c)}: ${c.reason}`] : []));
  if (api.length === 0) {
    const what = [...leftOut].map(([reason, n]) => `${reason} (${n})`).join('; ');
    throw new HarImportError(
      '/log/entries',
      `no entry of this HAR is a request to the provider's API (${entries.length} entries${what ? `: ${what}` : ''}${skipped.length ? `; ${skipped.length} without an answer` : ''}); no scenario written`,
      'empty',
    );
  }
  const story = tellStory(classified, options.settings);
  const creator = `${har.log.creator.name}${har.log.creator.version ? ` ${har.log.creator.version}` : ''}`;
  const origin = `${options.origin ?? 'a HAR file'} (HAR 1.2 written by ${creator}, ${entries.length} entries)`;
  const draft = draftScenario({
    name: options.name ?? 'imported-har',
    origin,
    entries: story.entries,
    deliveries: [],
    truncated: false,
    explainDropped: true,
  });
  const steps = draft.scenario?.steps ?? [];
  const summary: ImportSummary = {
    entries: entries.length,
    taken: classified.filter((c) => c.kind === 'api' || c.kind === 'page').length,
    steps: steps.length,
    leftOut: [...leftOut].map(([reason, count]) => ({ reason, count })),
    skipped,
    variables: variablesOf(steps),
    notExpected: [...(draft.dropped ?? [])].map(([reason, keys]) => ({ reason, keys: [...keys].sort() })),
    flagged: [...versionFlags, ...api.flatMap((c) => (c.kind === 'api' && c.flag ? [`${requestOf(c)}: ${c.flag}`] : [])), ...story.flagged],
    literals: story.literals,
    inferred: story.inferred,
    unseen: story.unseen,
    ...(contractVersion !== undefined ? { contractVersion } : {}),
  };
  const lines = summaryLines(summary);
  if (draft.scenario) {
    const { steps: s, ...head } = draft.scenario;
    draft.scenario = {
      ...head,
      description: `Imported from ${origin}.`,
      tags: ['imported', 'har'],
      ...(contractVersion ? { contractVersion } : {}),
      steps: s,
    };
  }
  draft.notes = [`Imported by obsim from ${origin}.`, ...lines];
  return { yaml: draftYaml(draft), summary, lines };
}

/** The summary in words: what was taken, left out and why, made, and not expected and why. */
export function summaryLines(s: ImportSummary): string[] {
  const out = [`${s.entries} entries: ${s.taken} taken as ${s.steps} steps.`];
  const left = s.leftOut.reduce((n, l) => n + l.count, 0);
  if (left > 0) out.push(`Left out: ${left} (${s.leftOut.map((l) => `${l.reason}: ${l.count}`).join('; ')}).`);
  for (const x of s.skipped) out.push(`Skipped, no answer to replay: ${x}.`);
  for (const x of s.flagged) out.push(`Flagged: ${x}.`);
  out.push(s.variables.length > 0 ? `Variables captured: ${s.variables.join(', ')}.` : 'Variables captured: none.');
  for (const x of s.literals) out.push(`Kept as written (no earlier answer handed it out): ${x}.`);
  for (const x of s.inferred) out.push(`Inferred: ${x}.`);
  for (const x of s.unseen) out.push(`No step for ${x}.`);
  for (const n of s.notExpected) out.push(`Not expected: ${n.keys.join(', ')} (${n.reason}).`);
  if (s.contractVersion !== undefined) out.push(`contractVersion: ${s.contractVersion} (from the Obsim-Contract-Version header).`);
  return out;
}
