/**
 * Transitions: every state change of a payment, merchant or consent, kept with its sandbox
 * (docs/lifecycle-and-webhooks.md, "Transitions"). A resource's creation is its first transition
 * (from nothing); each later change names the state it left, the one it reached, the instant on
 * the sandbox's clock and what caused it. The console's timelines, the readiness report's
 * lifecycle coverage and the trace spans read them; the trace context travels with them into the
 * timers they schedule and the webhooks they send (docs/operations.md).
 */
import type { BankNote } from './bank-rules.js';
import type { TraceContext } from './trace-context.js';

export const TRANSITION_RESOURCES = ['payment', 'merchant', 'consent'] as const;
export type TransitionResource = (typeof TRANSITION_RESOURCES)[number];

/**
 * What made a change:
 * - request: a call of the provider's API (name: its operationId);
 * - control: a sandbox control action (name: the action);
 * - console: the same, from the web console's buttons;
 * - scenario_step: the same, from a scenario step (name: the scenario and the step);
 * - hosted_page: the payer, merchant or bank user on a hosted page (name: what they did);
 * - timer: a timed transition falling due on the sandbox's clock (name: the timer's trigger);
 * - persona: a persona building the sandbox's starting world;
 * - seed: the activated default merchant obsim gives the default partner at start, a created
 *   sandbox at creation and either after a reset;
 * - migration: the state a resource already had when its database was upgraded to keep
 *   transitions (one per resource, at its last update).
 */
export const CAUSE_KINDS = [
  'request',
  'control',
  'console',
  'scenario_step',
  'hosted_page',
  'timer',
  'persona',
  'seed',
  'migration',
] as const;
export type CauseKind = (typeof CAUSE_KINDS)[number];

export interface Cause {
  kind: CauseKind;
  name: string;
  /** The request that made it (every kind but timer). */
  requestId?: string;
  /** The trace the change belongs to: the request's span, or for a timer the change that scheduled it. */
  trace?: TraceContext;
}

/** One transition as the API answers it. */
export interface Transition {
  id: number;
  resource: TransitionResource;
  resourceId: string;
  /** null: the resource was created in `to`. */
  from: string | null;
  to: string;
  /** Why, where the state carries one: a failed payment's failureReason. */
  reason?: string;
  /** The sandbox's clock (ISO 8601). */
  at: string;
  cause: { kind: CauseKind; name: string; requestId?: string };
  /** The W3C trace id of the trace the change belongs to. */
  traceId?: string;
  /** The bank and its profile rule behind the change (docs/banks.md), when one was. */
  bank?: BankNote;
}

/** How a transition is named in a readiness checklist: `pending -> failed (expired)`, `created -> pending`. */
export function transitionName(from: string | null, to: string, reason?: string | null): string {
  return `${from ?? 'created'} -> ${to}${reason ? ` (${reason})` : ''}`;
}

/** A timer's cause: its trigger, in the trace of the change that scheduled it. */
export function timerCause(trigger: string, trace: TraceContext | undefined): Cause {
  return { kind: 'timer', name: trigger, ...(trace ? { trace } : {}) };
}
