/**
 * `obsim collection`: the provider's API as a Postman or Bruno collection of a sandbox on a
 * running obsim (GET /_sandbox/collections/*, docs/partner-tools.md), written to a folder.
 *
 *   obsim collection --format postman --out collections/          # the collection and its environment
 *   obsim collection --format bruno --sandbox "$OBSIM_SANDBOX_ID" --contract-version 2027-03-01 --out collections/
 *
 * Postman: two files (`….postman_collection.json`, `….postman_environment.json`); Bruno: the
 * collection folder, unzipped. Wrong usage, an unreachable or refusing obsim: exit 2, one line.
 */
import { type Command, Option } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { partnerTargetOptions } from './args.js';
import { CliExit } from './exit.js';

export const COLLECTION_FORMATS = ['postman', 'bruno'] as const;
type Format = (typeof COLLECTION_FORMATS)[number];

interface CollectionOpts {
  baseUrl: string;
  partnerClientId: string;
  partnerClientSecret: string;
  sandbox?: string;
  contractVersion?: string;
  format: Format;
  out: string;
}

const COMMAND = 'obsim collection';

/** `--format`: a wrong one is one line and exit 2, not commander's usage text. */
function formatArg(raw: string): Format {
  if (!(COLLECTION_FORMATS as readonly string[]).includes(raw))
    throw new CliExit(2, `${COMMAND}: --format must be ${COLLECTION_FORMATS.join(' or ')}, got ${JSON.stringify(raw)}`);
  return raw as Format;
}

async function get(opts: CollectionOpts, path: string): Promise<{ body: Buffer; file: string }> {
  const query = opts.contractVersion === undefined ? '' : `?version=${encodeURIComponent(opts.contractVersion)}`;
  let res: Response;
  try {
    res = await fetch(`${opts.baseUrl}${path}${query}`, {
      headers: {
        'x-partner-client-id': opts.sandbox ?? opts.partnerClientId,
        'x-partner-client-secret': opts.partnerClientSecret,
      },
    });
  } catch (err) {
    throw new CliExit(2, `${COMMAND}: cannot reach ${opts.baseUrl} (${(err as Error).message}); is the simulator running? (--base-url)`);
  }
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok) {
    let why = body.toString('utf8');
    try {
      const e = JSON.parse(why) as { field?: string; message?: string };
      why = `${e.message ?? why}${e.field ? ` (at ${e.field})` : ''}`;
    } catch {
      /* not the error body: shown as it is */
    }
    throw new CliExit(2, `${COMMAND}: GET ${path}${query} answered ${res.status}: ${why}`);
  }
  const file = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'collection';
  return { body, file };
}

/** Writes what was asked for into `opts.out`; the paths written, for the one line printed. */
export async function writeCollection(opts: CollectionOpts): Promise<string[]> {
  const written: string[] = [];
  const write = (path: string, data: Uint8Array) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
    written.push(path);
  };
  if (opts.format === 'postman') {
    for (const path of ['/_sandbox/collections/postman', '/_sandbox/collections/postman/environment']) {
      const { body, file } = await get(opts, path);
      write(join(opts.out, file), body);
    }
    return written;
  }
  const { body } = await get(opts, '/_sandbox/collections/bruno');
  const { unzipSync } = await import('fflate');
  const entries = unzipSync(new Uint8Array(body));
  for (const [name, data] of Object.entries(entries)) {
    const path = normalize(name);
    if (path.startsWith('..') || path.startsWith(sep))
      throw new CliExit(2, `${COMMAND}: the archive names a path outside the folder: ${name}`);
    if (!name.endsWith('/')) write(join(opts.out, path), data);
  }
  return [join(opts.out, Object.keys(entries)[0].split('/')[0])];
}

export function registerCollectionCommand(program: Command): void {
  const command = program
    .command('collection')
    .description("The provider's API as a Postman or Bruno collection of a sandbox, with its environment (docs/partner-tools.md)");
  partnerTargetOptions(command)
    .addOption(
      new Option('--format <format>', 'postman (a collection and an environment file) or bruno (a collection folder)').argParser(formatArg),
    )
    .option('--sandbox <id>', 'a created sandbox (its secret from --partner-client-secret / OBSIM_PARTNER_CLIENT_SECRET)')
    .option('--contract-version <name>', "the contract version (default: the sandbox's pin); obsim's --version prints obsim's own")
    .option('--out <dir>', 'the folder to write into (created when missing)')
    .action(async (opts: Partial<CollectionOpts> & Omit<CollectionOpts, 'format' | 'out'>) => {
      if (!opts.format) throw new CliExit(2, `${COMMAND}: --format postman or --format bruno is required`);
      if (!opts.out) throw new CliExit(2, `${COMMAND}: --out DIR is required`);
      const written = await writeCollection({ ...opts, format: opts.format, out: opts.out });
      console.log(`${COMMAND}: wrote ${written.join(', ')}`);
    });
}
