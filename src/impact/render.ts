/**
 * The changelog and the impact report as a person or a CI system reads them
 * (docs/contract-versions.md): Markdown (a pull request, a changelog page) and, for the impact
 * report, JUnit XML (one failing test case per touched breaking change: "may I upgrade?" in CI).
 */
import type { ContractChange } from '../domain/contract-changes.js';
import type { Evidence } from '../domain/contract-traffic.js';
import type { ImpactReport, TouchedChange } from '../domain/contract-impact.js';
import { lazyRequire } from '../lazy.js';

/** xmlbuilder2 (~1 MB with its DOM) is loaded when a JUnit report is written, not at start-up. */
const xmlbuilder2 = lazyRequire<typeof import('xmlbuilder2')>('xmlbuilder2');

export const CHANGELOG_FORMATS = ['json', 'markdown'] as const;
export const IMPACT_FORMATS = ['json', 'markdown', 'junit'] as const;

export interface ChangelogView {
  from: string;
  to: string;
  summary: { changes: number; breaking: number };
  changes: readonly ContractChange[];
}

/** A Markdown table cell: pipes escaped, no line breaks. */
const cell = (text: string | undefined): string =>
  text === undefined || text === '' ? '—' : text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const code = (text: string | undefined): string => (text === undefined ? '—' : `\`${cell(text)}\``);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const verdict = (c: ContractChange) => (c.breaking ? '**breaking**' : 'compatible');

export function changelogMarkdown(view: ChangelogView): string {
  const lines = [
    `# Contract changes from ${view.from} to ${view.to}`,
    '',
    `${plural(view.summary.changes, 'change')}, ${view.summary.breaking} breaking a client.`,
    '',
  ];
  if (view.changes.length > 0) {
    lines.push('| Verdict | Change | Rule | In the old version | In the new version |', '|---|---|---|---|---|');
    for (const c of view.changes)
      lines.push(`| ${verdict(c)} | ${cell(c.description)} | ${code(c.rule)} | ${code(c.fromPointer)} | ${code(c.toPointer)} |`);
    lines.push('');
    lines.push("Pointers of a change in the `x-obsim` switches are into the version files; the others into the versions' documents.", '');
  }
  return lines.join('\n');
}

const ids = (e: Evidence | undefined, what: string) =>
  e === undefined ? '' : `${what} ${e.first.join(', ')}${e.count > e.first.length ? ` and ${e.count - e.first.length} more` : ''}`;
const evidenceOf = (c: TouchedChange) =>
  [ids(c.evidence.entries, 'journal entries'), ids(c.evidence.deliveries, 'deliveries')].filter(Boolean).join('; ');

export function impactMarkdown(report: ImpactReport & { sandboxId: string }): string {
  const t = report.traffic;
  const lines = [
    `# Upgrading sandbox ${report.sandboxId} to ${report.to}`,
    '',
    report.verdict === 'breaking'
      ? `**Breaking:** ${plural(report.breaking, 'change')} this sandbox's traffic touched ${report.breaking === 1 ? 'breaks' : 'break'} a client (of ${report.touched.length} touched).`
      : `**Clear:** none of the ${plural(report.touched.length, 'change')} this sandbox's traffic touched breaks a client.`,
    '',
    `Read: ${plural(t.entries, 'journal entry', 'journal entries')} and ${plural(t.deliveries, 'webhook delivery', 'webhook deliveries')}, under ${
      t.versions.map((v) => v.name).join(', ') || 'no version'
    }. ${plural(report.untouched.count, 'other change')} (${report.untouched.breaking} breaking) touch nothing it did.`,
  ];
  if (t.journalTruncated) lines.push('', 'The journal had dropped older entries (its bounds): what they showed is not judged.');
  if (t.unreadBodies > 0)
    lines.push('', `${plural(t.unreadBodies, 'entry', 'entries')} kept only part of a body: its fields are not judged.`);
  if (t.unknownVersions.length > 0)
    lines.push('', `Traffic under versions no longer loaded is not judged: ${t.unknownVersions.join(', ')}.`);
  lines.push('');
  if (report.touched.length > 0) {
    lines.push('| Verdict | Change | Rule | Touched by |', '|---|---|---|---|');
    for (const c of report.touched) lines.push(`| ${verdict(c)} | ${cell(c.description)} | ${code(c.rule)} | ${cell(evidenceOf(c))} |`);
    lines.push('');
  }
  return lines.join('\n');
}

/** One test case per touched breaking change, each failing with its rule and evidence. */
export function impactJunit(report: ImpactReport & { sandboxId: string }): string {
  const breaking = report.touched.filter((c) => c.breaking);
  const root = xmlbuilder2()
    .create({ version: '1.0', encoding: 'UTF-8' })
    .ele('testsuites', { name: `upgrade of ${report.sandboxId} to ${report.to}` });
  const suite = root.ele('testsuite', {
    name: `contract ${report.to}`,
    tests: breaking.length,
    failures: breaking.length,
    errors: 0,
    skipped: 0,
  });
  for (const c of breaking)
    suite
      .ele('testcase', { classname: `contract.${c.from}.${report.to}`, name: c.description })
      .ele('failure', { type: c.rule, message: `breaking (${c.rule}): touched by ${evidenceOf(c)}` })
      .txt(`${c.id}\nfrom ${c.from}: ${c.fromPointer ?? '—'}\nto ${report.to}: ${c.toPointer ?? '—'}`);
  return root.end({ prettyPrint: true });
}
