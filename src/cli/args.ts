/** Argument parsers shared by the subcommands (wrong values exit 2 with commander's message). */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { SANDBOX_PARTNER } from '../config.js';
import { CliExit } from './exit.js';

export function portArg(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new InvalidArgumentError('expected a port number 0-65535');
  return Number(raw);
}

/** An http(s) URL; trailing slashes dropped (a base URL) unless `keepSlash` (a full target URL). */
export function urlArg(raw: string, opts: { keepSlash?: boolean } = {}): string {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new InvalidArgumentError('expected an http(s) URL, e.g. http://127.0.0.1:4010');
  }
  return opts.keepSlash ? raw : raw.replace(/\/+$/, '');
}

/** A whole number from 1 to `max`. */
export function positiveIntArg(max: number): (raw: string) => number {
  return (raw) => {
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
      throw new InvalidArgumentError(`expected a whole number from 1 to ${max}`);
    return Number(raw);
  };
}

/**
 * The options every command that talks to a running obsim as a partner takes: `--base-url`
 * (OBSIM_BASE_URL) and the partner's or sandbox's credentials (OBSIM_PARTNER_CLIENT_ID/SECRET,
 * as `eval "$(obsim sandbox create)"` exports them; default the sandbox partner).
 */
export function partnerTargetOptions(cmd: Command, baseUrlHelp = 'the simulator'): Command {
  return cmd
    .addOption(
      new Option('--base-url <url>', baseUrlHelp)
        .env('OBSIM_BASE_URL')
        .default('http://127.0.0.1:4010')
        .argParser((raw: string) => urlArg(raw)),
    )
    .addOption(
      new Option('--partner-client-id <id>', 'partner (or sandbox) client id')
        .env('OBSIM_PARTNER_CLIENT_ID')
        .default(SANDBOX_PARTNER.clientId),
    )
    .addOption(
      new Option('--partner-client-secret <secret>', 'partner (or sandbox) client secret')
        .env('OBSIM_PARTNER_CLIENT_SECRET')
        .default(SANDBOX_PARTNER.clientSecret),
    );
}

/** What a command that reads a whole sandbox (a report, a recording) is told to use. */
export interface SandboxReadOpts {
  baseUrl: string;
  partnerClientId: string;
  partnerClientSecret: string;
  adminKey?: string;
}

/**
 * GET a whole-sandbox read as the partner, with the admin key when given (`?sandbox=` names
 * another sandbox); its JSON. Unreachable or refused: exit 2 with what happened.
 */
export async function getSandboxRead<T>(opts: SandboxReadOpts, command: string, pathAndQuery: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${opts.baseUrl}${pathAndQuery}`, {
      headers: {
        'x-partner-client-id': opts.partnerClientId,
        'x-partner-client-secret': opts.partnerClientSecret,
        ...(opts.adminKey ? { 'x-obsim-admin-key': opts.adminKey } : {}),
      },
    });
  } catch (err) {
    throw new CliExit(2, `${command}: cannot reach ${opts.baseUrl} (${(err as Error).message}); is the simulator running? (--base-url)`);
  }
  const text = await res.text();
  if (!res.ok) throw new CliExit(2, `${command}: GET ${pathAndQuery} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}
