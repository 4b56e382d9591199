/** `advanceClock`: move the simulator's virtual clock forward; due transitions fire. */
import { parseDuration } from '../../config-parsers.js';
import { StepFailure } from '../context.js';
import type { RunContext } from '../context.js';
import type { AdvanceClockStep } from '../types.js';
import type { StepHandler } from './types.js';

export async function advance(ctx: RunContext, by: { ms?: number; to?: string }): Promise<string> {
  const res = await ctx.call('POST', '/_sandbox/clock/advance', by);
  ctx.checkResponse('POST /_sandbox/clock/advance', res, { status: 200 });
  const body = res.json as { now?: string; fired?: number };
  if (typeof body.now === 'string') ctx.setNow(body.now);
  return `now ${body.now ?? '?'}${typeof body.fired === 'number' ? `, ${body.fired} transition(s) fired` : ''}`;
}

export const advanceClock: StepHandler<AdvanceClockStep> = {
  label: (s) => (typeof s === 'string' ? `+${s}` : s.by !== undefined ? `+${s.by}` : `to ${s.to}`),
  async run(raw, ctx) {
    const step = ctx.render(raw);
    if (typeof step === 'string' || step.by !== undefined) {
      const ms = parseDuration(typeof step === 'string' ? step : step.by!);
      return { detail: await advance(ctx, { ms }) };
    }
    const to = String(step.to);
    if (Number.isNaN(Date.parse(to))) throw new StepFailure(`advanceClock: "${to}" is not an ISO 8601 instant`);
    return { detail: await advance(ctx, { to: new Date(to).toISOString() }) };
  },
};
