/**
 * Fault profiles as a user writes them (docs/chaos.md) and as they are put in force: the shipped
 * named profiles, and the checks a JSON Schema cannot make (a known operation or event, a window
 * that ends after it starts, a uniform range the right way round). Every problem names its place
 * as an RFC 6901 JSON pointer into the request body, so a client can show it beside the field.
 */
import { isApiRule, newSeed, type FaultProfile, type FaultRule, type FaultWindow } from './chaos.js';
import { invalidInput as invalid, readablePointer, type JsonPointer } from './errors.js';
import { TEST_EVENT } from './events.js';
import { EVENT_NAMES } from './machine.js';

/** The events a webhook rule may name: the contract's, and the test delivery's. */
const RULE_EVENTS: readonly string[] = [...EVENT_NAMES, TEST_EVENT];

/** A profile as sent: a shipped one by name, rules of its own, or both (the named rules first). */
export interface FaultProfileInput {
  profile?: string;
  seed?: number;
  rules?: FaultRule[];
}

const OUTAGE_MS = 5 * 60_000;

/**
 * The shipped profiles, each made when put in force (a window starts at the sandbox's now).
 * Their rules are listed by GET /_sandbox/faults once in force, and documented in docs/chaos.md.
 */
export const SHIPPED_PROFILES: Record<string, { summary: string; rules: (nowMs: number) => FaultRule[] }> = {
  'flaky-network': {
    summary: 'Slow answers, the odd 503 or 502, a connection dropped before or after the work, a webhook sent twice',
    rules: () => [
      { kind: 'latency', rate: 0.2, latency: { distribution: 'uniform', minMs: 50, maxMs: 400 } },
      { kind: 'error', rate: 0.03, status: 503, when: 'instead' },
      { kind: 'error', rate: 0.01, status: 502, when: 'instead' },
      { kind: 'drop', rate: 0.01, when: 'instead' },
      { kind: 'drop', rate: 0.005, when: 'after' },
      { kind: 'webhook_duplicate', rate: 0.05 },
    ],
  },
  'provider-outage': {
    summary: 'For five minutes of the sandbox clock from when it is set: every call answers 503 (Retry-After: 30), no webhook is sent',
    rules: (nowMs) => {
      const window: FaultWindow = { from: new Date(nowMs).toISOString(), to: new Date(nowMs + OUTAGE_MS).toISOString() };
      return [
        { kind: 'error', rate: 1, status: 503, when: 'instead', retryAfterSeconds: 30, window },
        { kind: 'webhook_drop', rate: 1, window },
      ];
    },
  },
  'slow-webhooks': {
    summary: 'Half the webhooks arrive a minute of sandbox time late, a third up to 3 s late in real time',
    rules: () => [
      { kind: 'webhook_delay', rate: 0.5, delay: { virtualSeconds: 60 } },
      { kind: 'webhook_reorder', rate: 0.3, withinMs: 3000 },
    ],
  },
  'webhook-storm': {
    summary: 'Webhooks sent two or three times, out of order, a few lost',
    rules: () => [
      { kind: 'webhook_duplicate', rate: 0.5, copies: 2 },
      { kind: 'webhook_reorder', rate: 0.7, withinMs: 2000 },
      { kind: 'webhook_drop', rate: 0.02 },
    ],
  },
};

/**
 * The profile to put in force: a named profile expanded at `nowMs` (the sandbox's clock), the
 * rules checked against the operations the API serves, a seed chosen when none was given.
 * `at`: the pointer of the profile in the request body ('' for PUT /_sandbox/faults, '/faults'
 * inside a sandbox creation). Throws a 400 naming the first problem; nothing is applied.
 */
export function profileToApply(
  input: FaultProfileInput,
  known: { operations: readonly { operationId: string; route: string }[] },
  nowMs: number,
  at: JsonPointer = '',
  random?: () => number,
): FaultProfile {
  let rules: FaultRule[] = [];
  if (input.profile !== undefined) {
    const shipped = SHIPPED_PROFILES[input.profile];
    if (!shipped) {
      throw invalid(`${at}/profile`, `profile must be one of: ${Object.keys(SHIPPED_PROFILES).join(', ')}`);
    }
    rules = shipped.rules(nowMs);
  }
  const own = input.rules ?? [];
  own.forEach((r, i) => checkRule(r, `${at}/rules/${i}`, known));
  rules = rules.concat(own);
  if (rules.length === 0) throw invalid(`${at}/rules`, 'a profile needs rules or a shipped profile name');
  return {
    seed: input.seed ?? newSeed(random),
    ...(input.profile !== undefined ? { profile: input.profile } : {}),
    rules,
  };
}

/** What each kind needs besides kind and rate (the schema lists every field; this says whose). */
const NEEDS: Partial<Record<FaultRule['kind'], string>> = {
  latency: 'latency',
  error: 'status',
  webhook_delay: 'delay',
  webhook_reorder: 'withinMs',
};
const LATENCY_NEEDS = { fixed: ['ms'], uniform: ['minMs', 'maxMs'], normal: ['meanMs', 'stddevMs'] } as const;

function checkRule(r: FaultRule, at: JsonPointer, known: { operations: readonly { operationId: string; route: string }[] }): void {
  const needed = NEEDS[r.kind];
  if (needed !== undefined && (r as unknown as Record<string, unknown>)[needed] === undefined) {
    throw invalid(`${at}/${needed}`, `${readablePointer(`${at}/${needed}`)} is required`);
  }
  if (r.kind === 'latency') {
    const missing = LATENCY_NEEDS[r.latency.distribution].find((f) => (r.latency as Record<string, unknown>)[f] === undefined);
    if (missing) throw invalid(`${at}/latency/${missing}`, `${readablePointer(`${at}/latency/${missing}`)} is required`);
  }
  if (isApiRule(r)) {
    if (r.operation !== undefined && !known.operations.some((o) => o.operationId === r.operation || o.route === r.operation)) {
      throw invalid(
        `${at}/operation`,
        `operation "${r.operation}" is not a partner operation (an operationId, or METHOD /path/{template})`,
      );
    }
    if (r.kind === 'latency' && r.latency.distribution === 'uniform' && r.latency.minMs > r.latency.maxMs) {
      throw invalid(`${at}/latency/maxMs`, 'maxMs must not be less than minMs');
    }
  } else if (r.event !== undefined && !RULE_EVENTS.includes(r.event)) {
    throw invalid(`${at}/event`, `event must be one of: ${RULE_EVENTS.join(', ')}`);
  }
  if (r.window !== undefined) {
    const from = Date.parse(r.window.from);
    const to = Date.parse(r.window.to);
    if (Number.isNaN(from)) throw invalid(`${at}/window/from`, 'from must be an ISO 8601 instant');
    if (Number.isNaN(to)) throw invalid(`${at}/window/to`, 'to must be an ISO 8601 instant');
    if (to <= from) throw invalid(`${at}/window/to`, 'to must be after from');
  }
}
