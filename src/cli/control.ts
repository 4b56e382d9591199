/**
 * What the CLI's control-API commands share (`obsim faults`, `obsim banks`): one call of the
 * sandbox control API with the sandbox's partner credentials, and a profile read from a YAML or
 * JSON file. A refusal exits 2 with the 400's JSON pointer and message on one line; so does a
 * simulator that cannot be reached.
 */
import { readFileSync } from 'node:fs';
import { lazyRequire } from '../lazy.js';
import { CliExit } from './exit.js';

const yaml = lazyRequire<typeof import('yaml')>('yaml');

export interface TargetOpts {
  baseUrl: string;
  partnerClientId: string;
  partnerClientSecret: string;
}

/** `method path` on the control API; the parsed answer, or exit 2 saying why not (`command` names who asked). */
export async function controlCall<T>(
  command: string,
  opts: TargetOpts,
  method: 'GET' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${opts.baseUrl}${path}`, {
      method,
      headers: {
        'x-partner-client-id': opts.partnerClientId,
        'x-partner-client-secret': opts.partnerClientSecret,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    throw new CliExit(2, `${command}: cannot reach ${opts.baseUrl} (${(err as Error).message}); is the simulator running? (--base-url)`);
  }
  const text = await res.text();
  if (!res.ok) {
    let why = text;
    try {
      const e = JSON.parse(text) as { field?: string; message?: string };
      why = e.message ?? text;
      if (e.field) why += ` (at ${e.field})`;
    } catch {
      /* not the error body: shown as it is */
    }
    throw new CliExit(2, `${command}: ${method} ${path} answered ${res.status}: ${why}`);
  }
  return JSON.parse(text) as T;
}

/** The object in a YAML or JSON file (a profile), or exit 2 saying what is wrong with it. */
export function readProfileFile(command: string, file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliExit(2, `${command}: cannot read ${file}: ${(err as Error).message}`);
  }
  let body: unknown;
  try {
    body = yaml().parse(text);
  } catch (err) {
    throw new CliExit(2, `${command}: ${file} is not YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new CliExit(2, `${command}: ${file}: a profile is an object`);
  return body as Record<string, unknown>;
}

/** `--seed`: a whole number 0–4294967295. */
export const seedArg =
  (command: string) =>
  (raw: string): number => {
    if (!/^\d+$/.test(raw) || Number(raw) > 4294967295)
      throw new CliExit(2, `${command}: --seed must be a whole number 0-4294967295, got "${raw}"`);
    return Number(raw);
  };
