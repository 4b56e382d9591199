/**
 * `obsim sandbox create|list|delete`: manage sandboxes on a running obsim.
 *
 *   eval "$(obsim sandbox create --clock-frozen --ttl 2h)"   # exports the new sandbox's credentials
 *   obsim trigger payment.completed                          # …which every other command reads
 *   obsim sandbox list
 *   obsim sandbox delete "$OBSIM_SANDBOX_ID"
 *
 * `create` prints only `export NAME=value` lines on standard output (values are ids and
 * base64url secrets, nothing a shell would interpret), and a human summary on standard error.
 */
import { type Command, Option } from 'commander';
import { urlArg } from './args.js';
import { CliExit } from './exit.js';

interface CommonOpts {
  baseUrl: string;
  adminKey?: string;
  json?: boolean;
}

interface CreateOpts extends CommonOpts {
  name?: string;
  ttl?: string;
  clockStart?: string;
  clockFrozen?: boolean;
  settleDelay?: string;
  approvalDelay?: string;
  paymentExpiry?: string;
  contractVersion?: string;
}

interface SandboxJson {
  sandboxId: string;
  name: string;
  expiresAt: string;
  clock: { now: string; frozen: boolean };
  contractVersion?: string;
  credentials?: { clientId: string; clientSecret: string };
  defaultMerchant?: { merchantId: number; clientId: string };
}

async function api<T>(opts: CommonOpts, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${opts.baseUrl}${path}`, {
      method,
      headers: {
        ...(opts.adminKey ? { 'x-obsim-admin-key': opts.adminKey } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new CliExit(1, `obsim sandbox: cannot reach ${opts.baseUrl} (${(err as Error).message}); is the simulator running? (--base-url)`);
  }
  const text = await res.text();
  if (!res.ok) throw new CliExit(1, `obsim sandbox: ${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** The lines `eval` runs: credentials under the names every obsim command reads. */
export function exportLines(created: SandboxJson): string[] {
  return [
    `export OBSIM_SANDBOX_ID=${created.sandboxId}`,
    `export OBSIM_PARTNER_CLIENT_ID=${created.credentials!.clientId}`,
    `export OBSIM_PARTNER_CLIENT_SECRET=${created.credentials!.clientSecret}`,
  ];
}

export function registerSandboxCommands(program: Command): void {
  const sandbox = program.command('sandbox').description('Create, list and delete sandboxes on a running obsim');
  const common = (cmd: Command) =>
    cmd
      .addOption(
        new Option('--base-url <url>', 'the simulator')
          .env('OBSIM_BASE_URL')
          .default('http://127.0.0.1:4010')
          .argParser((raw: string) => urlArg(raw)),
      )
      .addOption(new Option('--admin-key <key>', 'X-Obsim-Admin-Key, when the server runs with OBSIM_ADMIN_KEY').env('OBSIM_ADMIN_KEY'))
      .option('--json', 'print the JSON answer instead');
  const out = (s: string): void => void process.stdout.write(`${s}\n`);

  common(
    sandbox
      .command('create')
      .description('Create a sandbox; prints `export …` lines for eval (credentials, sandbox id)')
      .option('--name <name>', 'a name to recognise it by')
      .option('--ttl <duration>', 'idle time before it is removed (default 24h)')
      .option('--clock-start <instant>', 'its virtual clock starts at this ISO 8601 instant')
      .option('--clock-frozen', 'its virtual clock moves only when advanced')
      .option('--settle-delay <duration>', "this sandbox's settle delay")
      .option('--approval-delay <duration>', "this sandbox's approval delay")
      .option('--payment-expiry <duration>', "this sandbox's payment link lifetime")
      .option('--contract-version <name>', 'pin it to this contract version (docs/contract-versions.md)'),
  ).action(async (opts: CreateOpts) => {
    const body: Record<string, unknown> = {};
    if (opts.name !== undefined) body.name = opts.name;
    if (opts.ttl !== undefined) body.ttl = opts.ttl;
    if (opts.clockStart !== undefined || opts.clockFrozen) {
      body.clock = { ...(opts.clockStart ? { start: opts.clockStart } : {}), ...(opts.clockFrozen ? { frozen: true } : {}) };
    }
    if (opts.settleDelay !== undefined) body.settleDelay = opts.settleDelay;
    if (opts.approvalDelay !== undefined) body.approvalDelay = opts.approvalDelay;
    if (opts.paymentExpiry !== undefined) body.paymentExpiry = opts.paymentExpiry;
    if (opts.contractVersion !== undefined) body.contractVersion = opts.contractVersion;
    const created = await api<SandboxJson>(opts, 'POST', '/_sandbox/sandboxes', body);
    if (opts.json) return out(JSON.stringify(created, null, 2));
    for (const line of exportLines(created)) out(line);
    process.stderr.write(
      `sandbox ${created.sandboxId}: clock ${created.clock.now}${created.clock.frozen ? ' (frozen)' : ''}${created.contractVersion ? `, contract version ${created.contractVersion}` : ''}, default merchant ${created.defaultMerchant?.merchantId}, removed if idle until ${created.expiresAt}\n`,
    );
  });

  common(sandbox.command('list').description('List the sandboxes (id, name, clock, expiry)')).action(async (opts: CommonOpts) => {
    const list = await api<{ items: SandboxJson[]; total: number }>(opts, 'GET', '/_sandbox/sandboxes');
    if (opts.json) return out(JSON.stringify(list, null, 2));
    if (list.total === 0) return out('no sandboxes (create one: obsim sandbox create)');
    for (const s of list.items) {
      out(
        `${s.sandboxId}  ${s.name.padEnd(24)}  clock ${s.clock.now}${s.clock.frozen ? ' (frozen)' : '         '}  expires ${s.expiresAt}`,
      );
    }
  });

  common(sandbox.command('delete').description('Delete a sandbox and all its data').argument('<sandboxId>')).action(
    async (sandboxId: string, opts: CommonOpts) => {
      const deleted = await api<{ deleted: Record<string, number> }>(
        opts,
        'DELETE',
        `/_sandbox/sandboxes/${encodeURIComponent(sandboxId)}`,
      );
      if (opts.json) return out(JSON.stringify(deleted, null, 2));
      const counts = Object.entries(deleted.deleted)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ');
      out(`deleted ${sandboxId}${counts ? `: ${counts}` : ''}`);
    },
  );
}
