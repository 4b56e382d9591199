/**
 * A state machine is a table: state × trigger -> next state + the events the move emits.
 * Each aggregate (merchant, payment, consent) declares its whole table in its own file; the
 * state diagrams in docs/lifecycle-and-webhooks.md are generated from (and tested against) these tables.
 *
 * `transition()` is pure: it answers the next state and events, or throws 409
 * illegal_transition. Persisting the move and its events in one transaction is the store's job.
 */
import { ApiError } from './errors.js';

/** The contract's events (schemas take their enum from here). */
export const EVENT_NAMES = [
  'payment.completed',
  'payment.failed',
  'merchant.activated',
  'merchant.deactivated',
  'merchant.onboarding.completed',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export interface TransitionRow<S extends string, T extends string> {
  from: readonly S[];
  trigger: T;
  to: S;
  events: readonly EventName[];
  /** Why this row exists, shown in the docs' transition table. */
  note?: string;
}

export interface Machine<S extends string, T extends string> {
  name: string;
  states: readonly S[];
  triggers: readonly T[];
  rows: readonly TransitionRow<S, T>[];
  /** Next state and events, or 409 illegal_transition naming state and trigger. */
  transition(from: S, trigger: T): { to: S; events: readonly EventName[] };
  can(from: S, trigger: T): boolean;
}

export function defineMachine<S extends string, T extends string>(
  name: string,
  states: readonly S[],
  triggers: readonly T[],
  rows: readonly TransitionRow<S, T>[],
): Machine<S, T> {
  const index = new Map<string, TransitionRow<S, T>>();
  for (const row of rows) {
    for (const from of row.from) {
      const key = `${from}\u0000${row.trigger}`;
      if (index.has(key)) throw new Error(`${name}: two rows for ${from} × ${row.trigger}`);
      index.set(key, row);
    }
  }
  const find = (from: S, trigger: T) => index.get(`${from}\u0000${trigger}`);
  return {
    name,
    states,
    triggers,
    rows,
    can: (from, trigger) => find(from, trigger) !== undefined,
    transition(from, trigger) {
      const row = find(from, trigger);
      if (!row) {
        throw new ApiError('illegal_transition', {
          message: `Cannot ${trigger.replace(/_/g, ' ')} a ${name} whose status is ${from}`,
        });
      }
      return { to: row.to, events: row.events };
    },
  };
}

/** Mermaid stateDiagram for the docs, generated from the table. */
export function toMermaid(machine: Machine<string, string>, initial: readonly string[] = []): string {
  const lines = ['stateDiagram-v2'];
  for (const s of initial) lines.push(`  [*] --> ${s}`);
  for (const row of machine.rows) {
    for (const from of row.from) {
      const label = row.events.length ? `${row.trigger} / ${row.events.join(', ')}` : row.trigger;
      lines.push(`  ${from} --> ${row.to}: ${label}`);
    }
  }
  return lines.join('\n');
}
