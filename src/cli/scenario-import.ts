/**
 * `obsim scenario import`: a HAR file as a scenario file (docs/partner-tools.md, "A HAR becomes a
 * scenario"). The translation runs here, in the command's own process: no server is needed.
 *
 *   obsim scenario import FILE.har [--out FILE.yaml] [--name N]
 *
 * The summary (taken, left out and why, variables, values not expected and why) goes to standard
 * error; the scenario to --out or standard output. Exit 0 when a scenario was written; 1 when the
 * HAR has no entry for the provider's API (nothing written); 2 wrong usage, a file that cannot be
 * read, or one that is not HAR 1.2 (one line naming the failing pointer).
 */
import { type Command, InvalidArgumentError } from 'commander';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { defaultConfig } from '../config.js';
import { lifecycleSettings } from '../domain/settings.js';
import { HarImportError } from '../har-import/har.js';
import { importHar } from '../har-import/import.js';
import { CliExit } from './exit.js';

interface ImportOpts {
  out?: string;
  name?: string;
}

const PREFIX = 'obsim scenario import';

export function registerImportCommand(scenario: Command): void {
  scenario
    .command('import')
    .description(
      "Turn a HAR file (a browser's or proxy's network log, HAR 1.2) recorded against the provider's sandbox, obsim or a shadow into a scenario file that replays the story against obsim. Exit 1 when the HAR has no entry for the provider's API.",
    )
    .argument('<file>', 'the HAR file')
    .option('--out <file>', 'write the scenario to this file instead of standard output')
    .option('--name <name>', "the scenario's name (lower case, digits and dashes; default: from the file's name)", (raw: string) => {
      if (!/^[a-z0-9][a-z0-9-]{0,99}$/.test(raw)) throw new InvalidArgumentError('expected lower case letters, digits and dashes');
      return raw;
    })
    .action((file: string, opts: ImportOpts) => {
      let raw: Buffer;
      try {
        raw = readFileSync(file);
      } catch (err) {
        throw new CliExit(2, `${PREFIX}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      const fromFile = basename(file)
        .replace(/\.[^.]*$/, '')
        .toLowerCase()
        .replace(/[^a-z0-9-]+/g, '-')
        .replace(/^-+|-+$/g, '');
      let result: ReturnType<typeof importHar>;
      try {
        result = importHar(raw, {
          name: opts.name ?? (/^[a-z0-9]/.test(fromFile) ? fromFile.slice(0, 100) : 'imported-har'),
          origin: basename(file),
          settings: lifecycleSettings(defaultConfig()),
        });
      } catch (err) {
        if (!(err instanceof HarImportError)) throw err;
        throw new CliExit(err.kind === 'empty' ? 1 : 2, `${PREFIX}: ${file}: ${err.message}`);
      }
      if (opts.out) {
        mkdirSync(dirname(opts.out), { recursive: true });
        writeFileSync(opts.out, result.yaml);
      } else process.stdout.write(result.yaml);
      for (const line of result.lines) console.error(`${PREFIX}: ${line}`);
      if (opts.out) console.error(`${PREFIX}: wrote ${opts.out} (${result.summary.steps} steps)`);
    });
}
