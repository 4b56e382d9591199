/**
 * The obsim command line. `obsim serve` starts the simulator; other subcommands are added in
 * src/cli/*. Wrong usage prints the usage and exits 2.
 */
import { Option, type Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { registerCheckReceiverCommand } from './cli/check-receiver.js';
import { registerClusterCommand } from './cli/cluster.js';
import { registerCollectionCommand } from './cli/collection.js';
import { registerContractCommands } from './cli/contract.js';
import { registerDriftCommands } from './cli/drift.js';
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
import { DOCUMENT_KINDS, type DocumentKind } from './openapi/documents.js';
import { obsimProgram, registerServeCommand, runProgram } from './cli/serve.js';

export function buildCli(): Command {
  const program = obsimProgram();
  registerServeCommand(program);

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
  await runProgram(buildCli(), argv);
}
