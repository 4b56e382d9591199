/**
 * `obsim scenario run … --watch`: run once, then re-run the scenarios whose files change (and
 * the ones that include them), against the same simulator (an --in-process one stays up), and
 * print only what changed in their results: a scenario that starts or stops failing, a failure
 * that moves to another step or says something else. New files in a watched folder are run;
 * deleted ones are forgotten.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { expandPaths, loadScenarioFile, ScenarioLoadError } from './loader.js';
import { loadFailure, runScenario, type RunOptions, type ScenarioResult } from './runner.js';

/** Changes arriving within this long are one re-run (an editor writes a file in several steps). */
const SETTLE_MS = 150;
const SCENARIO_FILE = /\.(ya?ml|json)$/i;

export interface WatchOptions extends RunOptions {
  /** Files and folders given on the command line. */
  paths: readonly string[];
  write: (line: string) => void;
  /** Each run's results (all scenarios, the newest of each), e.g. to rewrite an HTML report. */
  onRun?: (results: ScenarioResult[]) => void;
}

export interface Watching {
  /** The first run's results. */
  first: ScenarioResult[];
  /** Resolves when the runs caused by changes so far are done (for tests). */
  idle(): Promise<void>;
  close(): void;
}

/** One line per scenario whose result changed; nothing when it did not. */
export function resultChange(before: ScenarioResult | undefined, after: ScenarioResult): string | undefined {
  const failedStep = (r: ScenarioResult) => r.steps.find((s) => s.status === 'failed');
  const why = (r: ScenarioResult) => {
    const step = failedStep(r);
    const first = (text: string) => text.split('\n')[0].replace(/:$/, '');
    return step ? `step ${step.index} (${step.label}): ${first(step.message ?? '')}` : first(r.error ?? '');
  };
  if (!before) return `${after.passed ? 'PASS' : 'FAIL'} ${after.name} (new)${after.passed ? '' : `: ${why(after)}`}`;
  if (before.passed && after.passed)
    return before.steps.length === after.steps.length ? undefined : `PASS ${after.name}: now ${after.steps.length} steps`;
  if (!before.passed && after.passed) return `PASS ${after.name} (was failing)`;
  if (before.passed && !after.passed) return `FAIL ${after.name}: ${why(after)}`;
  return why(before) === why(after) ? undefined : `FAIL ${after.name}: ${why(after)}`;
}

export async function watchScenarios(options: WatchOptions): Promise<Watching> {
  const results = new Map<string, ScenarioResult>();
  /** scenario file → the files it depends on (itself and what it includes). */
  const dependsOn = new Map<string, string[]>();
  const watchers = new Map<string, FSWatcher>();
  const roots = options.paths.map((p) => resolve(p));
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();

  /** Run one file; after the first run, quietly (only what changed is printed). */
  async function runFile(file: string, quiet: boolean): Promise<void> {
    let scenario;
    try {
      scenario = loadScenarioFile(file);
    } catch (err) {
      if (!(err instanceof ScenarioLoadError)) throw err;
      dependsOn.set(file, [file]);
      results.set(file, loadFailure(err));
      return;
    }
    dependsOn.set(file, [file, ...scenario.includes]);
    if (options.tags?.length && !scenario.tags?.some((t) => options.tags!.includes(t))) return;
    results.set(file, await runScenario(scenario, quiet ? { ...options, reporter: undefined } : options));
  }

  function watchDir(dir: string): void {
    if (watchers.has(dir) || !existsSync(dir)) return;
    const w = watch(dir, (_event, name) => {
      if (name !== null && SCENARIO_FILE.test(String(name))) changed(resolve(dir, String(name)));
    });
    watchers.set(dir, w);
  }

  function watchAll(): void {
    for (const root of roots) watchDir(SCENARIO_FILE.test(extname(root)) ? dirname(root) : root);
    for (const deps of dependsOn.values()) for (const f of deps) watchDir(dirname(f));
  }

  function changed(file: string): void {
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      const files = pending;
      pending = new Set();
      running = running.then(() => rerun(files));
    }, SETTLE_MS);
  }

  /** The scenario files a change touches: those depending on it; a new file under a watched root. */
  async function rerun(files: Set<string>): Promise<void> {
    const targets = new Set<string>();
    const given = new Set(expandPaths(options.paths).map((p) => resolve(p)));
    for (const f of files) {
      for (const [scenario, deps] of dependsOn) if (deps.includes(f)) targets.add(scenario);
      if (!dependsOn.has(f) && given.has(f)) targets.add(f);
    }
    const lines: string[] = [];
    for (const target of targets) {
      if (!existsSync(target)) {
        dependsOn.delete(target);
        if (results.delete(target)) lines.push(`removed ${target}`);
        continue;
      }
      const before = results.get(target);
      await runFile(target, true);
      const after = results.get(target);
      const line = after && resultChange(before, after);
      if (line) lines.push(line);
    }
    if (targets.size === 0) return;
    const all = [...results.values()];
    const failed = all.filter((r) => !r.passed).length;
    options.write(
      `${new Date().toISOString().slice(11, 19)} re-ran ${targets.size} scenario${targets.size === 1 ? '' : 's'}: ${lines.length ? lines.join('; ') : 'no change'} — ${all.length - failed} passing, ${failed} failing`,
    );
    watchAll();
    options.onRun?.(all);
  }

  for (const file of expandPaths(options.paths)) await runFile(resolve(file), false);
  const first = [...results.values()];
  watchAll();
  options.onRun?.(first);
  return {
    first,
    idle: async () => {
      while (timer !== undefined && pending.size > 0) await new Promise((r) => setTimeout(r, SETTLE_MS));
      await running;
    },
    close() {
      if (timer) clearTimeout(timer);
      for (const w of watchers.values()) w.close();
    },
  };
}
