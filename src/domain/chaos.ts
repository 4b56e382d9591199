/**
 * Seeded chaos (docs/chaos.md): a sandbox's fault profile, the faults it injects and the draws
 * that decide them.
 *
 * A profile is a list of rules and a seed. An API rule matches partner requests (one operation,
 * or all) and injects latency, an error status or a dropped connection; a webhook rule matches
 * deliveries (one event type, or all) and duplicates, delays, reorders or drops them. Each rule
 * fires at its `rate`, optionally only inside a window of the sandbox's virtual clock.
 *
 * Reproducible by construction: each rule draws from its own stream of a xoroshiro128+ generator
 * seeded by the profile's seed (pure-rand; stream i is the seeded generator jumped i times), and
 * every request or delivery a rule matches takes the same number of draws whether the rule fires
 * or not. So the same seed and the same order of matching requests give the same faults, whatever
 * the requests carry, whichever sandbox runs them, and whatever the other rules do.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';
import { ApiError } from './errors.js';

export const API_FAULT_KINDS = ['latency', 'error', 'drop'] as const;
export const WEBHOOK_FAULT_KINDS = ['webhook_duplicate', 'webhook_delay', 'webhook_reorder', 'webhook_drop'] as const;
export type ApiFaultKind = (typeof API_FAULT_KINDS)[number];
export type WebhookFaultKind = (typeof WEBHOOK_FAULT_KINDS)[number];
export type FaultKind = ApiFaultKind | WebhookFaultKind;

/** The statuses an error rule may answer: a provider's (429, 500, 503) or a router's in front of it (502, 504). */
export const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/** Longest injected latency or real-time webhook delay (as `Prefer: delay`). */
export const MAX_FAULT_DELAY_MS = 30_000;
/** Longest virtual-clock webhook delay: a day. */
export const MAX_VIRTUAL_DELAY_S = 86_400;
/** Most copies a duplicate rule sends besides the delivery itself. */
export const MAX_DUPLICATES = 5;
/** Most rules in a profile. */
export const MAX_RULES = 50;

export type Latency =
  | { distribution: 'fixed'; ms: number }
  | { distribution: 'uniform'; minMs: number; maxMs: number }
  | { distribution: 'normal'; meanMs: number; stddevMs: number };

/** When an error or a dropped connection happens: instead of the work (nothing changed), or after it (it was done). */
export type FaultWhen = 'instead' | 'after';

/** Instants on the sandbox's virtual clock (ISO 8601). */
export interface FaultWindow {
  from: string;
  to: string;
}

interface RuleBase {
  rate: number;
  window?: FaultWindow;
}
export type ApiRule = RuleBase & { operation?: string } & (
    | { kind: 'latency'; latency: Latency }
    | { kind: 'error'; status: FaultStatus; when?: FaultWhen; retryAfterSeconds?: number }
    | { kind: 'drop'; when?: FaultWhen }
  );
export type WebhookRule = RuleBase & { event?: string } & (
    | { kind: 'webhook_duplicate'; copies?: number }
    | { kind: 'webhook_delay'; delay: { virtualSeconds: number } | { realMs: number } }
    | { kind: 'webhook_reorder'; withinMs: number }
    | { kind: 'webhook_drop' }
  );
export type FaultRule = ApiRule | WebhookRule;

/** A profile in force: its rules (a named profile expanded) and the seed its draws come from. */
export interface FaultProfile {
  seed: number;
  /** The shipped profile it was made from, when it was. */
  profile?: string;
  rules: FaultRule[];
}

/** What a journal entry or a delivery carries when a fault was injected: the rule's index and kind. */
export interface FaultMark {
  rule: number;
  kind: FaultKind;
}

export const isApiRule = (r: FaultRule): r is ApiRule => (API_FAULT_KINDS as readonly string[]).includes(r.kind);

/** A fault decided for one partner request. */
export type ApiFault = FaultMark &
  (
    | { kind: 'latency'; delayMs: number }
    | { kind: 'error'; status: FaultStatus; when: FaultWhen; retryAfterSeconds: number }
    | { kind: 'drop'; when: FaultWhen }
  );

/** The faults decided for one delivery: any of the four, each from its own rule. */
export interface WebhookFaults {
  drop?: FaultMark;
  duplicate?: FaultMark & { copies: number };
  /** Hold the delivery until the sandbox's clock has moved this far, or this long in real time. */
  delay?: FaultMark & ({ virtualMs: number } | { realMs: number });
  /** Hold the delivery this long (real ms) so others within the window overtake it. */
  reorder?: FaultMark & { realMs: number };
}

/** How a request names the operation: its operationId, and `METHOD /path/{template}`. */
export interface OperationName {
  operationId: string;
  route: string;
}

/** A seed for a profile that was given none (shown with the profile, so the run can be replayed). */
export const newSeed = (random: () => number = Math.random): number => Math.floor(random() * 2 ** 32);

/** Draws per match: rate, then two for the fault's value (a normal latency takes both). */
const DRAWS = 3;

function streams(seed: number, count: number): JumpableRandomGenerator[] {
  const out: JumpableRandomGenerator[] = [];
  const g = xoroshiro128plus(seed | 0);
  for (let i = 0; i < count; i++) {
    out.push(g.clone());
    g.jump();
  }
  return out;
}

