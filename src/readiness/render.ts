/**
 * A readiness report for people and pipelines (`obsim report --format`): text for a terminal
 * (colour only when asked: the CLI asks on a TTY without NO_COLOR), markdown for a pull request,
 * JUnit XML for a CI system (one test case per checklist item: unmet fails, not applicable is
 * skipped), JSON as GET /_sandbox/report answers it.
 */
import { colors } from '../terminal-colors.js';
import type { SandboxReadiness } from '../domain/readiness.js';
import type { ChecklistItem, ItemStatus } from '../domain/readiness-checklist.js';
import type { OperationCoverage, StatesSeen } from '../domain/readiness-input.js';
import { lazyRequire } from '../lazy.js';

export const REPORT_FORMATS = ['text', 'markdown', 'json', 'junit'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** xmlbuilder2 is loaded when a JUnit report is written, not at start-up. */
const xmlbuilder2 = lazyRequire<typeof import('xmlbuilder2')>('xmlbuilder2');

const LABEL: Record<ItemStatus, string> = { met: 'MET', unmet: 'UNMET', not_applicable: 'N/A' };
const ids = (evidence: readonly number[]) => evidence.map((id) => `#${id}`).join(' ');
const counted = (o: Record<string, number>) =>
  Object.entries(o)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
const answers = (o: OperationCoverage) => {
  const own = Object.entries(o.statuses).map(([s, n]) => `${s}×${n}`);
  const injected = Object.entries(o.injected ?? {}).map(([s, n]) => `${s}×${n}`);
  return [...own, ...(injected.length ? [`(injected: ${injected.join(' ')})`] : [])].join(' ');
};

function tally(items: readonly ChecklistItem[]): string {
  const n = (s: ItemStatus) => items.filter((i) => i.status === s).length;
  return `${n('met')} met, ${n('unmet')} unmet, ${n('not_applicable')} not applicable`;
}

const lifecycleLine = (name: string, s: StatesSeen) =>
  `${name}: ${counted(s.reached) || 'none reached'}${s.unreached.length ? `; never: ${s.unreached.join(', ')}` : ''}`;

export function reportText(r: SandboxReadiness, color = false): string {
  const c = colors(color);
  const paint: Record<ItemStatus, (s: string) => string> = { met: c.green, unmet: c.red, not_applicable: c.dim };
  const out: string[] = [];
  out.push(`obsim readiness report: sandbox ${r.sandboxId}, ${r.generatedAt} (checklist: ${r.checklistSource})`);
  out.push(`${c.bold('Verdict:')} ${r.verdict === 'met' ? c.green('MET') : c.red('UNMET')} (${tally(r.checklist)})`);
  if (r.journal.truncated)
    out.push(c.yellow(`The journal dropped older entries (it keeps ${r.journal.entries}): what they showed is not counted.`));
  out.push('', c.bold('Checklist'));
  for (const i of r.checklist) {
    const evidence = i.evidence.length ? `  ${c.dim(ids(i.evidence))}` : '';
    out.push(`  ${paint[i.status](LABEL[i.status].padEnd(6))} ${i.title.padEnd(46)} ${i.because}${evidence}`);
  }
  out.push('', c.bold(`Smells (${r.smells.length})`));
  if (r.smells.length === 0) out.push('  none');
  for (const s of r.smells) out.push(`  ${c.red(s.code)}  ${s.message}  ${c.dim(`${ids(s.evidence)} ${s.docs}`.trim())}`);
  const deprecated = r.deprecatedCalls ?? [];
  if (deprecated.length > 0) {
    out.push('', c.bold(`Calls to deprecated operations (${deprecated.length})`));
    for (const d of deprecated)
      out.push(
        `  ${c.yellow(d.operationId.padEnd(34))} ${`${d.method} ${d.path}`.padEnd(58)} ${d.calls}× in ${d.contractVersion}  ${c.dim(`first #${d.firstEntry}`)}`,
      );
  }
  const called = r.operations.filter((o) => o.called);
  out.push('', c.bold(`Operations: ${called.length} of ${r.operations.length} called`));
  for (const o of called) {
    const unseen = o.unseen.length ? c.dim(`  not met: ${o.unseen.join(' ')}`) : '';
    out.push(`  ${o.operationId.padEnd(34)} ${`${o.method} ${o.path}`.padEnd(58)} ${answers(o)}${unseen}`);
  }
  const never = r.operations.filter((o) => !o.called).map((o) => o.operationId);
  if (never.length) out.push(`  never called: ${never.join(', ')}`);
  const l = r.lifecycles;
  out.push('', c.bold('Lifecycles'));
  out.push(`  ${lifecycleLine('payments', l.payments)}`);
  out.push(`  ${lifecycleLine('failure reasons', l.failureReasons)}`);
  out.push(`  ${lifecycleLine('merchants', l.merchants)}`);
  out.push(`  ${lifecycleLine('consents', l.consents)}`);
  const banks = Object.entries(l.bankRules).map(([rule, n]) => `${rule.replace(/_/g, ' ')} ${n}`);
  if (banks.length) out.push(`  bank profiles met: ${banks.join(', ')}`);
  const events = l.events
    .filter((e) => e.acknowledged + e.failed > 0)
    .map((e) => `${e.event} ${e.acknowledged} acknowledged${e.failed ? `, ${e.failed} failed` : ''}`);
  out.push(
    `  events: ${events.join('; ') || 'none delivered'}${l.neverProduced.length ? `; never produced: ${l.neverProduced.join(', ')}` : ''}`,
  );
  return `${out.join('\n')}\n`;
}

/** Markdown escapes for a table cell. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function reportMarkdown(r: SandboxReadiness): string {
  const icon: Record<ItemStatus, string> = { met: '✅ met', unmet: '❌ unmet', not_applicable: '➖ n/a' };
  const out: string[] = [];
  out.push(`## obsim readiness: ${r.verdict === 'met' ? '✅ met' : '❌ unmet'}`, '');
  out.push(`Sandbox \`${r.sandboxId}\`, ${r.generatedAt}; checklist: ${cell(r.checklistSource)} (${tally(r.checklist)}).`, '');
  if (r.journal.truncated)
    out.push(`> The journal dropped older entries (it keeps ${r.journal.entries}): what they showed is not counted.`, '');
  out.push('| | Item | Because | Journal entries |', '|---|---|---|---|');
  for (const i of r.checklist) out.push(`| ${icon[i.status]} | ${cell(i.title)} | ${cell(i.because)} | ${ids(i.evidence)} |`);
  out.push('', `### Smells (${r.smells.length})`, '');
  if (r.smells.length === 0) out.push('None.');
  for (const s of r.smells)
    out.push(`- **\`${s.code}\`**: ${s.message} Entries: ${ids(s.evidence) || '(check-receiver run)'} ([docs](${s.docs}))`);
  if (r.deprecatedCalls?.length) {
    out.push('', `### Calls to deprecated operations (${r.deprecatedCalls.length})`, '');
    for (const d of r.deprecatedCalls)
      out.push(
        `- \`${d.operationId}\` (${d.method} ${d.path}): ${d.calls}× in contract version ${d.contractVersion}, first #${d.firstEntry}`,
      );
  }
  out.push('', `### Operations (${r.operations.filter((o) => o.called).length} of ${r.operations.length} called)`, '');
  out.push('| Operation | Route | Answers | Not met |', '|---|---|---|---|');
  for (const o of r.operations)
    out.push(`| \`${o.operationId}\` | \`${o.method} ${o.path}\` | ${answers(o) || 'never called'} | ${o.unseen.join(' ')} |`);
  const l = r.lifecycles;
  out.push('', '### Lifecycles', '');
  for (const [name, s] of [
    ['payments', l.payments],
    ['failure reasons', l.failureReasons],
    ['merchants', l.merchants],
    ['consents', l.consents],
  ] as const)
    out.push(`- ${lifecycleLine(name, s)}`);
  const banks = Object.entries(l.bankRules).map(([rule, n]) => `\`${rule}\` ${n}`);
  if (banks.length) out.push(`- bank profiles met: ${banks.join(', ')}`);
  out.push(`- events never produced: ${l.neverProduced.join(', ') || 'none'}`);
  return `${out.join('\n')}\n`;
}

export function reportJunit(r: SandboxReadiness): string {
  const failures = r.checklist.filter((i) => i.status === 'unmet').length;
  const skipped = r.checklist.filter((i) => i.status === 'not_applicable').length;
  const root = xmlbuilder2()
    .create({ version: '1.0', encoding: 'UTF-8' })
    .ele('testsuites', { name: 'obsim readiness', tests: r.checklist.length, failures, errors: 0 });
  const suite = root.ele('testsuite', {
    name: `readiness ${r.sandboxId}`,
    tests: r.checklist.length,
    failures,
    errors: 0,
    skipped,
    timestamp: r.generatedAt,
  });
  suite
    .ele('properties')
    .ele('property', { name: 'verdict', value: r.verdict })
    .up()
    .ele('property', { name: 'checklist', value: r.checklistSource });
  for (const i of r.checklist) {
    const tc = suite.ele('testcase', { classname: 'readiness', name: `${i.id}: ${i.title}` });
    const evidence = i.evidence.length ? ` (journal entries ${ids(i.evidence)})` : '';
    if (i.status === 'unmet') tc.ele('failure', { message: i.because, type: 'ReadinessUnmet' }).txt(`${i.because}${evidence}`);
    else if (i.status === 'not_applicable') tc.ele('skipped', { message: i.because });
    else tc.ele('system-out').txt(`${i.because}${evidence}`);
  }
  return root.end({ prettyPrint: true });
}

export function renderReport(r: SandboxReadiness, format: ReportFormat, color = false): string {
  switch (format) {
    case 'text':
      return reportText(r, color);
    case 'markdown':
      return reportMarkdown(r);
    case 'junit':
      return reportJunit(r);
    case 'json':
      return `${JSON.stringify(r, null, 2)}\n`;
  }
}
