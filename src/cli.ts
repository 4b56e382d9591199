/**
 * The obsim command line. `obsim serve` starts the simulator; other subcommands are added in
 * src/cli/*. Wrong usage prints the usage and exits 2.
 */
import { Command, CommanderError, Option } from 'commander';
import { writeFileSync } from 'node:fs';
import { registerCheckReceiverCommand } from './cli/check-receiver.js';
import { registerClusterCommand } from './cli/cluster.js';
import { registerCollectionCommand } from './cli/collection.js';
import { registerContractCommands } from './cli/contract.js';
import { registerDriftCommands } from './cli/drift.js';
import { CliExit } from './cli/exit.js';
import { registerListenCommand } from './cli/listen.js';
import { registerMcpCommand } from './cli/mcp.js';
import { registerPactCommands } from './cli/pact.js';
import { registerPersonaCommands } from './cli/persona.js';
import { registerReportCommand } from './cli/report.js';
import { registerBanksCommands } from './cli/banks.js';
import { registerFaultsCommands } from './cli/faults.js';
import { registerSandboxCommands } from './cli/sandbox.js';
import { registerScenarioCommands } from './cli/scenario.js';
import { registerLogsCommand } from './cli/logs.js';
import { registerTriggerCommand } from './cli/trigger.js';
import { ConfigError } from './config-parsers.js';
import { ContractFileError } from './contracts/errors.js';
import { loadConfig, SETTINGS, type Config, type Setting } from './config.js';
import { DOCUMENT_KINDS, type DocumentKind } from './openapi/documents.js';
import { packageVersion } from './package-root.js';
import { closeOnSignals, startServer } from './server.js';

export function buildCli(): Command {
  const program = new Command('obsim')
    .description('Offline sandbox simulator and contract mock server for the open-banking provider API')
    .version(packageVersion(), '-V, --version', 'print the version of obsim')
    .showHelpAfterError()
    .exitOverride();

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
    const server = await startServer(config);
    closeOnSignals(server);
  });

  program
    .command('openapi')
    .description("Print an OpenAPI document (or write it to a file): the provider's API, or obsim's controls")
    .addOption(
      new Option('--which <document>', "provider: the /v1 API and webhooks; controls: obsim's /_sandbox API and /healthz")
        .choices(DOCUMENT_KINDS)
        .default('provider'),
    )
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (opts: { which: DocumentKind; out?: string }) => {
      const { buildApp } = await import('./app.js');
      const app = await buildApp({ config: { db: ':memory:', logLevel: 'silent' }, logger: false });
      await app.ready();
      const doc = `${JSON.stringify(await app.openapiDocument(opts.which), null, 2)}\n`;
      await app.close();
      if (opts.out) writeFileSync(opts.out, doc);
      else process.stdout.write(doc);
    });

  registerScenarioCommands(program);
  registerListenCommand(program);
  registerTriggerCommand(program);
  registerLogsCommand(program);
  registerCheckReceiverCommand(program);
  registerReportCommand(program);
  registerFaultsCommands(program);
  registerBanksCommands(program);
  registerSandboxCommands(program);
  registerPersonaCommands(program);
  registerClusterCommand(program);
  registerMcpCommand(program);
  registerDriftCommands(program);
  registerCollectionCommand(program);
  registerPactCommands(program);
  registerContractCommands(program);

  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildCli();
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
