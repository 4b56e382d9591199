/**
 * `obsim mcp`: an MCP server over stdio (docs/mcp.md) that lets a coding assistant drive a
 * sandbox of a running obsim (--base-url), or of one it starts in its own process
 * (--in-process). Standard output carries the protocol and nothing else; anything else goes to
 * standard error.
 *
 *   obsim mcp --new-sandbox
 *   obsim mcp --base-url http://127.0.0.1:4010 --sandbox sbx_… (secret in OBSIM_PARTNER_CLIENT_SECRET)
 *   obsim mcp --in-process --new-sandbox
 */
import { Option, type Command } from 'commander';
import { DEFAULT_CREDENTIALS } from '../client/index.js';
import { SANDBOX_PARTNER } from '../config.js';
import { urlArg } from './args.js';
import { CliExit } from './exit.js';

interface McpOpts {
  baseUrl: string;
  inProcess?: boolean;
  sandbox?: string;
  newSandbox?: boolean;
  partnerClientId?: string;
  partnerClientSecret?: string;
  adminKey?: string;
  contractVersion?: string;
  contracts?: string;
}

const log = (line: string) => void process.stderr.write(`obsim mcp: ${line}\n`);

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Run an MCP server over stdio that lets a coding assistant drive a sandbox (docs/mcp.md)')
    .addOption(
      new Option('--base-url <url>', 'the running obsim to talk to')
        .env('OBSIM_BASE_URL')
        .default('http://127.0.0.1:4010')
        .argParser((raw: string) => urlArg(raw)),
    )
    .option('--in-process', 'start an obsim in this process (in memory) instead of talking to a running one')
    .option('--sandbox <id>', 'start on this sandbox (its secret from --partner-client-secret / OBSIM_PARTNER_CLIENT_SECRET)')
    .option('--new-sandbox', 'create a sandbox at start and work in it')
    .addOption(
      new Option('--partner-client-id <id>', 'the partner to act as without --sandbox (default the sandbox partner)').env(
        'OBSIM_PARTNER_CLIENT_ID',
      ),
    )
    .addOption(new Option('--partner-client-secret <secret>', 'its secret, or the --sandbox secret').env('OBSIM_PARTNER_CLIENT_SECRET'))
    .addOption(new Option('--admin-key <key>', 'X-Obsim-Admin-Key, when the server runs with OBSIM_ADMIN_KEY').env('OBSIM_ADMIN_KEY'))
    .option('--contract-version <name>', "the contract version the tools' provider requests name (docs/contract-versions.md)")
    .option('--contracts <dir>', 'with --in-process: the contract versions folder it serves')
    .action(async (opts: McpOpts) => {
      // loaded only for this command: the SDK and the tools (which read the OpenAPI documents)
      // are nothing `obsim serve` or any other command needs at start
      const [{ StdioServerTransport }, { createMcpServer }, { Session }, { TOOLS }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../mcp/server.js'),
        import('../mcp/session.js'),
        import('../mcp/tools.js'),
      ]);
      if (opts.sandbox && !opts.partnerClientSecret) {
        throw new CliExit(
          2,
          `obsim mcp: --sandbox ${opts.sandbox} needs its secret: --partner-client-secret or OBSIM_PARTNER_CLIENT_SECRET`,
        );
      }
      let baseUrl = opts.baseUrl;
      let close = async () => {};
      if (opts.inProcess) {
        const { startObsim } = await import('../index.js');
        const sim = await startObsim({ config: { adminKey: opts.adminKey, contracts: opts.contracts } });
        baseUrl = sim.baseUrl;
        close = () => sim.close();
        log(`obsim started in this process on ${baseUrl}`);
      }
      const credentials = opts.sandbox
        ? { clientId: opts.sandbox, clientSecret: opts.partnerClientSecret! }
        : {
            clientId: opts.partnerClientId ?? SANDBOX_PARTNER.clientId,
            clientSecret: opts.partnerClientSecret ?? (opts.partnerClientId ? '' : DEFAULT_CREDENTIALS.clientSecret),
          };
      const session = new Session({ baseUrl, credentials, adminKey: opts.adminKey, contractVersion: opts.contractVersion });
      if (opts.newSandbox) {
        const created = (await TOOLS.find((t) => t.name === 'create_sandbox')!
          .run(session, {})
          .catch(async (err: unknown) => {
            await close();
            throw new CliExit(1, `obsim mcp: cannot create a sandbox on ${baseUrl}: ${(err as Error).message}`);
          })) as { sandboxId: string };
        log(`working in the new sandbox ${created.sandboxId}`);
      }
      const server = createMcpServer(session);
      const transport = new StdioServerTransport();
      const done = new Promise<void>((resolve) => {
        transport.onclose = () => resolve();
        process.stdin.on('end', () => resolve());
      });
      await server.connect(transport);
      log(`serving ${TOOLS.length} tools for ${baseUrl} on stdio`);
      await done;
      await server.close();
      await close();
    });
}
