/**
 * `obsim report`: the go-live readiness report of a sandbox on a running obsim
 * (GET /_sandbox/report, docs/readiness.md), judged by obsim's default checklist or a team's own
 * requirements file, printed for a terminal, a pull request or a CI system.
 *
 *   obsim report                                               # the default partner's sandbox
 *   obsim report --require go-live.yaml --format junit --out reports/readiness.xml
 *
 * Exit 0 when the verdict is met, 1 when it is not, 2 when the report could not be made (wrong
 * usage, a bad requirements file, obsim unreachable or refusing).
 */
import { type Command, Option } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SandboxReadiness } from '../domain/readiness.js';
import { REPORT_FORMATS, renderReport, type ReportFormat } from '../readiness/render.js';
import { judgeBy, loadRequirements, RequirementsFileError, requirementsSchemaText } from '../readiness/requirements.js';
import { getSandboxRead, partnerTargetOptions } from './args.js';
import { CliExit } from './exit.js';

export interface ReportOpts {
  baseUrl: string;
  partnerClientId: string;
  partnerClientSecret: string;
  adminKey?: string;
  sandbox?: string;
  require?: string;
  format: ReportFormat;
  out?: string;
  requirementsSchema?: boolean;
}

/** GET /_sandbox/report as the options say (an admin's ?sandbox=, else the partner's own). */
export async function fetchReport(opts: Pick<ReportOpts, 'baseUrl' | 'partnerClientId' | 'partnerClientSecret' | 'adminKey' | 'sandbox'>) {
  const query = opts.sandbox === undefined ? '' : `?sandbox=${encodeURIComponent(opts.sandbox)}`;
  return getSandboxRead<SandboxReadiness>(opts, 'obsim report', `/_sandbox/report${query}`);
}

/** The report as asked for, and the exit code its verdict gives. */
export async function runReport(opts: ReportOpts, isTty: boolean): Promise<{ output: string; verdict: 'met' | 'unmet'; summary: string }> {
  let requirements;
  try {
    requirements = opts.require === undefined ? undefined : loadRequirements(opts.require);
  } catch (err) {
    if (err instanceof RequirementsFileError) throw new CliExit(2, `obsim report: ${err.message}`);
    throw err;
  }
  let report = await fetchReport(opts);
  if (requirements && opts.require) {
    try {
      report = { ...report, ...judgeBy(report, requirements, opts.require) };
    } catch (err) {
      if (err instanceof RequirementsFileError) throw new CliExit(2, `obsim report: ${err.message}`);
      throw err;
    }
  }
  const color = isTty && opts.out === undefined && opts.format === 'text' && !process.env.NO_COLOR;
  const unmet = report.checklist.filter((i) => i.status === 'unmet').length;
  return {
    output: renderReport(report, opts.format, color),
    verdict: report.verdict,
    summary: `readiness of ${report.sandboxId}: ${report.verdict}${unmet ? ` (${unmet} unmet)` : ''}`,
  };
}

export function registerReportCommand(program: Command): void {
  const command = program
    .command('report')
    .description(
      "A sandbox's go-live readiness report: operations and answers seen, lifecycles, smells, and a checklist with a verdict. Exit 1 when the verdict is unmet.",
    );
  partnerTargetOptions(command)
    .addOption(new Option('--admin-key <key>', 'X-Obsim-Admin-Key, to report on any sandbox with --sandbox').env('OBSIM_ADMIN_KEY'))
    .option('--sandbox <id>', "the sandbox to report on (an admin's; default: the credentials' own)")
    .option('--require <file>', 'a requirements file (YAML or JSON) that replaces the default checklist')
    .addOption(new Option('--format <format>', 'output format').choices(REPORT_FORMATS).default('text'))
    .option('--out <file>', 'write the report to this file instead of standard output')
    .option('--requirements-schema', 'print the JSON Schema of a requirements file and exit')
    .action(async (opts: ReportOpts) => {
      if (opts.requirementsSchema) {
        process.stdout.write(requirementsSchemaText());
        return;
      }
      const { output, verdict, summary } = await runReport(opts, process.stdout.isTTY === true);
      if (opts.out) {
        mkdirSync(dirname(opts.out), { recursive: true });
        writeFileSync(opts.out, output);
        process.stderr.write(`${summary}; written to ${opts.out}\n`);
      } else process.stdout.write(output);
      if (verdict !== 'met') throw new CliExit(1);
    });
}
