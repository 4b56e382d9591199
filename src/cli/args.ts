/** Argument parsers shared by the subcommands (wrong values exit 2 with commander's message). */
import { InvalidArgumentError } from 'commander';

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
