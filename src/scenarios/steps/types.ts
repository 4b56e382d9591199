import type { RunContext } from '../context.js';

export interface StepOutcome {
  /** One line shown after the step label, e.g. `POST /v1/partner/payments → 200`. */
  detail?: string;
  /** The delivery an expectWebhook matched, and whether its signature was checked. */
  webhook?: { event: string; eventId?: string; signature: 'valid' | 'not checked'; body: string };
}

export interface StepHandler<T> {
  /** A short label from the raw (un-templated) step value. */
  label(value: T): string;
  run(value: T, ctx: RunContext): Promise<StepOutcome>;
}
