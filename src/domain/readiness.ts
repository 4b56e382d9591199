/**
 * The go-live readiness report (docs/readiness.md): from what a sandbox saw — its journal, its
 * webhook deliveries, the states its rows reached, its check-receiver runs — which of the
 * provider's operations the partner called and with which answers, which lifecycle states and
 * events it met, what it did wrong (smells, ./readiness-smells.ts, each with the journal entries
 * that prove it) and a go-live checklist with a verdict (./readiness-checklist.ts). Pure: the
 * caller reads the journal and the store (src/readiness/collect.ts).
 */
import { CONSENT_STATUSES } from './consent.js';
import { pathPattern } from './journal.js';
import { EVENT_NAMES } from './machine.js';
import { MERCHANT_STATUSES } from './merchant.js';
import { FAILURE_REASONS, PAYMENT_STATUSES } from './payment.js';
import { defaultChecklist, verdictOf, type ChecklistItem } from './readiness-checklist.js';
import { findSmells, type Smell } from './readiness-smells.js';
import type { EventSeen, OperationCoverage, ProviderOperation, ReadinessInput, ReportEntry, StatesSeen } from './readiness-input.js';

export interface DeprecatedCall {
  operationId: string;
  method: string;
  path: string;
  contractVersion: string;
  calls: number;
  /** The journal id of the first such call. */
  firstEntry: number;
}

export interface ReadinessReport {
  verdict: 'met' | 'unmet';
  /** Where the checklist comes from: obsim's default, or a requirements file's name. */
  checklistSource: string;
  /** `faults`: entries the sandbox's fault profile injected a fault into (docs/chaos.md). */
  journal: { entries: number; truncated: boolean; faults?: number };
  operations: OperationCoverage[];
  /** Calls to operations their contract version deprecates (docs/contract-versions.md); absent: none. */
  deprecatedCalls?: DeprecatedCall[];
  lifecycles: {
    payments: StatesSeen;
    failureReasons: StatesSeen;
    merchants: StatesSeen;
    consents: StatesSeen;
    /** Transitions made, by name (`pending -> failed (expired)`), per resource kind. */
    transitions: { payments: Record<string, number>; merchants: Record<string, number>; consents: Record<string, number> };
    /** What the integration met at banks with a profile: payments and consents each rule was behind (docs/banks.md). */
    bankRules: Record<string, number>;
    events: EventSeen[];
    /** Events the contract lists that no delivery carried. */
    neverProduced: string[];
  };
  smells: Smell[];
  checklist: ChecklistItem[];
}

/** Every answer a partner should have met on each operation before go-live (besides success). */
const COMMON_STATUSES = ['400', '401', '429', '503'];
const STATUSES_TO_SEE: Record<string, string[]> = {
  createPayment: ['200', ...COMMON_STATUSES, '404', '409'],
  getPaymentStatus: ['200', '401', '404', '429', '503'],
  getMerchantOnboardingStatus: ['200', '401', '404', '429', '503'],
  resendMerchantOnboarding: ['200', '401', '404', '409', '429', '503'],
  createMerchantStore: ['200', ...COMMON_STATUSES, '404', '409'],
  generateToken: ['200', '400', '500'],
};
const AIS_STATUSES = ['200', '400', '401', '403', '429', '503'];
export const statusesToSee = (o: ProviderOperation): string[] =>
  STATUSES_TO_SEE[o.operationId] ?? (o.path.startsWith('/v1/ais/') ? AIS_STATUSES : ['200', ...COMMON_STATUSES]);

/** The operation each entry called (undefined: none of the provider's), in one pass: each route is matched once. */
export function operationsOf(operations: readonly ProviderOperation[], entries: readonly ReportEntry[]): (ProviderOperation | undefined)[] {
  const patterns = operations.map((o) => ({ o, re: pathPattern(o.path) }));
  const byMethod = new Map<string, Map<string, ProviderOperation | null>>();
  return entries.map((e) => {
    let byPath = byMethod.get(e.method);
    if (!byPath) byMethod.set(e.method, (byPath = new Map()));
    let o = byPath.get(e.path);
    if (o === undefined) {
      o = patterns.find((p) => p.o.method === e.method && p.re.test(e.path))?.o ?? null;
      byPath.set(e.path, o);
    }
    return o ?? undefined;
  });
}

