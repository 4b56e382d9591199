import type { RunContext } from '../context.js';

export interface StepOutcome {
  /** One line shown after the step label, e.g. `POST /v1/partner/payments → 200`. */
  detail?: string;
}

export interface StepHandler<T> {
  /** A short label from the raw (un-templated) step value. */
  label(value: T): string;
  run(value: T, ctx: RunContext): Promise<StepOutcome>;
}
