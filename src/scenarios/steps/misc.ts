/** `wait` (real time, bounded) and `set` (variables). */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SetStep, WaitStep } from '../types.js';
import type { StepHandler } from './types.js';

export const MAX_WAIT_MS = 30_000;

export const wait: StepHandler<WaitStep> = {
  label: (s) => `${typeof s === 'number' ? s : s.ms}ms (real time)`,
  async run(step) {
    const ms = Math.min(typeof step === 'number' ? step : step.ms, MAX_WAIT_MS);
    await sleep(ms);
    return {};
  },
};

export const set: StepHandler<SetStep> = {
  label: (s) => Object.keys(s).join(', '),
  async run(raw, ctx) {
    const values = ctx.render(raw);
    for (const [k, v] of Object.entries(values)) ctx.vars[k] = v;
    return { detail: Object.entries(values).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ') };
  },
};