function coverage(input: ReadinessInput, ops: readonly (ProviderOperation | undefined)[]): OperationCoverage[] {
  const calls = new Map<ProviderOperation, ReportEntry[]>();
  input.entries.forEach((e, i) => {
    const o = ops[i];
    if (!o) return;
    const list = calls.get(o);
    if (list) list.push(e);
    else calls.set(o, [e]);
  });
  return input.operations.map((o) => {
    const seen = calls.get(o) ?? [];
    const statuses: Record<string, number> = {};
    const evidenceByStatus: Record<string, number[]> = {};
    const injected: Record<string, number> = {};
    for (let i = seen.length - 1; i >= 0; i--) {
      const { fault } = seen[i];
      const status = String(seen[i].status);
      if (fault === 'latency') injected.latency = (injected.latency ?? 0) + 1;
      else if (fault !== undefined) {
        // an injected error or drop is not the partner's doing: counted apart
        const key = fault === 'drop' ? 'dropped' : status;
        injected[key] = (injected[key] ?? 0) + 1;
        continue;
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      const ids = (evidenceByStatus[status] ??= []);
      if (ids.length < 5) ids.push(seen[i].id);
    }
    return {
      operationId: o.operationId,
      method: o.method,
      path: o.path,
      called: seen.length > 0,
      calls: seen.length,
      statuses,
      // an answer met because a fault was injected was still met
      unseen: statusesToSee(o).filter((s) => statuses[s] === undefined && injected[s] === undefined),
      evidence: seen
        .slice(-5)
        .reverse()
        .map((e) => e.id),
      evidenceByStatus,
      ...(Object.keys(injected).length > 0 ? { injected } : {}),
    };
  });
}

const states = (reached: Record<string, number>, all: readonly string[]): StatesSeen => ({
  reached,
  unreached: all.filter((s) => !reached[s]),
});

function eventCounts(input: ReadinessInput): EventSeen[] {
  const names = [
    ...EVENT_NAMES,
    ...new Set(input.deliveries.map((d) => d.event).filter((e) => !(EVENT_NAMES as readonly string[]).includes(e))),
  ];
  return names.map((event) => {
    const ds = input.deliveries.filter((d) => d.event === event);
    return {
      event,
      acknowledged: ds.filter((d) => d.state === 'delivered').length,
      failed: ds.filter((d) => d.state === 'failed').length,
    };
  });
}

/** Calls to operations deprecated in the contract version that served them: each with its count and first entry. */
function deprecatedCalls(input: ReadinessInput, ops: readonly (ProviderOperation | undefined)[]): DeprecatedCall[] {
  const found = new Map<string, DeprecatedCall>();
  input.entries.forEach((e, i) => {
    const o = ops[i];
    if (!o || e.contractVersion === undefined || !o.deprecatedIn?.includes(e.contractVersion)) return;
    const key = `${e.contractVersion} ${o.operationId}`;
    const seen = found.get(key);
    if (seen) seen.calls++;
    else
      found.set(key, {
        operationId: o.operationId,
        method: o.method,
        path: o.path,
        contractVersion: e.contractVersion,
        calls: 1,
        firstEntry: e.id,
      });
  });
  return [...found.values()];
}

/** The report of what a sandbox saw, with obsim's default checklist. */
export function readinessReport(input: ReadinessInput): ReadinessReport {
  const called = operationsOf(input.operations, input.entries);
  const operations = coverage(input, called);
  const smells = findSmells(input, called);
  const events = eventCounts(input);
  const lifecycles = {
    payments: states(input.payments, PAYMENT_STATUSES),
    failureReasons: states(input.failureReasons, FAILURE_REASONS),
    merchants: states(input.merchants, MERCHANT_STATUSES),
    consents: states(input.consents, CONSENT_STATUSES),
    transitions: input.transitions ?? { payments: {}, merchants: {}, consents: {} },
    bankRules: input.bankRules ?? {},
    events,
    neverProduced: events.filter((e) => e.acknowledged + e.failed === 0).map((e) => e.event),
  };
  const checklist = defaultChecklist(input, operations, events, smells);
  const deprecated = deprecatedCalls(input, called);
  return {
    verdict: verdictOf(checklist),
    checklistSource: 'default',
    journal: {
      entries: input.entries.length,
      truncated: input.journalTruncated ?? false,
      faults: input.entries.filter((e) => e.fault).length,
    },
    operations,
    ...(deprecated.length > 0 ? { deprecatedCalls: deprecated } : {}),
    lifecycles,
    smells,
    checklist,
  };
}

/** A report as GET /_sandbox/report answers it. */
export type SandboxReadiness = ReadinessReport & { sandboxId: string; generatedAt: string };
