/**
 * `obsim pact …` (docs/pact.md):
 *
 *   obsim pact verify PACT.json… [--url URL] [--sandbox new|ID] [--contract-version NAME] [--junit FILE]
 *   obsim pact check PACT.json… [--contract-version NAME] [--contracts DIR | --url URL] [--json]
 *   obsim pact export [--sandbox ID] [--consumer NAME] [--provider NAME] [--out FILE]
 *
 * verify and check exit 0 when everything holds, 1 when an interaction fails or mismatches, 2 for
 * wrong usage: a file that is not a pact, a Pact library that is not installed, obsim unreachable.
 */
import { type Command, Option } from 'commander';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkPactFile } from '../domain/pact.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import { PactLibraryMissing } from '../pact/libraries.js';
import { checkText, verifyJunit, verifyText } from '../pact/report.js';
import type { PartnerCredentials } from '../scenarios/context.js';
import { getSandboxRead, partnerTargetOptions, urlArg, type SandboxReadOpts } from './args.js';
import { CliExit } from './exit.js';

type Json = Record<string, unknown>;

/** Every file a pact obsim takes, or exit 2 naming the file and what is wrong with it. */
export function readPacts(command: string, files: readonly string[]): { file: string; doc: Json }[] {
  return files.map((file) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new CliExit(2, `${command}: ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new CliExit(2, `${command}: ${file}: not a pact: not JSON`);
    }
    const checked = checkPactFile(doc);
    if (!checked.ok) throw new CliExit(2, `${command}: ${file}: ${checked.problem}`);
    return { file, doc: doc as Json };
  });
}

/** A Pact library that is missing is wrong usage: exit 2 with the line saying how to install it. */
async function withLibraries<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof PactLibraryMissing) throw new CliExit(2, err.message);
    throw err;
  }
}

async function call(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Response> {
  try {
    return await fetch(`${url}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    throw new CliExit(2, `obsim pact: cannot reach ${url} (${(err as Error).message}); is obsim running? (--url)`);
  }
}

interface Target {
  url: string;
  close(): Promise<void>;
}

/** A running obsim (--url), or one started in this process on a free loopback port. */
async function target(opts: { url?: string; contracts?: string; pactStates?: string }): Promise<Target> {
  if (opts.url) return { url: opts.url, close: async () => undefined };
  const { buildApp } = await import('../app.js');
  const app = await buildApp({
    config: { db: ':memory:', logLevel: 'silent', contracts: opts.contracts, pactStates: opts.pactStates },
    logger: false,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, close: () => app.close() };
}

interface VerifyOpts {
  url?: string;
  sandbox: string;
  partnerClientId?: string;
  partnerClientSecret?: string;
  adminKey?: string;
  contractVersion?: string;
  contracts?: string;
  pactStates?: string;
  junit?: string;
}

/**
 * What the obsim started in this process is given, refused beside --url: the running obsim's own
 * versions and states count there, and a flag that silently changes nothing is a wrong usage.
 */
function onlyWithoutUrl(command: string, opts: { url?: string; contracts?: string; pactStates?: string }): void {
  if (opts.url === undefined) return;
  for (const [flag, given] of [
    ['--contracts', opts.contracts],
    ['--pact-states', opts.pactStates],
  ] as const)
    if (given !== undefined)
      throw new CliExit(
        2,
        `${command}: ${flag} is for an obsim started here; with --url the running obsim's own count (start it with ${flag})`,
      );
}

/** Verify `files` against obsim; the results, printed; exit code 1 when one failed. */
export async function verifyCommand(files: readonly string[], opts: VerifyOpts): Promise<number> {
  const command = 'obsim pact verify';
  const pacts = readPacts(command, files);
  onlyWithoutUrl(command, opts);
  if (opts.sandbox !== 'new' && !opts.partnerClientSecret)
    throw new CliExit(
      2,
      `${command}: --sandbox ${opts.sandbox} needs its secret: --partner-client-secret (or OBSIM_PARTNER_CLIENT_SECRET)`,
    );
  const { runVerifier } = await import('../pact/verify.js');
  const where = await target(opts);
  let credentials: PartnerCredentials;
  let remove = async () => undefined as unknown;
  try {
    if (opts.sandbox === 'new') {
      const res = await call(where.url, 'POST', '/_sandbox/sandboxes', opts.adminKey ? { 'x-obsim-admin-key': opts.adminKey } : {}, {
        name: 'obsim pact verify',
        ttl: '1h',
        clock: { frozen: true },
        ...(opts.contractVersion ? { contractVersion: opts.contractVersion } : {}),
      });
      const body = (await res.json()) as { sandboxId?: string; credentials?: PartnerCredentials; message?: string };
      if (!res.ok || !body.credentials)
        throw new CliExit(2, `${command}: cannot create a sandbox: ${res.status} ${body.message ?? ''}`.trim());
      credentials = body.credentials;
      const sandboxId = body.sandboxId!;
      remove = () =>
        call(where.url, 'DELETE', `/_sandbox/sandboxes/${sandboxId}`, {
          'x-partner-client-id': credentials.clientId,
          'x-partner-client-secret': credentials.clientSecret,
        });
    } else {
      credentials = { clientId: opts.sandbox, clientSecret: opts.partnerClientSecret! };
    }
    console.log(
      `${command}: ${pacts.length} pact${pacts.length === 1 ? '' : 's'} against ${where.url}, sandbox ${credentials.clientId}${opts.contractVersion ? `, contract version ${opts.contractVersion}` : ''}`,
    );
    const run = await withLibraries(() =>
      runVerifier({
        pacts: pacts.map((p) => resolve(p.file)),
        url: where.url,
        credentials,
        contractVersion: opts.sandbox === 'new' ? undefined : opts.contractVersion,
        command,
      }),
    );
    console.log(verifyText(run.results));
    if (opts.junit) writeFileSync(opts.junit, verifyJunit(run.results));
    return run.results.every((r) => r.ok) && run.results.length > 0 ? 0 : 1;
  } finally {
    await remove().catch(() => undefined);
    await where.close();
  }
}

interface CheckOpts {
  url?: string;
  contractVersion?: string;
  contracts?: string;
  json?: boolean;
}

/** The document a check is against: a running obsim's, a version's from the registry, or the base. */
async function documentFor(opts: CheckOpts): Promise<{ document: OpenApiDocument; name: string }> {
  const version = opts.contractVersion;
  if (opts.url) {
    const path = `/openapi.json${version ? `?version=${encodeURIComponent(version)}` : ''}`;
    const res = await call(opts.url, 'GET', path, {});
    if (!res.ok) throw new CliExit(2, `obsim pact check: GET ${path} answered ${res.status}: ${await res.text()}`);
    return { document: (await res.json()) as OpenApiDocument, name: `${opts.url}${path}` };
  }
  const { committedProviderDocument } = await import('../plugins/contract-versions.js');
  const base = committedProviderDocument();
  if (!version || version === 'base') return { document: base, name: 'openapi.json' };
  if (!opts.contracts)
    throw new CliExit(2, `obsim pact check: --contract-version ${version} needs --contracts DIR (or --url of an obsim that serves it)`);
  const { loadVersions } = await import('../contracts/load.js');
  const { createRegistry } = await import('../contracts/registry.js');
  const registry = createRegistry(await loadVersions(opts.contracts, base), false);
  const found = registry.find(version);
  if (!found)
    throw new CliExit(
      2,
      `obsim pact check: no contract version ${JSON.stringify(version)}: the versions are ${registry.names().join(', ')}`,
    );
  return { document: found.document, name: `openapi.json?version=${version}` };
}

export async function checkCommand(files: readonly string[], opts: CheckOpts): Promise<number> {
  const command = 'obsim pact check';
  const pacts = readPacts(command, files);
  onlyWithoutUrl(command, opts);
  const { document, name } = await documentFor(opts);
  const { checkPacts } = await import('../pact/check.js');
  const report = await withLibraries(() => checkPacts({ pacts, document, command }));
  console.log(opts.json ? JSON.stringify(report, null, 2) : checkText(report, name));
  return report.mismatches.length === 0 ? 0 : 1;
}

export function registerPactCommands(program: Command): void {
  const pact = program
    .command('pact')
    .description("Pact: verify a consumer's pacts against obsim, check them against the document, export a sandbox's traffic as a pact");
  const url = () =>
    new Option('--url <url>', 'a running obsim (default: one started in this process)')
      .env('OBSIM_BASE_URL')
      .argParser((raw: string) => urlArg(raw));

  pact
    .command('verify')
    .description(
      "Run Pact's reference verifier against obsim, in a new sandbox (or --sandbox ID), obsim serving the provider states. Exit 1 when an interaction fails.",
    )
    .argument('<pacts...>', 'pact files (JSON, Pact Specification 1-4)')
    .addOption(url())
    .option(
      '--sandbox <new|id>',
      'new: a sandbox made for the run and deleted after it; or the id of one (its secret in --partner-client-secret)',
      'new',
    )
    .addOption(new Option('--partner-client-secret <secret>', "with --sandbox ID: the sandbox's secret").env('OBSIM_PARTNER_CLIENT_SECRET'))
    .addOption(new Option('--admin-key <key>', 'X-Obsim-Admin-Key, when the obsim guards sandbox creation').env('OBSIM_ADMIN_KEY'))
    .option('--contract-version <name>', 'verify against the sandbox pinned to this contract version (docs/contract-versions.md)')
    .option('--contracts <dir>', 'without --url: the contract versions the obsim started here serves')
    .option('--pact-states <dir>', "without --url: the partner's provider states the obsim started here serves")
    .option('--junit <file>', 'also write JUnit XML (one testcase per interaction)')
    .action(async (files: string[], opts: VerifyOpts) => {
      const code = await verifyCommand(files, opts);
      if (code !== 0) throw new CliExit(code);
    });

  pact
    .command('check')
    .description(
      "Check that every interaction of the pacts is a subset of obsim's document (@pactflow/swagger-mock-validator). Exit 1 on a mismatch.",
    )
    .argument('<pacts...>', 'pact files (JSON, Pact Specification 1-4)')
    .option('--contract-version <name>', "check against this contract version's document")
    .option('--contracts <dir>', 'the contract versions folder (docs/contract-versions.md)')
    .addOption(new Option('--url <url>', "read the document from a running obsim's /openapi.json").argParser((raw: string) => urlArg(raw)))
    .option('--json', 'print the report as JSON')
    .action(async (files: string[], opts: CheckOpts) => {
      const code = await checkCommand(files, opts);
      if (code !== 0) throw new CliExit(code);
    });

  const exportCmd = pact
    .command('export')
    .description("A sandbox's journal as a Pact v4 file (GET /_sandbox/pact): one interaction per operation and answer it met")
    .option('--sandbox <id>', 'the sandbox (its id is its client id; its secret in --partner-client-secret)')
    .option('--consumer <name>', "the pact's consumer", 'partner')
    .option('--provider <name>', "the pact's provider", 'provider')
    .option('--out <file>', 'write the pact here instead of standard output');
  partnerTargetOptions(exportCmd).action(
    async (opts: SandboxReadOpts & { sandbox?: string; consumer: string; provider: string; out?: string }) => {
      const query = new URLSearchParams({ consumer: opts.consumer, provider: opts.provider });
      const pact = await getSandboxRead<unknown>(
        { ...opts, partnerClientId: opts.sandbox ?? opts.partnerClientId },
        'obsim pact export',
        `/_sandbox/pact?${query}`,
      );
      const pactText = `${JSON.stringify(pact, null, 2)}\n`;
      if (opts.out) writeFileSync(opts.out, pactText);
      else process.stdout.write(pactText);
    },
  );
}
