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
    // in order, so a later value may use an earlier one: { a: 1, b: "x-${a}" }
    const shown: string[] = [];
    for (const [k, v] of Object.entries(raw)) {
      const value = ctx.render(v);
      ctx.vars[ctx.render(k)] = value;
      shown.push(`${k} = ${JSON.stringify(value)}`);
    }
    return { detail: shown.join(', ') };
  },
};
