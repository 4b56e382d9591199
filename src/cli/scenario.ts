/**
 * `obsim scenario …`: run, validate and list scenario files.
 *
 *   obsim scenario run <file|folder|shipped-name>... [--base-url URL | --in-process] [--junit FILE] [--report FILE.html] [--watch]
 *                      [--receiver] [--reset] [--partner-client-id ID --partner-client-secret S]
 *   obsim scenario record [--sandbox ID] [--since ID|INSTANT] [--until …] [--name N] [--out FILE]
 *   obsim scenario validate <file|folder>...
 *   obsim scenario list
 *   obsim scenario schema [--out FILE]
 *
 * Exit codes: 0 every scenario passed; 1 a scenario failed or a file is invalid; 2 wrong usage.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { SANDBOX_PARTNER } from '../config.js';
import { portArg, urlArg } from './args.js';
import { existsSync, writeFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { scenarioJsonSchema } from '../../schemas/scenario.js';
import { expandPaths, findShippedScenario, loadScenarioFile, ScenarioLoadError, shippedScenariosDir } from '../scenarios/loader.js';
import { startReceiver, type Receiver } from '../scenarios/receiver.js';
import { consoleReporter } from '../scenarios/reporter.js';
import { junitXml } from '../scenarios/junit.js';
import { htmlReport } from '../scenarios/html-report.js';
import { runFiles, type RunOptions, type ScenarioResult } from '../scenarios/runner.js';
import { watchScenarios } from '../scenarios/watch.js';
import { httpTransport, injectTransport, type Transport } from '../scenarios/transport.js';
import { CliExit } from './exit.js';
import { writeFileWhole } from './files.js';
import { registerImportCommand } from './scenario-import.js';
import { registerRecordCommand } from './scenario-record.js';

interface RunOpts {
  baseUrl: string;
  inProcess?: boolean;
  junit?: string;
  report?: string;
  watch?: boolean;
  receiver?: boolean;
  receiverHost: string;
  receiverPort: number;
  receiverUrl?: string;
  reset?: boolean;
  partnerClientId: string;
  partnerClientSecret: string;
  var: string[];
  tag: string[];
  bail?: boolean;
  contractVersion?: string;
  contracts?: string;
  color?: boolean;
  quiet?: boolean;
  isolate?: boolean;
  parallel?: number;
  adminKey?: string;
}

function varArg(raw: string, previous: string[] = []): string[] {
  if (!/^[A-Za-z_][\w.]*=/.test(raw)) throw new InvalidArgumentError('expected NAME=VALUE');
  return [...previous, raw];
}

/** A path as given, or the name of a shipped scenario (`payment-paid`). */
export function resolveScenarioArgs(args: readonly string[]): string[] {
  return args.map((a) => {
    if (existsSync(a)) return a;
    const shipped = findShippedScenario(a);
    if (shipped) return shipped;
    throw new CliExit(2, `obsim: ${a}: no such file or folder, and no shipped scenario of that name (see \`obsim scenario list\`)`);
  });
}

export function registerScenarioCommands(program: Command): void {
  const scenario = program
    .command('scenario')
    .description('Run, validate and list scripted scenarios (payment, merchant, consent and webhook stories)');

  scenario
    .command('run')
    .description(
      'Run scenario files against a simulator, printing each step; stops a scenario at its first failed expectation. Exit 0 when all pass, 1 otherwise.',
    )
    .argument('<paths...>', 'scenario files (.yaml, .yml, .json), folders of them, or names of shipped scenarios')
    .addOption(
      new Option('--base-url <url>', 'simulator to run against')
        .env('OBSIM_BASE_URL')
        .default('http://127.0.0.1:4010')
        .argParser((raw: string) => urlArg(raw)),
    )
    .option('--in-process', 'run against a fresh in-memory simulator started inside this process (no server needed)')
    .option('--junit <file>', 'write a JUnit XML report to this file (one testsuite per scenario, one testcase per step)')
    .option(
      '--report <file.html>',
      'write a self-contained HTML report: per scenario a timeline on the sandbox clock with requests, answers, state changes, webhooks and diffs; a filter box',
    )
    .option('--receiver', 'start a local webhook receiver and register its URL (default: read deliveries from GET /_sandbox/deliveries)')
    .addOption(new Option('--receiver-host <host>', 'interface the --receiver listens on').default('127.0.0.1'))
    .addOption(new Option('--receiver-port <port>', 'port of the --receiver (0 = any free port)').default(0).argParser(portArg))
    .option(
      '--receiver-url <url>',
      'URL of the --receiver as the simulator sees it (e.g. http://host.docker.internal:9100 for a container)',
      (raw: string) => urlArg(raw),
    )
    .option('--reset', "POST /_sandbox/reset before each scenario (deletes ALL of the partner's data on that simulator)")
    .addOption(
      new Option('--partner-client-id <id>', 'partner client id used for partner and control calls')
        .env('OBSIM_PARTNER_CLIENT_ID')
        .default(SANDBOX_PARTNER.clientId),
    )
    .addOption(
      new Option('--partner-client-secret <secret>', 'partner client secret')
        .env('OBSIM_PARTNER_CLIENT_SECRET')
        .default(SANDBOX_PARTNER.clientSecret),
    )
    .option(
      '--tag <tag>',
      'only run scenarios with this tag (repeatable; e.g. --tag payment --tag webhook)',
      (v: string, prev: string[] = []) => [...prev, v],
      [],
    )
    .option('--isolate', 'run each scenario in a fresh sandbox (its own data and clock), deleted afterwards')
    .addOption(
      new Option('--parallel <n>', 'run up to n scenarios at once (implies --isolate)').argParser((raw: string) => {
        if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64) throw new InvalidArgumentError('expected a number 1-64');
        return Number(raw);
      }),
    )
    .addOption(
      new Option('--admin-key <key>', 'X-Obsim-Admin-Key for --isolate, when the server runs with OBSIM_ADMIN_KEY').env('OBSIM_ADMIN_KEY'),
    )
    .option('--contract-version <name>', "run every scenario under this contract version (overrides the file's contractVersion)")
    .option(
      '--contracts <dir>',
      'with --in-process: the contract versions folder the in-process simulator serves (docs/contract-versions.md)',
    )
    .option('--bail', 'stop after the first failed scenario')
    .option('--var <name=value>', 'set a variable before the run (repeatable), e.g. --var merchant.clientId=…', varArg, [])
    .option(
      '--watch',
      'after the run, re-run the scenarios whose files change (and the ones that include them) against the same simulator, printing only what changed in their results',
    )
    .option('--no-color', 'plain output even on a terminal')
    .option('--quiet', 'one line per step, without the request/response details')
    .action(async (paths: string[], opts: RunOpts) => {
      const results = await runCommand(paths, opts);
      if (!results.every((r) => r.passed)) throw new CliExit(1);
    });

  registerRecordCommand(scenario);
  registerImportCommand(scenario);

  scenario
    .command('validate')
    .description('Check scenario files against the scenario schema without running them. Exit 1 when one is invalid.')
    .argument('<paths...>', 'scenario files or folders')
    .action((paths: string[]) => {
      let bad = 0;
      for (const file of expandPaths(resolveScenarioArgs(paths))) {
        try {
          const s = loadScenarioFile(file);
          console.log(`ok       ${file} (${s.name}, ${s.steps.length} steps)`);
        } catch (err) {
          if (!(err instanceof ScenarioLoadError)) throw err;
          bad++;
          console.log(`invalid  ${err.message}`);
        }
      }
      if (bad > 0) throw new CliExit(1);
    });

  scenario
    .command('list')
    .description('List the scenarios shipped with obsim (run one by name: obsim scenario run payment-paid)')
    .action(() => {
      for (const file of expandPaths([shippedScenariosDir()])) {
        const s = loadScenarioFile(file);
        console.log(`${basename(file, extname(file)).padEnd(36)} ${s.description ?? ''}`);
      }
    });

  scenario
    .command('schema')
    .description('Print the JSON Schema of scenario files (for editors and linters)')
    .option('--out <file>', 'write to this file instead of standard output')
    .action((opts: { out?: string }) => {
      const text = `${JSON.stringify(scenarioJsonSchema, null, 2)}\n`;
      if (opts.out) writeFileSync(opts.out, text);
      else process.stdout.write(text);
    });
}

