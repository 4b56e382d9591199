/**
 * Issue 74's limits, as `npm run bench` measures them (the outside harness, ../shared/bench,
 * measures the same ones; docs/performance.md, "One truth", says how the two agree): the core
 * routes against the limit proxy (bench/baselines/sqlite.mjs: Fastify, obsim's route schemas, one
 * prepared statement) and Prism, the tail at one connection, memory after the warm-up and start.
 * The lifecycle's limit is measured by the outside harness's lifecycle bar against its fair limit
 * proxy; `npm run bench` has no such proxy.
 */
import type { Results, Target } from './report.js';
import { ratio, round } from './stats.js';

const target = (id: string, label: string, value: number | null, limit: number, atLeast: boolean, detail?: string): Target => ({
  id,
  label,
  value: round(value, 2),
  unit: '×',
  limit: `${atLeast ? '>=' : '<='} ${limit}×`,
  pass: value === null ? null : atLeast ? value >= limit : value <= limit,
  detail,
  issue: 74,
});

export function issue74Targets(r: Results): Target[] {
  const c50 = (c: string, s: string) => r.cases.find((x) => x.id === c)?.servers[s]?.median ?? null;
  const c1 = (c: string, s: string) => r.cases.find((x) => x.id === c)?.c1?.[s]?.median ?? null;
  const t: Target[] = [];
  const vsProxy = (c: string, label: string, limit: number) =>
    t.push(
      target(
        `74-${c}`,
        `${label} at 50 connections vs the limit proxy`,
        ratio(c50(c, 'obsim')?.rps, c50(c, 'sqlite')?.rps),
        limit,
        true,
        `${c50(c, 'obsim')?.rps ?? '–'} against ${c50(c, 'sqlite')?.rps ?? '–'} req/s`,
      ),
    );
  vsProxy('payments', 'POST payments', 0.6);
  if (c50('payments', 'prism'))
    t.push(
      target(
        '74-payments-prism',
        'POST payments at 50 connections vs Prism',
        ratio(c50('payments', 'obsim')?.rps, c50('payments', 'prism')?.rps),
        1.5,
        true,
      ),
    );
  vsProxy('tx20', 'POST transactions, a page of 20', 0.75);
  vsProxy('onboarding', 'GET onboarding status', 0.65);
  for (const [c, label] of [
    ['onboarding', 'GET onboarding status'],
    ['payments', 'POST payments'],
    ['tx20', 'POST transactions (20)'],
  ] as const) {
    t.push(
      target(
        `74-c1-p99-${c}`,
        `p99 at one connection, ${label}, vs the limit proxy's`,
        ratio(c1(c, 'obsim')?.p99, c1(c, 'sqlite')?.p99),
        2.5,
        false,
        `${round(c1(c, 'obsim')?.p99, 2) ?? '–'} against ${round(c1(c, 'sqlite')?.p99, 2) ?? '–'} ms`,
      ),
    );
    if (c1(c, 'prism'))
      t.push(
        target(`74-c1-prism-${c}`, `${label} at one connection vs Prism (req/s)`, ratio(c1(c, 'obsim')?.rps, c1(c, 'prism')?.rps), 1, true),
      );
  }
  const rss = r.rssAfterWarmup;
  t.push(
    target(
      '74-rss',
      'RSS after the warm-up vs the limit proxy',
      ratio(rss?.obsim, rss?.sqlite),
      1.5,
      false,
      `${rss?.obsim ?? '–'} against ${rss?.sqlite ?? '–'} MB`,
    ),
  );
  t.push(
    target(
      '74-start',
      'Start to the first /healthz 200 vs the limit proxy',
      ratio(r.startup.obsim?.medianMs, r.startup.sqlite?.medianMs),
      1.5,
      false,
      `${r.startup.obsim?.medianMs ?? '–'} against ${r.startup.sqlite?.medianMs ?? '–'} ms`,
    ),
  );
  return t;
}
