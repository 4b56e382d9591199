/**
 * expectReport (docs/readiness.md "In a scenario"): the sandbox's readiness report, judged by the
 * step's requirements or the default checklist, must have the verdict asked for (default met)
 * and the named items their statuses. A failure lists the items that decided it.
 */
import type { ReadinessReport } from '../../domain/readiness.js';
import { applyRequirements, RequirementsError } from '../../domain/readiness-requirements.js';
import { StepFailure } from '../context.js';
import type { ExpectReportStep } from '../types.js';
import type { StepHandler } from './types.js';

export const expectReport: StepHandler<ExpectReportStep> = {
  label: (s) => `verdict ${s.verdict ?? 'met'}${s.requirements ? ` by ${s.requirements.name ?? "the step's requirements"}` : ''}`,
  async run(raw, ctx) {
    const { verdict = 'met', requirements, items = {} } = ctx.render(raw);
    const res = await ctx.call('GET', '/_sandbox/report');
    ctx.checkResponse('GET /_sandbox/report', res, { status: 200 });
    let report = res.json as ReadinessReport;
    if (requirements) {
      try {
        report = applyRequirements(report, requirements, requirements.name ?? "the step's requirements");
      } catch (err) {
        if (err instanceof RequirementsError) throw new StepFailure(`requirements${err.pointer}: ${err.message}`);
        throw err;
      }
    }
    const problems: string[] = [];
    if (report.verdict !== verdict) {
      problems.push(`expected verdict ${verdict}, the report says ${report.verdict}`);
      const deciding = report.checklist.filter((i) => (verdict === 'met' ? i.status === 'unmet' : i.status === 'met'));
      for (const i of deciding) problems.push(`  ${i.status}: ${i.title} (${i.because})`);
    }
    for (const [id, status] of Object.entries(items)) {
      const item = report.checklist.find((i) => i.id === id);
      if (!item) problems.push(`no checklist item ${id} (items: ${report.checklist.map((i) => i.id).join(', ')})`);
      else if (item.status !== status) problems.push(`${id}: expected ${status}, is ${item.status} (${item.because})`);
    }
    if (problems.length) throw new StepFailure(problems.join('\n'));
    const met = report.checklist.filter((i) => i.status === 'met').length;
    return { detail: `${report.verdict}: ${met} of ${report.checklist.length} items met` };
  },
};
