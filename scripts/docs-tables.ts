/**
 * Generate the README tables that must never drift from the code:
 *   - configuration (from SETTINGS in src/config.ts) between <!-- config-table:start/end -->
 *   - error codes   (from ERROR_CATALOGUE in src/domain/errors.ts) between <!-- error-table:start/end -->
 *
 *   npm run docs:tables            rewrite README.md
 *   npm run docs:tables -- --check exit 1 when README.md is out of date
 *
 * test/partner/docs-tables.test.ts fails when the README is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS, type Setting } from '../src/config.js';
import { ERROR_CATALOGUE } from '../src/domain/errors.js';

export const README_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'README.md');

/** One table cell: pipes escaped, one line, `<`/`>` outside code spans as entities (Markdown would eat them). */
const cell = (s: string) =>
  s
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ')
    .split('`')
    .map((part, i) => (i % 2 === 0 ? part.replace(/</g, '&lt;').replace(/>/g, '&gt;') : part))
    .join('`');

function defaultText(setting: Setting): string {
  if (setting.defaultText !== undefined) return setting.defaultText;
  if (setting.default === undefined) return 'unset';
  return `\`${String(setting.default)}\``;
}

export function renderConfigTable(): string {
  const lines = ['| Flag (`obsim serve`) | Environment variable | Default | Meaning |', '|---|---|---|---|'];
  for (const s of SETTINGS as readonly Setting[]) {
    const flag = s.boolean ? `\`${s.flag}\`` : `\`${s.flag} <value>\``;
    lines.push(`| ${flag} | \`${s.env}\` | ${cell(defaultText(s))} | ${cell(s.help)} |`);
  }
  lines.push(
    '',
    'Flags override environment variables. Durations accept `500ms`, `5s`, `2m`, `1h`, `7d` or bare milliseconds; booleans accept `true/false/1/0/yes/no/on/off`.',
  );
  return lines.join('\n');
}

export function renderErrorTable(): string {
  const lines = ['| HTTP status | `code` | Meaning |', '|---|---|---|'];
  for (const [code, { status, message }] of Object.entries(ERROR_CATALOGUE)) {
    lines.push(`| ${status} | \`${code}\` | ${cell(message)} |`);
  }
  return lines.join('\n');
}

function replaceBetween(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`README.md lacks the ${start} … ${end} markers`);
  return `${text.slice(0, i + start.length)}\n${content}\n${text.slice(j)}`;
}

/** README text with both generated tables brought up to date. */
export function updateTables(readme: string): string {
  return replaceBetween(replaceBetween(readme, 'config-table', renderConfigTable()), 'error-table', renderErrorTable());
}

function main(argv: string[]): void {
  const current = readFileSync(README_PATH, 'utf8');
  const next = updateTables(current);
  if (argv.includes('--check')) {
    if (next !== current) {
      console.error('README.md tables are out of date: run `npm run docs:tables`');
      process.exit(1);
    }
    console.log('README.md tables are up to date');
    return;
  }
  if (next !== current) writeFileSync(README_PATH, next);
  console.log(next === current ? 'README.md tables already up to date' : 'README.md tables updated');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
