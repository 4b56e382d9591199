/**
 * One flow through a shadow, for the drift tests and `npm run bench:drift`: a fresh upstream (an
 * obsim, or the foreign provider double: ./foreign/provider.ts), optionally behind the mutating
 * proxy, a shadow in front, and a shipped scenario driven through the shadow by the scenario runner.
 */
import { startObsim } from '../../src/index.js';
import { findShippedScenario } from '../../src/scenarios/loader.js';
import { runFiles, type ScenarioResult } from '../../src/scenarios/runner.js';
import { httpTransport } from '../../src/scenarios/transport.js';
import type { Drift } from '../../src/domain/drift.js';
import type { DriftReport } from '../../src/shadow/report.js';
import { startShadow, type Shadow } from '../../src/shadow/shadow.js';
import type { CatalogueEntry } from '../drift/catalogue.js';
import { startForeignProvider } from './foreign/provider.js';
import { startMutatingProxy, type Mutation } from './mutating-proxy.js';

/** What stands upstream: an obsim, or the foreign provider double (another implementation of the document). */
export type Upstream = 'obsim' | 'foreign';

async function startUpstream(kind: Upstream) {
  if (kind === 'obsim') {
    const obsim = await startObsim();
    return { url: obsim.baseUrl, partner: undefined, close: () => obsim.close() };
  }
  const double = await startForeignProvider();
  return { url: double.url, partner: double.partner, close: () => double.close() };
}

/** Real ms a delivery waits for its pair in these runs, and the late limit. */
export const WEBHOOK_WAIT_MS = 600;
export const LATE_AFTER_MS = 400;

export interface FlowRun {
  report: DriftReport;
  scenario: ScenarioResult;
  /** Whether the mutation applied (false: the entry tested nothing). */
  applied: boolean;
  shadow: Shadow;
}

/** Run `scenario` through a shadow; `inspect` sees the shadow before it closes. */
export async function shadowFlow(
  scenario: string,
  options: { mutation?: Mutation; waitForWebhooksMs?: number; inspect?: (run: FlowRun) => Promise<void>; upstream?: Upstream } = {},
): Promise<Omit<FlowRun, 'shadow'>> {
  const upstream = await startUpstream(options.upstream ?? 'obsim');
  const proxy = options.mutation ? await startMutatingProxy(upstream.url, options.mutation) : undefined;
  const front = proxy?.url ?? upstream.url;
  const shadow = await startShadow({
    upstream: front,
    // deliveries from the upstream come through the proxy when there is one (it mutates them)
    publicUrl: proxy ? `${proxy.url}/wh` : undefined,
    webhookWaitMs: WEBHOOK_WAIT_MS,
    lateAfterMs: LATE_AFTER_MS,
  });
  try {
    if (proxy) proxy.shadowUrl = shadow.url;
    const file = findShippedScenario(scenario);
    if (!file) throw new Error(`no shipped scenario ${scenario}`);
    const [result] = await runFiles([file], {
      transport: httpTransport(shadow.url),
      ...(upstream.partner ? { partner: upstream.partner } : {}),
    });
    await shadow.settled();
    if (options.waitForWebhooksMs) await new Promise((r) => setTimeout(r, options.waitForWebhooksMs));
    const run = { report: await shadow.report(), scenario: result, applied: proxy?.applied ?? true, shadow };
    await options.inspect?.(run);
    return { report: run.report, scenario: run.scenario, applied: run.applied };
  } finally {
    await shadow.close();
    await proxy?.close();
    await upstream.close();
  }
}

/**
 * One catalogue entry run through a shadow: whether the mutation applied, the drifts reported where
 * the entry expects them (exchanges or webhooks), and the one it expects if it is among them.
 */
export async function runCatalogueEntry(
  entry: CatalogueEntry,
  upstream: Upstream = 'obsim',
): Promise<{ applied: boolean; drifts: Drift[]; found: Drift | undefined }> {
  // long enough for an unpaired delivery to be judged, and for a delayed or held one to arrive
  const m = entry.mutation.webhook?.mutation;
  const held = m?.op === 'delay' ? m.ms : m?.op === 'reorder' ? 1000 : 0;
  const wait = entry.expect.webhook ? WEBHOOK_WAIT_MS + LATE_AFTER_MS + held : 0;
  const { report, applied } = await shadowFlow(entry.scenario, { mutation: entry.mutation, waitForWebhooksMs: wait, upstream });
  const drifts = entry.expect.webhook ? report.webhookEntries.flatMap((w) => w.drifts) : report.exchanges.flatMap((e) => e.drifts);
  const found = drifts.find(
    (d) =>
      d.kind === entry.expect.kind &&
      d.pointer === entry.expect.pointer &&
      (entry.expect.detail === undefined || d.detail === entry.expect.detail),
  );
  return { applied, drifts, found };
}
