/**
 * The scenario runner: runs the steps of a scenario in order against a Transport, stops at the
 * first failed expectation, and reports each step to a Reporter as it goes.
 *
 *   const result = await runScenario(scenario, { transport: injectTransport(app) });
 *   const results = await runFiles(['scenarios/'], { transport: httpTransport(url) }, reporter);
 */
import type { StepKind } from '../../schemas/scenario.js';
import { SANDBOX_PARTNER } from '../config.js';
import type { Mismatch } from '../domain/match.js';
import { RunContext, StepFailure, type Exchange, type PartnerCredentials } from './context.js';
import { expandPaths, includePath, KINDS, loadScenarioFile, ScenarioLoadError } from './loader.js';
import type { Receiver } from './receiver.js';
import { STEP_HANDLERS } from './steps/index.js';
import type { StepHandler, StepOutcome } from './steps/types.js';
import { TemplateError } from './template.js';
import type { Transport } from './transport.js';
import type { Scenario, Step } from './types.js';

/** The simulator's well-known sandbox partner, unless the run says otherwise. */
export const DEFAULT_PARTNER: PartnerCredentials = SANDBOX_PARTNER;

export type StepStatus = 'passed' | 'failed' | 'skipped';

export interface StepResult {
  /** 1-based step number. */
  index: number;
  kind: StepKind;
  label: string;
  status: StepStatus;
  durationMs: number;
  detail?: string;
  /** Why the step failed (with a diff where there is one). */
  message?: string;
  /** The sandbox clock when the step ended, as the runner tracks it. */
  at?: string;
  /** The requests the step sent and their answers. */
  exchanges?: Exchange[];
  /** The delivery an expectWebhook matched. */
  webhook?: StepOutcome['webhook'];
  /** Expected beside actual, for a failed expectation. */
  mismatches?: Mismatch[];
}

export interface ScenarioResult {
  name: string;
  file?: string;
  description?: string;
  runId: string;
  passed: boolean;
  durationMs: number;
  startedAt: string;
  steps: StepResult[];
  /** Set when the scenario could not be loaded or set up (no step ran). */
  error?: string;
}

export interface Reporter {
  runStart?(info: { total: number; target: string }): void;
  scenarioStart?(scenario: Scenario, index: number, total: number): void;
  /** A step begins (a terminal shows it while it runs: webhook waits can take seconds). */
  stepStart?(step: { index: number; kind: StepKind; label: string }, scenario: Scenario): void;
  stepEnd?(step: StepResult, scenario: Scenario): void;
  scenarioEnd?(result: ScenarioResult, index: number, total: number): void;
  runEnd?(results: ScenarioResult[], durationMs: number): void;
}

export interface RunOptions {
  transport: Transport;
  partner?: PartnerCredentials;
  /** A local receiver: webhooks are registered with its URL and deliveries read from it. */
  receiver?: Receiver;
  /** POST /_sandbox/reset before the scenario (deletes ALL of the partner's data). */
  reset?: boolean;
  /** Extra variables (override the scenario's `variables`). */
  vars?: Record<string, unknown>;
  reporter?: Reporter;
  /** runFiles: only scenarios with at least one of these tags. */
  tags?: readonly string[];
  /** runFiles: stop after the first failed scenario (the rest are not run). */
  bail?: boolean;
  /**
   * Run each scenario in a fresh sandbox (POST /_sandbox/sandboxes), deleted afterwards: its own
   * data and clock, so scenarios cannot see each other and may run in parallel.
   */
  isolate?: boolean | { adminKey?: string };
  /** runFiles: how many scenarios run at once (needs isolate; default 1). */
  parallel?: number;
  /** Run every scenario under this contract version, whatever its own `contractVersion` says. */
  contractVersion?: string;
  /** Handed the run's variables when the scenario ends (a Pact provider state answers values from them). */
  onVariables?(vars: Readonly<Record<string, unknown>>): void;
}

/** A fresh sandbox for one scenario: its credentials, and how to delete it. */
async function isolatedSandbox(
  transport: Transport,
  name: string,
  isolate: true | { adminKey?: string },
  contractVersion: string | undefined,
): Promise<{ partner: PartnerCredentials; remove(): Promise<void> }> {
  const adminKey = isolate === true ? undefined : isolate.adminKey;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(adminKey ? { 'x-obsim-admin-key': adminKey } : {}) };
  const res = await transport.request({
    method: 'POST',
    path: '/_sandbox/sandboxes',
    headers,
    body: JSON.stringify({ name, ttl: '1h', ...(contractVersion === undefined ? {} : { contractVersion }) }),
  });
  const body = res.json as { sandboxId?: string; credentials?: PartnerCredentials } | undefined;
  if (res.status !== 200 || !body?.credentials || !body.sandboxId) {
    throw new Error(
      `cannot create a sandbox to isolate the scenario (POST /_sandbox/sandboxes answered ${res.status}: ${res.text.slice(0, 300)})`,
    );
  }
  const partner = body.credentials;
  const path = `/_sandbox/sandboxes/${encodeURIComponent(body.sandboxId)}`;
  return {
    partner,
    async remove() {
      await transport
        .request({
          method: 'DELETE',
          path,
          headers: { 'x-partner-client-id': partner.clientId, 'x-partner-client-secret': partner.clientSecret },
        })
        .catch(() => undefined); // an undeleted sandbox expires after its ttl
    },
  };
}

