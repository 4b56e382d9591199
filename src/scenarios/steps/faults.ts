/**
 * `faults` (docs/chaos.md "In a scenario"): put a fault profile in force in the run's sandbox, or
 * `clear` it. The seed in force is printed with the step, so a run that failed on a fault can be
 * replayed by giving that seed.
 */
import type { FaultsStep } from '../types.js';
import type { StepHandler } from './types.js';

export const faults: StepHandler<FaultsStep> = {
  label: (s) =>
    s === 'clear' ? 'clear' : [s.profile, s.seed !== undefined ? `seed ${s.seed}` : undefined].filter(Boolean).join(', ') || 'rules',
  async run(raw, ctx) {
    const step = ctx.render(raw);
    const res = step === 'clear' ? await ctx.call('DELETE', '/_sandbox/faults') : await ctx.call('PUT', '/_sandbox/faults', step);
    ctx.checkResponse(`${step === 'clear' ? 'DELETE' : 'PUT'} /_sandbox/faults`, res, { status: 200 });
    const body = res.json as { active: boolean; seed?: number; profile?: string; rules: unknown[] };
    if (!body.active) return { detail: 'no fault profile' };
    return { detail: `seed ${body.seed}${body.profile ? ` (${body.profile})` : ''}, ${body.rules.length} rule(s) in force` };
  },
};
