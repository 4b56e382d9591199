/**
 * A team's own go-live checklist (docs/readiness.md "Your own requirements"): operations,
 * answers, events and states that must have been seen, smells that must be absent, and items of
 * the default checklist to keep. Applied to a report, it replaces the default checklist and
 * decides the verdict. The file's shape is checked against schemas/readiness.ts first
 * (src/readiness/requirements.ts); what only a report can tell (an operation obsim does not
 * have) is refused here, with the JSON pointer of the offending entry.
 */
import { DEFAULT_ITEMS, verdictOf, type ChecklistItem, type DefaultItemId } from './readiness-checklist.js';
import type { OperationCoverage } from './readiness-input.js';
import type { ReadinessReport } from './readiness.js';
import { SMELL_TEXT, type SmellCode } from './readiness-smells.js';

export type StatusRequirement = number | `${1 | 2 | 3 | 4 | 5}xx`;

export interface Requirements {
  name?: string;
  operations?: (string | { operation: string; statuses?: StatusRequirement[] })[];
  events?: string[];
  states?: { payments?: string[]; failureReasons?: string[]; merchants?: string[]; consents?: string[] };
  transitions?: { payments?: string[]; merchants?: string[]; consents?: string[] };
  /** `absent`: no smell at all; a list: none of these. */
  smells?: 'absent' | SmellCode[];
  checks?: DefaultItemId[];
}

export class RequirementsError extends Error {
  constructor(
    /** RFC 6901 pointer into the requirements. */
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

/** An operation named by its operationId or as `METHOD /path/template`. */
function findOperation(ops: readonly OperationCoverage[], name: string, pointer: string): OperationCoverage {
  const found = ops.find((o) => o.operationId === name || `${o.method} ${o.path}` === name);
  if (!found)
    throw new RequirementsError(pointer, `unknown operation "${name}": use an operationId of openapi.json or "METHOD /path/{template}"`);
  return found;
}

const matching = (o: OperationCoverage, want: StatusRequirement) =>
  Object.keys(o.statuses).filter((s) => (typeof want === 'number' ? s === String(want) : s[0] === want[0]));

/** The report with `requirements` as its checklist, and the verdict they give. */
export function applyRequirements(report: ReadinessReport, requirements: Requirements, source: string): ReadinessReport {
  const items: ChecklistItem[] = [];
  const add = (id: string, title: string, met: boolean, because: string, evidence: number[] = []) =>
    items.push({ id, title, status: met ? 'met' : 'unmet', because, evidence });

  (requirements.operations ?? []).forEach((entry, i) => {
    const { operation, statuses } = typeof entry === 'string' ? { operation: entry, statuses: undefined } : entry;
    const o = findOperation(report.operations, operation, typeof entry === 'string' ? `/operations/${i}` : `/operations/${i}/operation`);
    const label = `${o.operationId} (${o.method} ${o.path})`;
    if (statuses === undefined) {
      const ok = matching(o, '2xx');
      add(
        `operation:${o.operationId}`,
        `Calls ${label}`,
        ok.length > 0,
        ok.length > 0 ? `answered ${ok.join(', ')}` : o.called ? 'called, never answered 2xx' : 'never called',
        ok.flatMap((s) => o.evidenceByStatus[s] ?? []),
      );
      return;
    }
    for (const want of statuses) {
      const seen = matching(o, want);
      add(
        `operation:${o.operationId}:${want}`,
        `Meets ${want} on ${label}`,
        seen.length > 0,
        seen.length > 0 ? `answered ${seen.join(', ')}` : `never answered ${want}`,
        seen.flatMap((s) => o.evidenceByStatus[s] ?? []),
      );
    }
  });

  for (const event of requirements.events ?? []) {
    const seen = report.lifecycles.events.find((e) => e.event === event);
    const n = seen?.acknowledged ?? 0;
    add(
      `event:${event}`,
      `Handles ${event}`,
      n > 0,
      n > 0 ? `${n} acknowledged with 2xx` : `no ${event} delivery was acknowledged with 2xx`,
    );
  }

  for (const [lifecycle, wanted] of Object.entries(requirements.states ?? {}) as [keyof NonNullable<Requirements['states']>, string[]][]) {
    for (const state of wanted) {
      const n = report.lifecycles[lifecycle].reached[state] ?? 0;
      add(`state:${lifecycle}:${state}`, `Reaches ${lifecycle} ${state}`, n > 0, n > 0 ? `${n} reached it` : 'never reached');
    }
  }

  for (const [lifecycle, wanted] of Object.entries(requirements.transitions ?? {}) as [
    keyof NonNullable<Requirements['transitions']>,
    string[],
  ][]) {
    for (const name of wanted) {
      const n = report.lifecycles.transitions[lifecycle][name] ?? 0;
      add(`transition:${lifecycle}:${name}`, `Makes ${lifecycle} ${name}`, n > 0, n > 0 ? `${n} made it` : 'never made');
    }
  }

  if (requirements.smells === 'absent') {
    add(
      'no_smells',
      DEFAULT_ITEMS.no_smells,
      report.smells.length === 0,
      report.smells.length === 0 ? 'no smell found' : report.smells.map((s) => s.code).join(', '),
      report.smells.flatMap((s) => s.evidence).slice(0, 10),
    );
  } else {
    for (const code of requirements.smells ?? []) {
      const found = report.smells.find((s) => s.code === code);
      add(`smell:${code}`, `Never: ${SMELL_TEXT[code]}`, !found, found ? 'found' : 'not found', found?.evidence ?? []);
    }
  }

  for (const id of requirements.checks ?? []) {
    const item = report.checklist.find((i) => i.id === id);
    if (item) items.push(item);
  }

  return { ...report, checklistSource: source, checklist: items, verdict: verdictOf(items) };
}
