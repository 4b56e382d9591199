/**
 * `obsim …` run in the test's own process: the same command tree (buildCli) parsed as
 * `src/cli.ts`'s main() parses it, what it prints with console.log captured, and an exit as main()
 * makes it (a CliExit's code, its message the one line on standard error). A test that needs the
 * process itself (exit status, standard streams, start-up) uses runObsim (./processes.ts); one
 * that needs only what a command does saves the start of a process and of tsx.
 */
import { format } from 'node:util';
import { buildCli } from '../../src/cli.js';
import { CliExit } from '../../src/cli/exit.js';
import type { Run } from './processes.js';

/** Settings a command reads from the environment: none of the developer's shell leaks in (as cleanEnv does for processes). */
const OBSIM_ENV = /^OBSIM_/;

export async function obsimInProcess(args: readonly string[], opts: { env?: Record<string, string> } = {}): Promise<Run> {
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) if (OBSIM_ENV.test(k)) delete process.env[k];
  Object.assign(process.env, opts.env);
  const printed: string[] = [];
  const log = console.log;
  console.log = (...items: unknown[]) => printed.push(`${format(...items)}\n`);
  try {
    await buildCli().parseAsync(['node', 'obsim', ...args]);
    return { code: 0, stdout: printed.join(''), stderr: '' };
  } catch (err) {
    if (!(err instanceof CliExit)) throw err;
    return { code: err.exitCode, stdout: printed.join(''), stderr: err.message ? `${err.message}\n` : '' };
  } finally {
    console.log = log;
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}
