/**
 * `obsim contract …`: what an upgrade of the contract version changes (docs/contract-versions.md),
 * asked of a running obsim:
 *
 *   obsim contract changelog --from A --to B [--format json|markdown] [--out FILE]
 *   obsim contract impact --to B [--sandbox ID] [--format json|markdown|junit] [--out FILE]
 *
 * `impact` exits 1 when a change the sandbox's traffic touched breaks a client (the answer to
 * "may I upgrade?" in CI), 0 when none does; both exit 2 when the answer could not be had (wrong
 * usage, an unknown version, obsim unreachable or refusing), with one line saying why.
 */
import { type Command, Option } from 'commander';
import type { ContractChangelogT, ContractImpactT } from '../../schemas/contracts.js';
import type { ImpactReport } from '../domain/contract-impact.js';
import { CHANGELOG_FORMATS, changelogMarkdown, IMPACT_FORMATS, impactJunit, impactMarkdown } from '../impact/render.js';
import { getSandboxRead, partnerTargetOptions, type SandboxReadOpts } from './args.js';
import { CliExit } from './exit.js';
import { writeFileWhole } from './files.js';

interface Target extends SandboxReadOpts {
  out?: string;
}

function output(text: string, out: string | undefined): void {
  const whole = text.endsWith('\n') ? text : `${text}\n`;
  if (out) writeFileWhole(out, whole);
  else process.stdout.write(whole);
}

const query = (params: Record<string, string | undefined>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
    .join('&');

export function registerContractCommands(program: Command): void {
  const contract = program
    .command('contract')
    .description(
      "What an upgrade of the contract version changes: the changelog between two versions, and its impact on a sandbox's own traffic",
    );

  partnerTargetOptions(
    contract
      .command('changelog')
      .description('Every change between two contract versions, each with its kind, pointers and verdict (breaking or not)'),
  )
    .requiredOption('--from <version>', 'the version upgraded from (base: the provider’s document)')
    .requiredOption('--to <version>', 'the version upgraded to')
    .addOption(new Option('--format <format>', 'output format').choices(CHANGELOG_FORMATS).default('markdown'))
    .option('--out <file>', 'write it to this file instead of standard output')
    .action(async (opts: Target & { from: string; to: string; format: (typeof CHANGELOG_FORMATS)[number] }) => {
      const view = await getSandboxRead<ContractChangelogT>(
        opts,
        'obsim contract changelog',
        `/_sandbox/contract/changelog?${query({ from: opts.from, to: opts.to })}`,
      );
      output(opts.format === 'json' ? JSON.stringify(view, null, 2) : changelogMarkdown(view), opts.out);
    });

  partnerTargetOptions(
    contract
      .command('impact')
      .description(
        "The changes a sandbox's own traffic (its journal and webhook deliveries) touched, with the entries that touched them; exit 1 when one breaks a client",
      ),
  )
    .requiredOption('--to <version>', 'the version to upgrade to')
    .addOption(new Option('--admin-key <key>', 'X-Obsim-Admin-Key, to read any sandbox with --sandbox').env('OBSIM_ADMIN_KEY'))
    .option('--sandbox <id>', "the sandbox whose traffic is read (an admin's; default: the credentials' own)")
    .addOption(new Option('--format <format>', 'output format').choices(IMPACT_FORMATS).default('markdown'))
    .option('--out <file>', 'write it to this file instead of standard output')
    .action(async (opts: Target & { to: string; sandbox?: string; format: (typeof IMPACT_FORMATS)[number] }) => {
      const report = await getSandboxRead<ContractImpactT>(
        opts,
        'obsim contract impact',
        `/_sandbox/contract/impact?${query({ to: opts.to, sandbox: opts.sandbox })}`,
      );
      const typed = report as unknown as ImpactReport & { sandboxId: string };
      const text =
        opts.format === 'json' ? JSON.stringify(report, null, 2) : opts.format === 'junit' ? impactJunit(typed) : impactMarkdown(typed);
      output(text, opts.out);
      process.stderr.write(
        `impact of ${opts.to} on ${report.sandboxId}: ${report.verdict} (${report.breaking} breaking of ${report.touched.length} touched; ${report.untouched.count} untouched)${opts.out ? `; written to ${opts.out}` : ''}\n`,
      );
      if (report.verdict === 'breaking') throw new CliExit(1);
    });
}
