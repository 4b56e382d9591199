/** `control`: a sandbox control action (POST /_sandbox/...), with expectations and captures. */
import type { RunContext } from '../context.js';
import type { ControlStep } from '../types.js';
import { applyCaptures } from './request.js';
import type { StepHandler } from './types.js';

export function controlPath(step: ControlStep): string {
  if (step.reset) return '/_sandbox/reset';
  const plural = { merchant: 'merchants', payment: 'payments', consent: 'consents', delivery: 'deliveries' } as const;
  for (const target of ['merchant', 'payment', 'consent', 'delivery'] as const) {
    const id = step[target];
    if (id !== undefined) return `/_sandbox/${plural[target]}/${encodeURIComponent(String(id))}/${step.action}`;
  }
  throw new Error('control step without a target');
}

export const control: StepHandler<ControlStep> = {
  label(s) {
    if (s.reset) return 'reset partner data';
    const target = (['merchant', 'payment', 'consent', 'delivery'] as const).find((t) => s[t] !== undefined)!;
    return `${target} ${String(s[target])} ${s.action}`;
  },
  async run(raw, ctx: RunContext) {
    const step = ctx.render(raw);
    const path = controlPath(step);
    const res = await ctx.call('POST', path, step.body);
    const what = `POST ${path}`;
    ctx.vars['last.status'] = res.status;
    ctx.vars['last.body'] = res.json;
    ctx.checkResponse(what, res, step.expect);
    const captured = applyCaptures(ctx, step.capture, res.json, 'the response body');
    const status = (res.json as { status?: unknown } | undefined)?.status;
    return {
      detail: `${what} → ${res.status}${typeof status === 'string' ? ` (status ${status})` : ''}${captured.length ? ` (captured ${captured.join(', ')})` : ''}`,
    };
  },
};
