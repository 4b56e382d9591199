/**
 * `bank` (docs/banks.md "In a scenario"): put a bank profile in force in the run's sandbox, or
 * `reset: true` to clear it. The seed in force is printed with the step, so a run whose degraded
 * bank failed a payment can be replayed by giving that seed.
 */
import type { BankStep } from '../types.js';
import type { StepHandler } from './types.js';

export const bank: StepHandler<BankStep> = {
  label: (s) => `${s.bankId}: ${s.reset ? 'reset' : (s.profile ?? 'profile')}`,
  async run(raw, ctx) {
    const { bankId, reset, ...profile } = ctx.render(raw);
    const path = `/_sandbox/banks/${encodeURIComponent(bankId)}`;
    const res = reset ? await ctx.call('DELETE', path) : await ctx.call('PUT', path, profile);
    ctx.checkResponse(`${reset ? 'DELETE' : 'PUT'} ${path}`, res, { status: 200 });
    const body = res.json as { health: string; profile: { profile?: string; seed: number } | null };
    if (!body.profile) return { detail: `no profile, ${body.health}` };
    return { detail: `${body.profile.profile ?? 'profile'} in force, ${body.health} now, seed ${body.profile.seed}` };
  },
};
