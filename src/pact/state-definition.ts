/**
 * What a Pact provider state is to obsim (docs/pact.md): a name or pattern, the params it takes,
 * the values it answers and the scenario steps that build it. The built-in states
 * (./states.ts) and a partner's own (./state-files.ts) are both of this shape.
 */
import type { StateParam } from '../domain/pact.js';
import type { Step } from '../scenarios/types.js';

export type Vars = Record<string, unknown>;

/** What setting a state up runs, and the values it answers once the steps ran. */
export interface StatePlan {
  steps: Step[];
  answers(vars: Vars): Record<string, unknown>;
  /** Steps to run after `steps`, made from what they captured. */
  then?(vars: Vars): Step[];
}

/**
 * The request field a param's value is sent in: the provider document's schema of it, and the
 * rule the provider applies beyond what a schema says (src/domain/partner-input.ts). Checked
 * before any step runs, so a value the provider refuses is a 400 naming the param and builds
 * nothing, rather than a step failing halfway with the earlier steps' data left behind.
 */
export interface ParamField {
  schema: object;
  rule?: (value: unknown) => void;
}

export interface ProviderStateDefinition {
  /** A name, or a pattern with `{param}` placeholders. */
  name: string;
  description: string;
  params: Record<string, StateParam>;
  /** Where each param that a request sends goes (built-in states). */
  fields?: Record<string, ParamField>;
  /** The values the state answers, by name, with what each is. */
  answers: Record<string, string>;
  /** `built-in`, or the file it was read from. */
  source: string;
  plan(params: Vars): StatePlan;
  /** Steps that undo it; none: teardown resets the sandbox (POST /_sandbox/reset). */
  teardown?: Step[];
}

/** A param's value as text in a step (a state's string params are strings; anything else as JSON). */
export const asString = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
