/**
 * Request journal steps (docs/journal.md): what the code under test sent to obsim.
 *
 * expectRequest    entries matching the matcher, counted as asked, within timeoutMs (polled).
 * expectNoRequest  no entry matching the matcher within timeoutMs.
 *
 * Both read POST /_sandbox/requests/verify with the run's start (`after`) and exclude the runner's
 * own requests (they carry x-obsim-scenario), so only the partner code's calls count.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  describeDifferences,
  describeEntry,
  describeExpectation,
  type CountExpectation,
  type Difference,
  type MatchableEntry,
  type RequestMatcher,
} from '../../domain/journal.js';
import { short } from '../../domain/match.js';
import { RUNNER_HEADER, StepFailure, type RunContext } from '../context.js';
import type { ExpectNoRequestStep, ExpectRequestStep } from '../types.js';
import type { StepHandler } from './types.js';

const POLL_MS = 25;

interface VerifyResult {
  verified: boolean;
  actual: number;
  matched?: MatchableEntry[];
  nearMisses?: { entry: MatchableEntry; differences: Difference[] }[];
}

async function verify(ctx: RunContext, matcher: RequestMatcher, expected: CountExpectation): Promise<VerifyResult> {
  const request = { ...matcher, headerAbsent: [...(matcher.headerAbsent ?? []), RUNNER_HEADER] };
  const res = await ctx.call('POST', '/_sandbox/requests/verify', { request, after: ctx.journalAfter, ...expected });
  ctx.checkResponse('POST /_sandbox/requests/verify', res, { status: 200 });
  return res.json as VerifyResult;
}

function label(m: RequestMatcher): string {
  return `${m.method?.toUpperCase() ?? 'any'} ${m.path ?? (m.pathPrefix ? `${m.pathPrefix}…` : 'any path')}${m.status !== undefined ? ` -> ${m.status}` : ''}`;
}

/** The lines a failing step prints: what matched, or the closest misses and how they differ. */
function explain(result: VerifyResult): string {
  const lines: string[] = [];
  if (result.matched && result.matched.length > 0) {
    lines.push('  matching requests:');
    for (const e of result.matched) lines.push(`    - ${describeEntry(e)}`);
  }
  if (result.nearMisses && result.nearMisses.length > 0) {
    lines.push('  near misses (closest first):');
    for (const n of result.nearMisses) {
      lines.push(`    - ${describeEntry(n.entry)}`);
      for (const d of describeDifferences(n.differences)) lines.push(`        ${d}`);
    }
  } else if (!result.matched?.length) lines.push('  no request of the code under test was recorded since the scenario started');
  return lines.join('\n');
}

export const expectRequest: StepHandler<ExpectRequestStep> = {
  label: (s) => label(s.request),
  async run(raw, ctx) {
    const { request: matcher, timeoutMs = 5000, ...expected } = ctx.render(raw);
    const started = Date.now();
    for (;;) {
      const result = await verify(ctx, matcher, expected);
      if (result.verified) return { detail: `${result.actual} matching` };
      // too many never gets better by waiting
      const over =
        (expected.count !== undefined && result.actual > expected.count) ||
        (expected.atMost !== undefined && result.actual > expected.atMost);
      if (over || Date.now() - started >= timeoutMs) {
        throw new StepFailure(
          `expected ${describeExpectation(expected)} request(s) matching ${short(matcher)}, found ${result.actual}${over ? '' : ` in ${timeoutMs}ms`}\n${explain(result)}`,
        );
      }
      await sleep(POLL_MS);
    }
  },
};

export const expectNoRequest: StepHandler<ExpectNoRequestStep> = {
  label: (s) => label(s.request),
  async run(raw, ctx) {
    const { request: matcher, timeoutMs = 300 } = ctx.render(raw);
    const started = Date.now();
    for (;;) {
      const result = await verify(ctx, matcher, { count: 0 });
      if (!result.verified)
        throw new StepFailure(`expected no request matching ${short(matcher)}, found ${result.actual}\n${explain(result)}`);
      if (Date.now() - started >= timeoutMs) return { detail: `none in ${timeoutMs}ms` };
      await sleep(POLL_MS);
    }
  },
};