function sampleLatency(l: Latency, u1: number, u2: number): number {
  let ms: number;
  if (l.distribution === 'fixed') ms = l.ms;
  else if (l.distribution === 'uniform') ms = l.minMs + (l.maxMs - l.minMs) * u1;
  // Box-Muller: u1 in [0, 1), so 1 - u1 in (0, 1]
  else ms = l.meanMs + l.stddevMs * Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  return Math.round(Math.min(MAX_FAULT_DELAY_MS, Math.max(0, ms)));
}

const inWindow = (r: FaultRule, nowMs: number): boolean =>
  r.window === undefined || (nowMs >= Date.parse(r.window.from) && nowMs < Date.parse(r.window.to));

/**
 * The decisions of one profile in force, in the order requests and deliveries arrive. Matching
 * is what advances a rule's stream: a rule outside its window, or for another operation, draws
 * nothing. `drawn`: how many matches each rule's stream has already drawn for (a profile kept
 * across a restart goes on where it stood).
 */
export function createFaultDecider(profile: FaultProfile, drawn: readonly number[] = []) {
  const rngs = streams(profile.seed, profile.rules.length);
  const matches = profile.rules.map((_r, i) => drawn[i] ?? 0);
  for (const [i, n] of matches.entries()) for (let k = 0; k < n * DRAWS; k++) uniformFloat64(rngs[i]);
  const apiRules = profile.rules.map((r, i) => ({ r, i })).filter((x): x is { r: ApiRule; i: number } => isApiRule(x.r));
  const webhookRules = profile.rules.map((r, i) => ({ r, i })).filter((x): x is { r: WebhookRule; i: number } => !isApiRule(x.r));

  /** The draws of one match of rule `i`: whether it fires, and the values its fault takes. */
  function draw(i: number, rate: number): [fires: boolean, u1: number, u2: number] {
    const g = rngs[i];
    matches[i]++;
    const u: number[] = [];
    for (let k = 0; k < DRAWS; k++) u.push(uniformFloat64(g));
    return [u[0] < rate, u[1], u[2]];
  }

  return {
    profile,
    /** How many matches each rule's stream has drawn for. */
    drawn: (): readonly number[] => [...matches],
    /** The partner request's fault, from the first rule (in profile order) that fires; each matching rule draws. */
    api(op: OperationName, nowMs: number): ApiFault | undefined {
      let chosen: ApiFault | undefined;
      for (const { r, i } of apiRules) {
        if (r.operation !== undefined && r.operation !== op.operationId && r.operation !== op.route) continue;
        if (!inWindow(r, nowMs)) continue;
        const [fires, u1, u2] = draw(i, r.rate);
        if (!fires || chosen) continue;
        if (r.kind === 'latency') chosen = { rule: i, kind: 'latency', delayMs: sampleLatency(r.latency, u1, u2) };
        else if (r.kind === 'error')
          chosen = { rule: i, kind: 'error', status: r.status, when: r.when ?? 'instead', retryAfterSeconds: r.retryAfterSeconds ?? 1 };
        else chosen = { rule: i, kind: 'drop', when: r.when ?? 'instead' };
      }
      return chosen;
    },
    /** A delivery's faults: the first firing rule of each kind; each matching rule draws. */
    webhook(event: string, nowMs: number): WebhookFaults | undefined {
      const out: WebhookFaults = {};
      let any = false;
      for (const { r, i } of webhookRules) {
        if (r.event !== undefined && r.event !== event) continue;
        if (!inWindow(r, nowMs)) continue;
        const [fires, u1] = draw(i, r.rate);
        if (!fires) continue;
        const mark = { rule: i, kind: r.kind };
        if (r.kind === 'webhook_drop') out.drop ??= mark;
        else if (r.kind === 'webhook_duplicate') out.duplicate ??= { ...mark, copies: r.copies ?? 1 };
        else if (r.kind === 'webhook_delay')
          out.delay ??=
            'virtualSeconds' in r.delay ? { ...mark, virtualMs: r.delay.virtualSeconds * 1000 } : { ...mark, realMs: r.delay.realMs };
        else out.reorder ??= { ...mark, realMs: Math.round(r.withinMs * u1) };
        any = true;
      }
      return any ? out : undefined;
    },
  };
}
export type FaultDecider = ReturnType<typeof createFaultDecider>;

/**
 * What a router in front of the provider answers with a 502 or 504: HAProxy's own pages, HTML,
 * no error body (a partner's client must cope with an answer that is not the API's).
 */
export const ROUTER_PAGES: Record<502 | 504, string> = {
  502: '<html><body><h1>502 Bad Gateway</h1>\nThe server returned an invalid or incomplete response.\n</body></html>\n',
  504: "<html><body><h1>504 Gateway Time-out</h1>\nThe server didn't respond in time.\n</body></html>\n",
};

/** The provider's answer for an injected 429, 500 or 503: the documented error body, Retry-After on 429 and 503. */
export function injectedError(fault: Extract<ApiFault, { kind: 'error' }>): ApiError {
  const why = `injected by the sandbox's fault profile (rule ${fault.rule})`;
  const retry = { 'retry-after': String(fault.retryAfterSeconds) };
  if (fault.status === 429)
    return new ApiError('rate_limited', { message: `Too many requests (${why}); retry after the seconds in Retry-After`, headers: retry });
  if (fault.status === 503)
    return new ApiError('service_unavailable', {
      message: `The service is unavailable (${why}); retry after the seconds in Retry-After`,
      headers: retry,
    });
  return new ApiError('internal_error', { message: `Internal server error (${why})` });
}
