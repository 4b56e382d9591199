/**
 * `obsim shadow` and `obsim drift …` (docs/drift.md):
 *
 *   obsim shadow --upstream URL [--port 4020] [--host H] [--public-url URL] [--report-port P] [--report-host H] [--max-bytes 64mb]
 *   obsim drift report --from REPORT-URL [--format json|junit|html] [--out FILE]
 *   obsim drift run --upstream URL --scenario FILE... [--public-url URL] [--format json|junit|html] [--out FILE]
 *   obsim drift adopt --from REPORT --out DIR/NAME.yaml [--contracts DIR]
 *
 * `shadow` and `drift run` take --contracts DIR --contract-version NAME: the shadow's obsim answers
 * by that contract version (docs/contract-versions.md), as after `drift adopt`.
 *
 * Exit codes: 0 no drift; 1 drift found, a scenario failed, or the upstream cannot be reached;
 * 2 wrong usage. A report file is written whole or not at all.
 */
import { type Command, Option } from 'commander';
import { SANDBOX_PARTNER } from '../config.js';
import { lazyRequire } from '../lazy.js';
import { byteSize } from '../config-parsers.js';
import { portArg, urlArg } from './args.js';
import { CliExit } from './exit.js';
import { writeFileWhole } from './files.js';
import { resolveScenarioArgs } from './scenario.js';

const undici = lazyRequire<typeof import('undici')>('undici');

const FORMATS = ['json', 'junit', 'html'] as const;
type Format = (typeof FORMATS)[number];

