/**
 * `include`: another scenario file's steps, run here in the same run (its variables, webhooks,
 * sandbox). The loader has read and checked the file (and refused cycles); the runner runs its
 * steps (RunContext.include), so a failure inside names the included file's step.
 */
import { StepFailure } from '../context.js';
import type { IncludeStep } from '../types.js';
import type { StepHandler } from './types.js';

export const include: StepHandler<IncludeStep> = {
  label: (file) => file,
  async run(file, ctx) {
    if (!ctx.include) throw new StepFailure('include: this run has no file to include from (an inline scenario cannot include files)');
    return { detail: await ctx.include(file) };
  },
};
