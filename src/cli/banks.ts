/**
 * `obsim banks show|set|reset`: how the sandbox banks behave in a sandbox on a running obsim
 * (GET / PUT / DELETE /_sandbox/banks[/{bankId}], docs/banks.md), with the sandbox's partner
 * credentials.
 *
 *   obsim banks show [bankId] [--json]
 *   obsim banks set nordlys-bank --profile outage-1h
 *   obsim banks set fjord-sparekasse --file degraded.yaml --seed 7
 *   obsim banks reset nordlys-bank          # or --all
 *
 * Exit 2 when obsim refuses (the 400's JSON pointer and message on one line) or cannot be reached.
 */
import { type Command, Option } from 'commander';
import type { BankProfile } from '../domain/bank-profiles.js';
import { bankProfileSummary, SHIPPED_BANK_PROFILES } from '../domain/bank-profiles.js';
import { partnerTargetOptions } from './args.js';
import { controlCall, readProfileFile, seedArg, type TargetOpts } from './control.js';
import { CliExit } from './exit.js';

/** A bank as GET /_sandbox/banks/{bankId} answers it (schemas/banks.ts SandboxBank). */
interface BankShown {
  bankId: string;
  name: string;
  country: string;
  health: string;
  profile: BankProfile | null;
  setAt?: string;
}

const COMMAND = 'obsim banks';
const call = <T>(opts: TargetOpts, method: 'GET' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
  controlCall<T>(COMMAND, opts, method, path, body);

/** One line per bank: its health now, and what its profile changes from a bank without one. */
export function describeBank(b: BankShown): string {
  const head = `${b.bankId.padEnd(17)} ${b.country} ${b.health.padEnd(8)}`;
  return `${head} ${b.profile ? bankProfileSummary(b.profile) : 'no profile'}\n`;
}

/** The profile a `set` sends: a file's, a shipped one by name, a seed, or these together. */
function bankProfileFromOptions(opts: { file?: string; profile?: string; seed?: number }): Record<string, unknown> {
  const body: Record<string, unknown> = opts.file === undefined ? {} : readProfileFile(COMMAND, opts.file);
  if (opts.profile !== undefined) body.profile = opts.profile;
  if (opts.seed !== undefined) body.seed = opts.seed;
  if (Object.keys(body).length === 0) throw new CliExit(2, 'obsim banks set: give --profile, --file or both');
  return body;
}

const print = (json: boolean | undefined, value: BankShown | BankShown[]) =>
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : (Array.isArray(value) ? value : [value]).map(describeBank).join(''));

export function registerBanksCommands(program: Command): void {
  const banks = program.command('banks').description('How the sandbox banks behave in a sandbox (docs/banks.md): show, set, reset');
  partnerTargetOptions(
    banks.command('show').argument('[bankId]', 'one bank (default: all)').description('Each bank: its health now and its profile'),
  )
    .option('--json', 'print as JSON')
    .action(async (bankId: string | undefined, opts: TargetOpts & { json?: boolean }) => {
      if (bankId !== undefined) print(opts.json, await call<BankShown>(opts, 'GET', `/_sandbox/banks/${encodeURIComponent(bankId)}`));
      else print(opts.json, (await call<{ items: BankShown[] }>(opts, 'GET', '/_sandbox/banks')).items);
    });
  partnerTargetOptions(
    banks.command('set').argument('<bankId>', 'the bank').description('Put a profile in force for a bank (a shipped one, a file, or both)'),
  )
    .addOption(new Option('--profile <name>', 'a shipped profile').choices(Object.keys(SHIPPED_BANK_PROFILES)))
    .option('--file <file>', 'a profile as YAML or JSON')
    .option('--seed <n>', 'the seed of a degraded bank’s failures (default: the file’s, else one is chosen)', seedArg(COMMAND))
    .option('--json', 'print as JSON')
    .action(async (bankId: string, opts: TargetOpts & { profile?: string; file?: string; seed?: number; json?: boolean }) => {
      print(opts.json, await call<BankShown>(opts, 'PUT', `/_sandbox/banks/${encodeURIComponent(bankId)}`, bankProfileFromOptions(opts)));
    });
  partnerTargetOptions(banks.command('reset').argument('[bankId]', 'the bank').description('The bank behaves as without a profile again'))
    .option('--all', 'every bank')
    .action(async (bankId: string | undefined, opts: TargetOpts & { all?: boolean }) => {
      if ((bankId === undefined) === !opts.all) throw new CliExit(2, 'obsim banks reset: give a bank id or --all');
      const ids =
        bankId !== undefined ? [bankId] : (await call<{ items: BankShown[] }>(opts, 'GET', '/_sandbox/banks')).items.map((b) => b.bankId);
      const shown: BankShown[] = [];
      for (const id of ids) shown.push(await call<BankShown>(opts, 'DELETE', `/_sandbox/banks/${encodeURIComponent(id)}`));
      print(false, shown);
    });
}
