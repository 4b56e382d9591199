/**
 * `obsim persona list|schema|check`: the shipped personas, the persona JSON Schema (for editors),
 * and a check of persona files without building them (exit 1 naming file, path and reason).
 */
import type { Command } from 'commander';
import { readdirSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { PersonaSchema } from '../../schemas/persona.js';
import { loadPersona, PersonaError, shippedPersonasDir } from '../personas/load.js';
import { CliExit } from './exit.js';

export function registerPersonaCommands(program: Command): void {
  const persona = program.command('persona').description('Personas: starting worlds for sandboxes (personas/*.yaml)');

  persona
    .command('list')
    .description('The shipped personas (use one: POST /_sandbox/sandboxes {"persona": "<name>"} or obsim serve --persona <name>)')
    .action(() => {
      const dir = shippedPersonasDir();
      for (const file of readdirSync(dir)
        .filter((f) => /\.(ya?ml|json)$/.test(f) && f !== 'persona.schema.json')
        .sort()) {
        const p = loadPersona(join(dir, file));
        console.log(`${basename(file, extname(file)).padEnd(24)} ${p.description ?? ''}`);
      }
    });

  persona
    .command('check')
    .description('Check persona files against the schema without building them; exit 1 when one is invalid')
    .argument('<files...>')
    .action((files: string[]) => {
      let bad = 0;
      for (const file of files) {
        try {
          const p = loadPersona(file);
          console.log(`ok       ${file} (${p.name}, ${p.merchants?.length ?? 0} merchants)`);
        } catch (err) {
          if (!(err instanceof PersonaError)) throw err;
          bad++;
          console.log(`invalid  ${err.message}`);
        }
      }
      if (bad > 0) throw new CliExit(1);
    });

  persona
    .command('schema')
    .description('Print the persona JSON Schema (or write it to a file)')
    .option('--out <file>', 'write to this file instead of standard output')
    .action((opts: { out?: string }) => {
      const text = `${JSON.stringify(PersonaSchema, null, 2)}\n`;
      if (opts.out) writeFileSync(opts.out, text);
      else process.stdout.write(text);
    });
}
