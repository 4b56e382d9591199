/**
 * What `obsim pact verify` and `obsim pact check` print and write: a line per interaction (and
 * the lines saying why it failed), a summary, and JUnit XML for CI (one testsuite per pact, one
 * testcase per interaction).
 */
import { lazyRequire } from '../lazy.js';
import type { CheckFinding, CheckReport } from './check.js';
import type { InteractionResult } from './verify.js';

const xmlbuilder2 = lazyRequire<typeof import('xmlbuilder2')>('xmlbuilder2');

const label = (r: InteractionResult) =>
  `${r.consumer} -> ${r.provider}: ${r.description}${r.states.length ? ` [given ${r.states.join(', ')}]` : ''}`;

export function verifyText(results: readonly InteractionResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`  ${r.ok ? 'PASS' : 'FAIL'}  ${label(r)}`);
    for (const p of r.problems) lines.push(`          ${p}`);
  }
  const failed = results.filter((r) => !r.ok).length;
  lines.push(`${results.length} interaction${results.length === 1 ? '' : 's'}: ${results.length - failed} passed, ${failed} failed`);
  return lines.join('\n');
}

export function verifyJunit(results: readonly InteractionResult[]): string {
  const suites = new Map<string, InteractionResult[]>();
  for (const r of results) {
    const key = `${r.consumer} -> ${r.provider}`;
    suites.set(key, [...(suites.get(key) ?? []), r]);
  }
  const root = xmlbuilder2()
    .create({ version: '1.0', encoding: 'UTF-8' })
    .ele('testsuites', { name: 'obsim pact verify', tests: results.length, failures: results.filter((r) => !r.ok).length, errors: 0 });
  for (const [name, items] of suites) {
    const suite = root.ele('testsuite', { name, tests: items.length, failures: items.filter((r) => !r.ok).length, errors: 0 });
    for (const r of items) {
      const tc = suite.ele('testcase', {
        classname: name,
        name: `${r.description}${r.states.length ? ` [given ${r.states.join(', ')}]` : ''}`,
      });
      if (!r.ok) tc.ele('failure', { message: r.problems[0] ?? 'failed', type: 'PactVerificationFailed' }).txt(r.problems.join('\n'));
    }
  }
  return root.end({ prettyPrint: true });
}

const where = (f: CheckFinding, documentName: string) => [
  `    pact:     ${f.file}#${f.pact}`,
  ...(f.document ? [`    document: ${documentName}#${f.document}`] : []),
];

export function checkText(report: CheckReport, documentName: string): string {
  const lines: string[] = [];
  for (const f of report.mismatches) {
    const which =
      f.interaction === undefined ? '' : ` interaction ${f.interaction}${f.description ? ` (${JSON.stringify(f.description)})` : ''}`;
    lines.push(`  MISMATCH  ${f.file}${which}: ${f.code}: ${f.message}`, ...where(f, documentName));
  }
  for (const f of report.warnings) lines.push(`  warning   ${f.file}: ${f.code}: ${f.message}`, ...where(f, documentName));
  for (const pointer of report.unchecked)
    lines.push(`  note      ${documentName}#${pointer}: a JSON Schema 2020-12 keyword the validator does not apply; not checked`);
  const n = report.mismatches.length;
  lines.push(n === 0 ? `no mismatch with ${documentName}` : `${n} mismatch${n === 1 ? '' : 'es'} with ${documentName}`);
  return lines.join('\n');
}
