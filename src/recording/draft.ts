/**
 * GET /_sandbox/scenario-draft behind the scenes: a sandbox's journal in a range and the
 * deliveries made from its start, handed to the domain's rules (domain/scenario-draft.ts), and
 * the draft written as a YAML scenario file with its comments.
 */
import { ApiError, invalidInput } from '../domain/errors.js';
import { lazyRequire } from '../lazy.js';
import { draftScenario, type DraftEntry, type ScenarioDraft } from '../domain/scenario-draft.js';
import type { Journal, JournalFilter } from '../journal/index.js';
import type { Store } from '../store/index.js';

/** Deliveries read for one recording at most (a journal's default cap is 10,000 entries). */
const MAX_DELIVERIES = 20_000;
const ALL_ENTRIES = 1_000_000;

export interface DraftQuery {
  /** A journal entry id or an entry's request id (inclusive), or an ISO instant on the sandbox clock. */
  since?: string;
  until?: string;
  name?: string;
}

type Bound = { id: number } | { at: string };

/** A bound as given: an entry id, an instant on the sandbox clock, or an entry's request id (`x-request-id`). */
function bound(
  raw: string | undefined,
  field: 'since' | 'until',
  entryWithRequestId: (requestId: string) => number | undefined,
): Bound | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (/^\d{1,15}$/.test(raw)) return { id: Number(raw) };
  if (/^\d{4}-\d{2}-\d{2}T/.test(raw) && !Number.isNaN(Date.parse(raw))) return { at: new Date(raw).toISOString() };
  if (/^[A-Za-z0-9._:-]{1,128}$/.test(raw)) {
    const id = entryWithRequestId(raw);
    if (id !== undefined) return { id };
    throw invalidInput(`/${field}`, `${field}: no journal entry of this sandbox has the request id "${raw}"`, 'query');
  }
  throw new ApiError('validation_failed', {
    field: `/${field}`,
    in: 'query',
    message: `${field} must be a journal entry id (an integer, as in GET /_sandbox/requests), an entry's request id (its x-request-id) or an ISO 8601 instant on the sandbox clock; got "${raw}"`,
  });
}

const describe = (b: Bound | undefined) => (b === undefined ? undefined : 'id' in b ? `entry #${b.id}` : b.at);

export interface RecordedDraft extends ScenarioDraft {
  yaml: string;
  entries: number;
  deliveries: number;
}

export function recordDraft(deps: { journal: Journal; store: Store }, partnerId: string, sandboxId: string, q: DraftQuery): RecordedDraft {
  const { journal, store } = deps;
  journal.flush();
  const entryWithRequestId = (requestId: string) => journal.list(partnerId, {}, ALL_ENTRIES).find((e) => e.requestId === requestId)?.id;
  const since = bound(q.since, 'since', entryWithRequestId);
  const until = bound(q.until, 'until', entryWithRequestId);
  if (since && until && 'id' in since && 'id' in until && since.id > until.id) {
    throw invalidInput('/until', `until (#${until.id}) is before since (#${since.id})`, 'query');
  }
  if (since && until && 'at' in since && 'at' in until && since.at > until.at) {
    throw invalidInput('/until', `until (${until.at}) is before since (${since.at})`, 'query');
  }
  const filter: JournalFilter = {};
  if (since) Object.assign(filter, 'id' in since ? { afterId: since.id - 1 } : { since: since.at });
  if (until) Object.assign(filter, 'id' in until ? { beforeId: until.id + 1 } : { until: until.at });
  const listed = journal.list(partnerId, filter, ALL_ENTRIES).reverse();
  const position = journal.position(partnerId);
  const kept = journal.stats(partnerId).count;
  const range = [describe(since) && `since ${describe(since)}`, describe(until) && `until ${describe(until)}`].filter(Boolean).join(' ');

  let emptyBecause: string | undefined;
  if (kept === 0) {
    emptyBecause = `Nothing to record: the journal of ${sandboxId} is empty (nothing has been sent to the sandbox yet, or its journal was cleared).`;
  } else if (listed.length === 0) {
    const newest = journal.list(partnerId, {}, 1)[0];
    emptyBecause = `Nothing to record: no journal entry of ${sandboxId} is in the range ${range} (it keeps entries #${position.oldestKept}–#${newest?.id ?? '?'}).`;
  }
  // the cap dropped entries, and the range reaches back past the oldest one kept
  const reachesPastOldest = since === undefined || ('id' in since ? since.id < position.oldestKept : listed[0]?.id === position.oldestKept);
  const truncated = position.truncated && reachesPastOldest;

  const entries: DraftEntry[] = listed.map((e) => ({
    id: e.id,
    at: e.at,
    method: e.method,
    path: e.path,
    query: e.query,
    headers: e.headers,
    requestBody: e.requestBody,
    requestBodyTruncated: e.requestBodyTruncated,
    status: e.status,
    durationMs: e.durationMs,
    responseBody: e.responseBody,
    responseBodyTruncated: e.responseBodyTruncated,
    code: e.code,
    fault: e.fault,
  }));
  const first = entries[0];
  const last = entries[entries.length - 1];
  const deliveries = first
    ? store.deliveries
        .sinceInstant(partnerId, first.at, MAX_DELIVERIES)
        .filter((d) => until === undefined || d.created_at <= last.at)
        .map((d) => ({
          id: d.id,
          event: d.event,
          webhookId: d.webhook_id,
          body: d.body,
          createdAt: d.created_at,
          redeliveryOf: d.redelivery_of,
        }))
    : [];
  const origin = first
    ? `sandbox ${sandboxId}, journal entries #${first.id}–#${last.id} (${first.at} → ${last.at} on its clock)`
    : `sandbox ${sandboxId}${range ? ` (${range})` : ''}`;
  const draft = draftScenario({
    name: q.name ?? `recorded-${sandboxId.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`,
    origin,
    entries,
    deliveries,
    truncated,
    emptyBecause,
  });
  return { ...draft, yaml: draftYaml(draft), entries: entries.length, deliveries: deliveries.length };
}

/**
 * Written with the same YAML library that reads scenarios (loaded with the first recording, not at
 * start-up: src/lazy.ts). `compat: 'yaml-1.1'` quotes what a YAML 1.1 reader would take for
 * something else (`yes`, `on`, dates), so other tools read the file as obsim does; no line
 * folding, and no anchors for repeated values.
 */
const yaml = lazyRequire<typeof import('yaml')>('yaml');
const STRINGIFY: import('yaml').DocumentOptions &
  import('yaml').SchemaOptions &
  import('yaml').CreateNodeOptions &
  import('yaml').ToStringOptions = {
  lineWidth: 0,
  aliasDuplicateObjects: false,
  compat: 'yaml-1.1',
};

/** The draft as a scenario file: the notes atop it, each step's comment above the step. */
export function draftYaml(draft: ScenarioDraft): string {
  const notes = draft.notes.map((n) => `# ${n}`).join('\n');
  if (!draft.scenario) return `${notes}\n`;
  const { steps, ...head } = draft.scenario;
  // one dump of every step (a call per step costs a third more), each comment put before its
  // step: under `steps:` every step starts a line with "  - ", and nothing else does (all else is
  // indented deeper, block scalars included)
  let step = 0;
  const body = yaml()
    .stringify({ steps }, STRINGIFY)
    .replace(/^ {2}- /gm, (start) => {
      const comment = draft.stepComments[step++];
      return comment ? `  # ${comment}\n${start}` : start;
    });
  return `${notes}\n\n${yaml().stringify(head, STRINGIFY)}${body}`;
}
