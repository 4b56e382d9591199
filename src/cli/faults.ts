/**
 * `obsim faults show|set|clear`: a sandbox's fault profile on a running obsim
 * (GET / PUT / DELETE /_sandbox/faults, docs/chaos.md), with the sandbox's partner credentials.
 *
 *   obsim faults set --profile provider-outage --seed 7
 *   obsim faults set --file chaos.yaml            # a profile as YAML or JSON
 *   obsim faults show [--json]
 *   obsim faults clear
 *
 * `set` and `show` print the profile in force with its seed, so a run can be replayed. Exit 2 when
 * obsim refuses (the 400's JSON pointer and message on one line) or cannot be reached.
 */
import { type Command, Option } from 'commander';
import type { FaultRule } from '../domain/chaos.js';
import { SHIPPED_PROFILES } from '../domain/chaos-profiles.js';
import { partnerTargetOptions } from './args.js';
import { controlCall, readProfileFile, seedArg, type TargetOpts } from './control.js';
import { CliExit } from './exit.js';

/** What GET /_sandbox/faults answers (schemas/chaos.ts FaultProfile). */
export interface FaultProfileShown {
  sandboxId: string;
  active: boolean;
  seed?: number;
  profile?: string;
  setAt?: string;
  rules: FaultRule[];
  injected: number[];
}

const faultsCall = (opts: TargetOpts, method: 'GET' | 'PUT' | 'DELETE', body?: unknown) =>
  controlCall<FaultProfileShown>('obsim faults', opts, method, '/_sandbox/faults', body);

/** One line per rule: what it does, to what, how often, and how many faults it injected. */
export function describeFaults(p: FaultProfileShown): string {
  if (!p.active) return `sandbox ${p.sandboxId}: no fault profile\n`;
  const lines = [`sandbox ${p.sandboxId}: seed ${p.seed}${p.profile ? ` (${p.profile})` : ''}, set ${p.setAt}`];
  p.rules.forEach((r, i) => {
    const target =
      'event' in r || r.kind.startsWith('webhook_')
        ? ((r as { event?: string }).event ?? 'every event')
        : ((r as { operation?: string }).operation ?? 'every operation');
    const what =
      r.kind === 'error'
        ? `error ${r.status} ${r.when ?? 'instead'}`
        : r.kind === 'drop'
          ? `drop ${r.when ?? 'instead'}`
          : r.kind === 'latency'
            ? `latency ${JSON.stringify(r.latency)}`
            : r.kind;
    const window = r.window ? ` from ${r.window.from} to ${r.window.to}` : '';
    lines.push(`  #${i} ${what} on ${target} at rate ${r.rate}${window}: ${p.injected[i] ?? 0} injected`);
  });
  return `${lines.join('\n')}\n`;
}

/** The profile a `set` sends: a file's, a shipped one by name, a seed, or these together. */
export function profileFromOptions(opts: { file?: string; profile?: string; seed?: number }): Record<string, unknown> {
  const body: Record<string, unknown> = opts.file === undefined ? {} : readProfileFile('obsim faults', opts.file);
  if (opts.profile !== undefined) body.profile = opts.profile;
  if (opts.seed !== undefined) body.seed = opts.seed;
  if (Object.keys(body).length === 0) throw new CliExit(2, 'obsim faults set: give --profile, --file or both');
  return body;
}

export function registerFaultsCommands(program: Command): void {
  const faults = program.command('faults').description("A sandbox's fault profile (docs/chaos.md): show it, set it, clear it");
  partnerTargetOptions(faults.command('show').description('The profile in force, its seed, and the faults each rule injected'))
    .option('--json', 'print the profile as JSON')
    .action(async (opts: TargetOpts & { json?: boolean }) => {
      const p = await faultsCall(opts, 'GET');
      process.stdout.write(opts.json ? `${JSON.stringify(p, null, 2)}\n` : describeFaults(p));
    });
  partnerTargetOptions(
    faults.command('set').description('Put a profile in force (a shipped one, a file, or both); prints it with its seed'),
  )
    .addOption(new Option('--profile <name>', 'a shipped profile').choices(Object.keys(SHIPPED_PROFILES)))
    .option('--file <file>', 'a profile as YAML or JSON (rules, seed, profile)')
    .option('--seed <n>', "the seed (default: the file's, else one is chosen and printed)", seedArg('obsim faults'))
    .option('--json', 'print the profile as JSON')
    .action(async (opts: TargetOpts & { profile?: string; file?: string; seed?: number; json?: boolean }) => {
      const p = await faultsCall(opts, 'PUT', profileFromOptions(opts));
      process.stdout.write(opts.json ? `${JSON.stringify(p, null, 2)}\n` : describeFaults(p));
    });
  partnerTargetOptions(faults.command('clear').description('No faults any more')).action(async (opts: TargetOpts) => {
    process.stdout.write(describeFaults(await faultsCall(opts, 'DELETE')));
  });
}
