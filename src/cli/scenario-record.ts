/**
 * `obsim scenario record`: a sandbox's journal as a scenario file (GET /_sandbox/scenario-draft,
 * docs/scenarios-and-cli.md "Recording a session").
 *
 *   obsim scenario record [--sandbox ID] [--since ID|INSTANT] [--until ID|INSTANT] [--name N] [--out FILE]
 *
 * Exit 0 when a scenario was written (warnings, if any, on standard error); 1 when there was
 * nothing to record (the file then holds only comments saying why); 2 wrong usage or obsim
 * unreachable or refusing.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { getSandboxRead, partnerTargetOptions } from './args.js';
import { CliExit } from './exit.js';

interface RecordOpts {
  baseUrl: string;
  partnerClientId: string;
  partnerClientSecret: string;
  adminKey?: string;
  sandbox?: string;
  since?: string;
  until?: string;
  name?: string;
  out?: string;
}

interface DraftAnswer {
  yaml: string;
  steps: number;
  warnings: string[];
  entries: number;
  deliveries: number;
}

const boundArg = (raw: string): string => {
  if (/^[A-Za-z0-9._:-]{1,128}$/.test(raw) || (/^\d{4}-\d{2}-\d{2}T/.test(raw) && !Number.isNaN(Date.parse(raw)))) return raw;
  throw new InvalidArgumentError("expected a journal entry id, an entry's request id (x-request-id) or an ISO 8601 instant");
};

export async function recordScenario(opts: RecordOpts): Promise<DraftAnswer> {
  const query = new URLSearchParams({ format: 'json' });
  for (const k of ['sandbox', 'since', 'until', 'name'] as const) if (opts[k] !== undefined) query.set(k, opts[k]);
  return getSandboxRead<DraftAnswer>(opts, 'obsim scenario record', `/_sandbox/scenario-draft?${query}`);
}

export function registerRecordCommand(scenario: Command): void {
  const command = scenario
    .command('record')
    .description(
      "Turn a sandbox's journal (its requests, clock moves, triggers and webhook deliveries) into a scenario file that replays it. Exit 1 when there was nothing to record.",
    );
  partnerTargetOptions(command)
    .addOption(new Option('--admin-key <key>', 'X-Obsim-Admin-Key, to record any sandbox with --sandbox').env('OBSIM_ADMIN_KEY'))
    .option('--sandbox <id>', "the sandbox to record (an admin's; default: the credentials' own)")
    .option(
      '--since <id|instant>',
      'from this journal entry (its id or its request id), or this ISO instant on the sandbox clock',
      boundArg,
    )
    .option(
      '--until <id|instant>',
      'up to this journal entry (its id or its request id), or this ISO instant on the sandbox clock',
      boundArg,
    )
    .option('--name <name>', "the scenario's name (lower case, digits and dashes)", (raw: string) => {
      if (!/^[a-z0-9][a-z0-9-]{0,99}$/.test(raw)) throw new InvalidArgumentError('expected lower case letters, digits and dashes');
      return raw;
    })
    .option('--out <file>', 'write the scenario to this file instead of standard output')
    .action(async (opts: RecordOpts) => {
      const draft = await recordScenario(opts);
      if (opts.out) {
        mkdirSync(dirname(opts.out), { recursive: true });
        writeFileSync(opts.out, draft.yaml);
      } else process.stdout.write(draft.yaml);
      for (const w of draft.warnings) console.error(`obsim scenario record: ${w}`);
      if (draft.steps === 0) throw new CliExit(1);
      if (opts.out)
        console.error(`${opts.out}: ${draft.steps} steps from ${draft.entries} journal entries and ${draft.deliveries} deliveries`);
    });
}