function kindOf(step: Step): StepKind {
  return KINDS.find((k) => step[k] !== undefined)!;
}

function labelOf(step: Step, kind: StepKind): string {
  if (step.name) return step.name;
  const handler = STEP_HANDLERS[kind] as StepHandler<unknown>;
  try {
    return `${kind} ${handler.label(step[kind])}`;
  } catch {
    return kind;
  }
}

export async function runScenario(scenario: Scenario, options: RunOptions, position = { index: 1, total: 1 }): Promise<ScenarioResult> {
  if (!options.isolate) return runIn(scenario, options, position, options.partner ?? DEFAULT_PARTNER);
  const started = Date.now();
  let sandbox: Awaited<ReturnType<typeof isolatedSandbox>>;
  try {
    sandbox = await isolatedSandbox(options.transport, scenario.name, options.isolate, options.contractVersion ?? scenario.contractVersion);
  } catch (err) {
    const failed: ScenarioResult = {
      name: scenario.name,
      file: scenario.file,
      description: scenario.description,
      runId: '',
      passed: false,
      durationMs: Date.now() - started,
      startedAt: new Date(started).toISOString(),
      steps: [],
      error: (err as Error).message,
    };
    options.reporter?.scenarioStart?.(scenario, position.index, position.total);
    options.reporter?.scenarioEnd?.(failed, position.index, position.total);
    return failed;
  }
  try {
    return await runIn(scenario, options, position, sandbox.partner);
  } finally {
    await sandbox.remove();
  }
}

async function runIn(
  scenario: Scenario,
  options: RunOptions,
  position: { index: number; total: number },
  partner: PartnerCredentials,
): Promise<ScenarioResult> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const ctx = new RunContext(options.transport, partner, options.receiver);
  ctx.contractVersion = options.contractVersion ?? scenario.contractVersion;
  if (scenario.file) ctx.include = includer(ctx, scenario.file);
  const result: ScenarioResult = {
    name: scenario.name,
    file: scenario.file,
    description: scenario.description,
    runId: ctx.runId,
    passed: true,
    durationMs: 0,
    startedAt,
    steps: [],
  };
  options.reporter?.scenarioStart?.(scenario, position.index, position.total);
  let failed = false;
  try {
    await ctx.syncClock();
    if (ctx.contractVersion !== undefined) await ctx.checkContractVersion();
    if (options.reset) {
      const res = await ctx.call('POST', '/_sandbox/reset');
      ctx.checkResponse('POST /_sandbox/reset', res, { status: 200 });
    }
    if (scenario.steps.some((s) => s.expectRequest !== undefined || s.expectNoRequest !== undefined)) await ctx.markJournal();
    for (const [k, v] of Object.entries(scenario.variables ?? {})) ctx.vars[k] = ctx.render(v);
    Object.assign(ctx.vars, options.vars ?? {});
  } catch (err) {
    failed = true;
    result.error = `setup failed: ${(err as Error).message}`;
  }
  for (const [i, step] of scenario.steps.entries()) {
    const kind = kindOf(step);
    const label = labelOf(step, kind);
    const sr: StepResult = { index: i + 1, kind, label, status: 'skipped', durationMs: 0 };
    if (!failed) {
      options.reporter?.stepStart?.({ index: i + 1, kind, label }, scenario);
      const t0 = Date.now();
      const sent = ctx.exchanges.length;
      ctx.stepStartsAt = sent;
      // what the step changes is recorded as caused by it (src/plugins/tracing.ts, X-Obsim-Cause)
      ctx.cause = `scenario_step: ${scenario.name} #${i + 1} ${kind}`;
      try {
        const outcome = await runStep(step, kind, ctx);
        sr.status = 'passed';
        if (outcome.detail) sr.detail = outcome.detail;
        if (outcome.webhook) sr.webhook = outcome.webhook;
      } catch (err) {
        failed = true;
        sr.status = 'failed';
        sr.message = failureText(err);
        if (err instanceof StepFailure && err.mismatches) sr.mismatches = err.mismatches;
      }
      sr.durationMs = Date.now() - t0;
      sr.at = new Date(ctx.nowMs()).toISOString();
      if (ctx.exchanges.length > sent) sr.exchanges = ctx.exchanges.slice(sent);
    }
    result.steps.push(sr);
    options.reporter?.stepEnd?.(sr, scenario);
  }
  result.passed = !failed;
  options.onVariables?.(ctx.vars);
  result.durationMs = Date.now() - started;
  options.reporter?.scenarioEnd?.(result, position.index, position.total);
  return result;
}

