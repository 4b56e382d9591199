/**
 * Console reporter: one line per step as it finishes, the failure message with its diff, a
 * progress prefix `[3/14]` when several scenarios run, and a summary. Colors on a TTY (util.styleText),
 * plain text otherwise (or with NO_COLOR / --no-color).
 */
import { colors } from '../terminal-colors.js';
import type { Reporter, ScenarioResult, StepResult } from './runner.js';
import type { Scenario } from './types.js';

export interface ConsoleReporterOptions {
  write?: (text: string) => void;
  color?: boolean;
  /** Print the step detail line (request → status, captured variables). Default true. */
  verbose?: boolean;
  /** Show the running step on the current line, replaced when it ends. Default: colors on a TTY. */
  live?: boolean;
}

export function consoleReporter(options: ConsoleReporterOptions = {}): Reporter {
  const write = options.write ?? ((t: string) => process.stdout.write(t));
  const c = colors(options.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR));
  const verbose = options.verbose ?? true;
  const live = options.live ?? options.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR);
  let pending = false;
  const line = (s = '') => {
    // replace the "running" line of the step that just ended
    if (pending) write('\r\u001b[2K');
    pending = false;
    write(`${s}\n`);
  };
  const ms = (n: number) => c.dim(`(${n}ms)`);
  return {
    runStart({ total, target }) {
      line(c.bold(`Running ${total} scenario${total === 1 ? '' : 's'} against ${target}`));
    },
    scenarioStart(s: Scenario, index: number, total: number) {
      const progress = total > 1 ? c.dim(`[${index}/${total}] `) : '';
      line();
      line(`${progress}${c.bold(s.name)}${s.file ? c.dim(`  ${s.file}`) : ''}`);
      if (s.description) line(c.dim(`  ${s.description}`));
    },
    stepStart(step) {
      if (!live) return;
      write(c.dim(`  … ${String(step.index).padStart(2)}. ${step.label}`));
      pending = true;
    },
    stepEnd(step: StepResult) {
      const n = String(step.index).padStart(2);
      if (step.status === 'passed') {
        line(`  ${c.green('✓')} ${n}. ${step.label} ${ms(step.durationMs)}`);
        if (verbose && step.detail) line(c.dim(`        ${step.detail}`));
      } else if (step.status === 'failed') {
        line(`  ${c.red('✗')} ${n}. ${c.red(step.label)} ${ms(step.durationMs)}`);
        for (const l of (step.message ?? '').split('\n')) line(`        ${c.red(l)}`);
      } else {
        line(c.dim(`  - ${n}. ${step.label} (skipped)`));
      }
    },
    scenarioEnd(r: ScenarioResult) {
      if (r.error) line(`  ${c.red('✗')} ${c.red(r.error)}`);
      line(r.passed ? c.green(`  PASS ${r.name} ${ms(r.durationMs)}`) : c.red(`  FAIL ${r.name} ${ms(r.durationMs)}`));
    },
    runEnd(results: ScenarioResult[], durationMs: number) {
      const passed = results.filter((r) => r.passed).length;
      const failed = results.length - passed;
      line();
      for (const r of results.filter((x) => !x.passed)) {
        const step = r.steps.find((s) => s.status === 'failed');
        line(c.red(`✗ ${r.name}${step ? `: step ${step.index} (${step.label})` : ''}${r.error ? `: ${r.error}` : ''}`));
      }
      const summary = `${passed} passed, ${failed} failed, ${results.length} scenario${results.length === 1 ? '' : 's'} in ${durationMs}ms`;
      line(failed > 0 ? c.red(c.bold(summary)) : c.green(c.bold(summary)));
    },
  };
}
