/**
 * JUnit XML report for CI systems: one <testsuite> per scenario, one <testcase> per step
 * (classname = scenario name). A failed step carries <failure message="…">diff</failure>; steps
 * after it are <skipped/>. A file that did not load is a suite with one failed "load" testcase.
 */
import { lazyRequire } from '../lazy.js';
import type { ScenarioResult } from './runner.js';

/** xmlbuilder2 (~1 MB with its DOM) is loaded when a JUnit report is written, not at start-up. */
const xmlbuilder2 = lazyRequire<typeof import('xmlbuilder2')>('xmlbuilder2');

const secs = (ms: number) => (ms / 1000).toFixed(3);

export function junitXml(results: readonly ScenarioResult[], suiteName = 'obsim scenarios'): string {
  const tests = results.reduce((n, r) => n + Math.max(r.steps.length, r.error && r.steps.length === 0 ? 1 : 0), 0);
  const failures = results.reduce((n, r) => n + r.steps.filter((s) => s.status === 'failed').length + (r.error ? 1 : 0), 0);
  const skipped = results.reduce((n, r) => n + r.steps.filter((s) => s.status === 'skipped').length, 0);
  const total = results.reduce((n, r) => n + r.durationMs, 0);
  const root = xmlbuilder2()
    .create({ version: '1.0', encoding: 'UTF-8' })
    .ele('testsuites', {
      name: suiteName,
      tests,
      failures,
      errors: 0,
      skipped,
      time: secs(total),
    });
  for (const r of results) {
    const suite = root.ele('testsuite', {
      name: r.name,
      tests: r.steps.length || (r.error ? 1 : 0),
      failures: r.steps.filter((s) => s.status === 'failed').length + (r.error ? 1 : 0),
      errors: 0,
      skipped: r.steps.filter((s) => s.status === 'skipped').length,
      time: secs(r.durationMs),
      timestamp: r.startedAt,
      ...(r.file ? { file: r.file } : {}),
    });
    if (r.error) {
      suite
        .ele('testcase', { classname: r.name, name: r.steps.length ? 'setup' : 'load', time: '0.000' })
        .ele('failure', { message: r.error.split('\n')[0], type: 'ScenarioError' })
        .txt(r.error);
    }
    for (const s of r.steps) {
      const tc = suite.ele('testcase', {
        classname: r.name,
        name: `${String(s.index).padStart(2, '0')} ${s.label}`,
        time: secs(s.durationMs),
      });
      if (s.status === 'failed') {
        tc.ele('failure', { message: (s.message ?? 'failed').split('\n')[0], type: 'ExpectationFailed' }).txt(s.message ?? '');
      } else if (s.status === 'skipped') tc.ele('skipped', { message: 'an earlier step failed' });
      else if (s.detail) tc.ele('system-out').txt(s.detail);
    }
  }
  return root.end({ prettyPrint: true });
}