function output(text: string, out: string | undefined): void {
  if (out) writeFileWhole(out, text);
  else process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Any HTTP answer will do: a refused connection or something that is not HTTP is one line, exit 1. */
async function checkUpstream(url: string): Promise<void> {
  try {
    const res = await undici().request(url, { method: 'GET', headersTimeout: 10_000, bodyTimeout: 10_000 });
    await res.body.dump();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new CliExit(1, `obsim: the upstream ${url} cannot be reached over HTTP (${e.code ?? e.message})`);
  }
}

const upstreamOption = () =>
  new Option('--upstream <url>', "the provider's sandbox (or anything answering like it)")
    .makeOptionMandatory()
    .argParser((raw: string) => urlArg(raw));
const publicUrlOption = () =>
  new Option(
    '--public-url <url>',
    "the shadow's address as the upstream reaches it, for its webhook receiver (without it webhooks are not compared)",
  ).argParser((raw: string) => urlArg(raw));
const contractsOption = () =>
  new Option('--contracts <dir>', "a folder of contract versions for the shadow's obsim (docs/contract-versions.md)");
const contractVersionOption = () =>
  new Option('--contract-version <name>', "the contract version the shadow's obsim answers by (with --contracts)");

/** --contract-version names a version of --contracts: checked before anything starts (one line, exit 2). */
async function checkContractVersion(opts: { contracts?: string; contractVersion?: string }): Promise<void> {
  if (opts.contractVersion === undefined) return;
  if (opts.contracts === undefined) throw new CliExit(2, 'obsim: --contract-version needs --contracts DIR (the folder of versions)');
  const { loadVersions } = await import('../contracts/load.js');
  const { committedProviderDocument } = await import('../plugins/contract-versions.js');
  const names = ['base', ...(await loadVersions(opts.contracts, committedProviderDocument())).map((v) => v.name)];
  if (!names.includes(opts.contractVersion))
    throw new CliExit(
      2,
      `obsim: no contract version ${JSON.stringify(opts.contractVersion)} in ${opts.contracts}: the versions are ${names.join(', ')}`,
    );
}

const formatOption = () =>
  new Option('--format <format>', 'the report as JSON, JUnit XML or one HTML page').choices(FORMATS).default('json');

export function registerDriftCommands(program: Command): void {
  program
    .command('shadow')
    .description(
      "Shadow the real provider: every request goes upstream and the partner gets the upstream's answer; the same request is replayed into an obsim of its own and the differences reported at /_shadow/report",
    )
    .addOption(upstreamOption())
    .addOption(new Option('--port <port>', 'port to listen on').default(4020).argParser(portArg))
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .addOption(publicUrlOption())
    .addOption(new Option('--report-port <port>', 'port of the report listener (0: any free one)').default(0).argParser(portArg))
    .addOption(
      new Option(
        '--report-host <host>',
        'interface of the report listener: loopback keeps the report, which holds what was captured, on this machine',
      ).default('127.0.0.1'),
    )
    .addOption(
      new Option('--max-bytes <size>', 'what the shadow keeps at most: exchanges, deliveries, the backlog, the id map (64mb, 1gb)')
        .default(64 * 1024 * 1024, '64mb')
        .argParser((raw: string) => byteSize(1024 * 1024)(raw, '--max-bytes')),
    )
    .addOption(contractsOption())
    .addOption(contractVersionOption())
    .action(
      async (opts: {
        upstream: string;
        port: number;
        host: string;
        publicUrl?: string;
        reportPort: number;
        reportHost: string;
        maxBytes: number;
        contracts?: string;
        contractVersion?: string;
      }) => {
        await checkContractVersion(opts);
        await checkUpstream(opts.upstream);
        const { startShadow } = await import('../shadow/shadow.js');
        // the partner's answers first: the replay takes only the CPU the proxy leaves
        const shadow = await startShadow({ ...opts, lowPriority: true });
        console.log(`obsim shadow listening on ${shadow.url}, in front of ${opts.upstream}`);
        console.log(
          opts.publicUrl
            ? `webhooks: each registration points the upstream at ${opts.publicUrl}/_shadow/hooks/<a path of its own>; deliveries are forwarded to the partner's URL`
            : 'webhooks: not compared (no --public-url)',
        );
        console.log(`the drift report: ${shadow.reportUrl} (?format=junit|html), or obsim drift report --from ${shadow.reportUrl}`);
        const stop = () => void shadow.close().then(() => process.exit(0));
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      },
    );

  const drift = program.command('drift').description("Where obsim differs from the real provider: a shadow's report, or a scripted run");

  drift
    .command('report')
    .description("Read a running shadow's drift report")
    .addOption(
      new Option('--from <url>', "the shadow's report address (obsim shadow prints it: http://127.0.0.1:P/_shadow/report)")
        .makeOptionMandatory()
        .argParser((raw: string) => urlArg(raw)),
    )
    .addOption(formatOption())
    .option('--out <file>', 'write the report to this file instead of standard output')
    .action(async (opts: { from: string; format: Format; out?: string }) => {
      let text: string;
      try {
        const base = opts.from.replace(/\/+$/, '');
        const report = base.endsWith('/_shadow/report') ? base : `${base}/_shadow/report`;
        const res = await undici().request(`${report}?format=${opts.format}`);
        text = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`it answered ${res.statusCode}: ${text.slice(0, 200)}`);
      } catch (err) {
        throw new CliExit(1, `obsim: no drift report from ${opts.from} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
      output(text, opts.out);
    });

  drift
    .command('run')
    .description('Drive scenarios through a shadow against the upstream and report the drift; exit 1 on any drift (the nightly job)')
    .addOption(upstreamOption())
    .addOption(new Option('--scenario <files...>', 'scenario files, folders of them, or names of shipped scenarios').makeOptionMandatory())
    .addOption(publicUrlOption())
    .addOption(new Option('--port <port>', "the shadow's port (0: any free one)").default(0).argParser(portArg))
    .addOption(formatOption())
    .option('--out <file>', 'write the report to this file instead of standard output')
    .addOption(
      new Option('--partner-client-id <id>', "the partner's credentials at the upstream")
        .env('OBSIM_PARTNER_CLIENT_ID')
        .default(SANDBOX_PARTNER.clientId),
    )
    .addOption(
      new Option('--partner-client-secret <secret>', "the partner's client secret at the upstream")
        .env('OBSIM_PARTNER_CLIENT_SECRET')
        .default(SANDBOX_PARTNER.clientSecret),
    )
    .addOption(
      new Option('--webhook-wait <ms>', 'how long a delivery waits for its pair before it is judged (ms)')
        .default(3000)
        .argParser((raw: string) => portArg(raw)),
    )
    .addOption(contractsOption())
    .addOption(contractVersionOption())
    .action(async (opts: DriftRunOpts) => {
      await checkContractVersion(opts);
      const { drifted } = await driftRun(opts);
      if (drifted) throw new CliExit(1);
    });

  drift
    .command('adopt')
    .description(
      'Write a contract version (an OpenAPI Overlay 1.0 file with x-obsim switches) that makes obsim answer as the upstream did in a drift report; what a version cannot say is listed as not adopted, with why',
    )
    .requiredOption('--from <report>', "a drift report: a file (obsim drift run --format json --out FILE) or a shadow's report address")
    .requiredOption('--out <file>', "the version file to write: DIR/NAME.yaml (NAME is the version's name; serve it with --contracts DIR)")
    .option(
      '--contracts <dir>',
      'where the version the report was made under is (a shadow run with --contract-version): the file written carries its changes (default: the folder of --out)',
    )
    .action(async (opts: { from: string; out: string; contracts?: string }) => {
      const { adoptReport } = await import('./drift-adopt.js');
      await adoptReport(opts);
    });
}

interface DriftRunOpts {
  contracts?: string;
  contractVersion?: string;
  upstream: string;
  scenario: string[];
  publicUrl?: string;
  port: number;
  format: Format;
  out?: string;
  partnerClientId: string;
  partnerClientSecret: string;
  webhookWait: number;
}

async function driftRun(opts: DriftRunOpts): Promise<{ drifted: boolean }> {
  // every file loads before anything starts: a bad one is one line and no report
  const { expandPaths, loadScenarioFile, ScenarioLoadError } = await import('../scenarios/loader.js');
  const files = expandPaths(resolveScenarioArgs(opts.scenario));
  for (const f of files) {
    try {
      loadScenarioFile(f);
    } catch (err) {
      if (err instanceof ScenarioLoadError) throw new CliExit(1, `obsim: ${err.message}`);
      throw err;
    }
  }
  await checkUpstream(opts.upstream);
  const { startShadow } = await import('../shadow/shadow.js');
  const { runFiles } = await import('../scenarios/runner.js');
  const { httpTransport } = await import('../scenarios/transport.js');
  const shadow = await startShadow({
    upstream: opts.upstream,
    port: opts.port,
    publicUrl: opts.publicUrl,
    webhookWaitMs: opts.webhookWait,
    contracts: opts.contracts,
    contractVersion: opts.contractVersion,
  });
  try {
    const results = await runFiles(files, {
      transport: httpTransport(shadow.url),
      partner: { clientId: opts.partnerClientId, clientSecret: opts.partnerClientSecret },
    });
    await shadow.settled();
    // the last deliveries get their wait before the report judges them
    if (opts.publicUrl) await new Promise((r) => setTimeout(r, opts.webhookWait));
    const report = await shadow.report();
    output(await shadow.render(opts.format), opts.out);
    const { exchanges, webhooks } = report.summary;
    const failed = results.filter((r) => !r.passed).map((r) => r.name);
    console.error(
      `drift: ${exchanges.match} exchanges match, ${exchanges.drift} drift, ${exchanges.uncomparable} uncomparable; webhooks ${webhooks.match} match, ${webhooks.drift} drift, ${webhooks.uncomparable} uncomparable${
        failed.length ? `; scenarios failed: ${failed.join(', ')}` : ''
      }`,
    );
    return { drifted: exchanges.drift + webhooks.drift > 0 || failed.length > 0 };
  } finally {
    await shadow.close();
  }
}