async function runCommand(paths: string[], opts: RunOpts): Promise<ScenarioResult[]> {
  const files = resolveScenarioArgs(paths);
  const vars: Record<string, unknown> = {};
  for (const v of opts.var) {
    const i = v.indexOf('=');
    vars[v.slice(0, i)] = v.slice(i + 1);
  }
  let transport: Transport;
  let closeApp: (() => Promise<void>) | undefined;
  if (opts.inProcess) {
    const { buildApp } = await import('../app.js');
    const app = await buildApp({ config: { db: ':memory:', logLevel: 'silent', contracts: opts.contracts }, logger: false });
    await app.ready();
    transport = injectTransport(app);
    closeApp = () => app.close();
  } else {
    transport = httpTransport(opts.baseUrl);
  }
  let receiver: Receiver | undefined;
  if (opts.receiver) {
    receiver = await startReceiver({ host: opts.receiverHost, port: opts.receiverPort });
    if (opts.receiverUrl) receiver.url = opts.receiverUrl;
    console.log(`webhook receiver listening; registered URL base ${receiver.url}`);
  }
  const started = Date.now();
  const options: RunOptions = {
    transport,
    partner: { clientId: opts.partnerClientId, clientSecret: opts.partnerClientSecret },
    receiver,
    reset: opts.reset,
    isolate: opts.isolate || (opts.parallel ?? 1) > 1 ? { adminKey: opts.adminKey } : false,
    parallel: opts.parallel,
    contractVersion: opts.contractVersion,
    vars,
    tags: opts.tag,
    bail: opts.bail,
    reporter: consoleReporter({ color: opts.color === false ? false : undefined, verbose: !opts.quiet }),
  };
  const writeReports = (results: ScenarioResult[], quiet = false) => {
    if (opts.junit) {
      writeFileSync(opts.junit, junitXml(results));
      if (!quiet) console.log(`JUnit report written to ${opts.junit}`);
    }
    if (opts.report) {
      writeFileWhole(
        opts.report,
        htmlReport(results, { target: transport.description, durationMs: Date.now() - started, generatedAt: new Date().toISOString() }),
      );
      if (!quiet) console.log(`HTML report written to ${opts.report}`);
    }
  };
  try {
    if (opts.watch) {
      let runs = 0;
      const watching = await watchScenarios({
        ...options,
        paths: files,
        write: (l) => console.log(l),
        onRun: (r) => writeReports(r, runs++ > 0),
      });
      console.log(`watching ${files.join(', ')} (and what they include) for changes; Ctrl-C to stop`);
      await new Promise<void>((done) => {
        process.once('SIGINT', done);
        process.once('SIGTERM', done);
      });
      watching.close();
      return [];
    }
    const results = await runFiles(files, options);
    if (results.length === 0) {
      console.error(`obsim: no scenario has the tag${opts.tag.length > 1 ? 's' : ''} ${opts.tag.join(', ')}`);
      throw new CliExit(1);
    }
    writeReports(results);
    return results;
  } finally {
    await receiver?.close();
    await closeApp?.();
  }
}
