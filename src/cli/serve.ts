/**
 * `obsim serve`, and what every obsim command line shares: the program (name, version, usage on
 * a wrong argument) and how a command's failure ends the process. `obsim serve` is built from
 * here alone (src/bin.ts): the other commands and what they load (the scenario runner, the
 * cluster supervisor, the MCP client, …) are not imported by a server's start.
 */
import { Command, CommanderError, Option } from 'commander';
import { ConfigError } from '../config-parsers.js';
import { ContractFileError } from '../contracts/errors.js';
import { loadConfig, SETTINGS, type Config, type Setting } from '../config.js';
import { packageVersion } from '../package-root.js';
import { keepMemoryReducerWorking } from '../idle-memory.js';
import { startServer } from '../server.js';
import { CliExit } from './exit.js';

/** The `obsim` program without its commands. */
export function obsimProgram(): Command {
  return new Command('obsim')
    .description('Offline sandbox simulator and contract mock server for the open-banking provider API')
    .version(packageVersion(), '-V, --version', 'print the version of obsim')
    .showHelpAfterError()
    .exitOverride();
}

export function registerServeCommand(program: Command): void {
  const serve = program.command('serve').description('Run the simulator (flags override environment variables)');
  // commander names a value after its flag (--settle-delay -> settleDelay), which is not always
  // the Config key (settleDelayMs): read each value under the option's own attribute name
  const options: [Setting, Option][] = [];
  for (const setting of SETTINGS as readonly Setting[]) {
    const option = setting.boolean
      ? new Option(`${setting.flag}`, `${setting.help} [env ${setting.env}]`)
      : new Option(`${setting.flag} <value>`, `${setting.help} [env ${setting.env}]`);
    serve.addOption(option);
    options.push([setting, option]);
  }
  serve.action(async (opts: Record<string, string | boolean>) => {
    const flags: Partial<Record<keyof Config, string | boolean>> = {};
    for (const [setting, option] of options) {
      const value = opts[option.attributeName()];
      if (value !== undefined) flags[setting.key] = value;
    }
    const config = loadConfig(flags);
    // this process is obsim: it gives its memory back after a load (src/idle-memory.ts)
    keepMemoryReducerWorking();
    await startServer(config, console.log, { handleSignals: true });
  });
}

/** Run `program` on `argv`; wrong usage exits 2, a configuration error 1, each with one line. */
export async function runProgram(program: Command, argv: string[]): Promise<void> {
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
    if (err instanceof CliExit) {
      if (err.message) console.error(err.message);
      process.exit(err.exitCode);
    }
    if (err instanceof ConfigError) {
      console.error(`obsim: ${err.message}`);
      process.exit(1);
    }
    // a contract version that cannot be served: its file and the pointer, one line (docs/contract-versions.md)
    if (err instanceof ContractFileError) {
      console.error(`obsim: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}

/** `obsim serve …`: the program with its serve command only. */
export async function serveMain(argv: string[]): Promise<void> {
  const program = obsimProgram();
  registerServeCommand(program);
  await runProgram(program, argv);
}