const runStep = (step: Step, kind: StepKind, ctx: RunContext): Promise<StepOutcome> =>
  (STEP_HANDLERS[kind] as StepHandler<unknown>).run(step[kind], ctx);

/** What a failed step says: an expectation's own message, or the error an unexpected throw was. */
const failureText = (err: unknown): string =>
  err instanceof StepFailure || err instanceof TemplateError ? err.message : `${(err as Error).name}: ${(err as Error).message}`;

/**
 * Runs included files' steps in the run's context, each relative to the file that includes it;
 * the first failure names the included file and its step.
 */
function includer(ctx: RunContext, file: string): (include: string) => Promise<string> {
  const files = [file];
  return async (include) => {
    const target = includePath(files[files.length - 1], include);
    const included = loadScenarioFile(target);
    files.push(target);
    try {
      for (const [i, step] of included.steps.entries()) {
        const kind = kindOf(step);
        try {
          await runStep(step, kind, ctx);
        } catch (err) {
          throw new StepFailure(
            `${include}, step ${i + 1} (${labelOf(step, kind)}): ${failureText(err)}`,
            err instanceof StepFailure ? err.mismatches : undefined,
          );
        }
      }
    } finally {
      files.pop();
    }
    return `${included.steps.length} steps of ${included.name}`;
  };
}

/** A result for a file that did not load (reported like a failed scenario). */
export function loadFailure(err: ScenarioLoadError): ScenarioResult {
  return {
    name: err.file,
    file: err.file,
    runId: '',
    passed: false,
    durationMs: 0,
    startedAt: new Date().toISOString(),
    steps: [],
    error: err.message,
  };
}

/**
 * Load every file first (a bad file fails the run before anything is sent), then run them in
 * order. Never throws for a failing scenario: look at `passed`.
 */
export async function runFiles(paths: readonly string[], options: RunOptions): Promise<ScenarioResult[]> {
  const started = Date.now();
  const files = expandPaths(paths);
  const scenarios: Scenario[] = [];
  const loadErrors: ScenarioResult[] = [];
  for (const f of files) {
    try {
      scenarios.push(loadScenarioFile(f));
    } catch (err) {
      if (err instanceof ScenarioLoadError) loadErrors.push(loadFailure(err));
      else throw err;
    }
  }
  if (loadErrors.length > 0) {
    options.reporter?.runEnd?.(loadErrors, Date.now() - started);
    return loadErrors;
  }
  const selected = options.tags?.length ? scenarios.filter((s) => s.tags?.some((tag) => options.tags!.includes(tag))) : scenarios;
  options.reporter?.runStart?.({ total: selected.length, target: options.transport.description });
  const parallel = options.isolate ? Math.max(1, options.parallel ?? 1) : 1;
  const results: ScenarioResult[] = [];
  if (parallel === 1) {
    for (const [i, s] of selected.entries()) {
      const r = await runScenario(s, options, { index: i + 1, total: selected.length });
      results.push(r);
      if (!r.passed && options.bail) break;
    }
  } else {
    // each scenario's report is held back and printed whole when it ends, so outputs never interleave
    const slots: (ScenarioResult | undefined)[] = new Array(selected.length);
    let next = 0;
    let stop = false;
    const worker = async () => {
      while (!stop && next < selected.length) {
        const i = next++;
        const held = holdBack(options.reporter);
        const r = await runScenario(selected[i], { ...options, reporter: held.reporter }, { index: i + 1, total: selected.length });
        held.release();
        slots[i] = r;
        if (!r.passed && options.bail) stop = true;
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, selected.length) }, worker));
    for (const r of slots) if (r) results.push(r);
  }
  options.reporter?.runEnd?.(results, Date.now() - started);
  return results;
}

/** A reporter that records one scenario's calls and replays them on release(). */
function holdBack(reporter: Reporter | undefined): { reporter: Reporter | undefined; release(): void } {
  if (!reporter) return { reporter: undefined, release: () => undefined };
  const calls: (() => void)[] = [];
  const held: Reporter = {
    scenarioStart: (...a) => calls.push(() => reporter.scenarioStart?.(...a)),
    stepStart: (...a) => calls.push(() => reporter.stepStart?.(...a)),
    stepEnd: (...a) => calls.push(() => reporter.stepEnd?.(...a)),
    scenarioEnd: (...a) => calls.push(() => reporter.scenarioEnd?.(...a)),
  };
  return { reporter: held, release: () => calls.forEach((c) => c()) };
}
