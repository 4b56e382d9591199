/**
 * Generate the documentation tables that must never drift from the code:
 *   - configuration (from SETTINGS in src/config.ts) in docs/configuration.md, between
 *     <!-- config-table:start/end -->
 *   - error codes (from ERROR_CATALOGUE in src/domain/errors.ts) in docs/errors.md, between
 *     <!-- error-table:start/end -->
 *   - the checks of `obsim check-receiver` (src/webhooks/receiver-check.ts) in
 *     docs/scenarios-and-cli.md, between <!-- receiver-checks:start/end -->
 *
 *   npm run docs:tables            rewrite them
 *   npm run docs:tables -- --check exit 1 when one is out of date
 *
 * test/docs/tables.test.ts fails when a table is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS, type Setting } from '../src/config.js';
import { ERROR_CATALOGUE } from '../src/domain/errors.js';
import { receiverChecks } from '../src/webhooks/receiver-check.js';

const DOCS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'docs');

/** Each generated table: the page it lives in, its marker name, and how it is rendered. */
export const TABLES = [
  { path: resolve(DOCS, 'configuration.md'), name: 'config-table', render: () => renderConfigTable() },
  { path: resolve(DOCS, 'errors.md'), name: 'error-table', render: () => renderErrorTable() },
  { path: resolve(DOCS, 'scenarios-and-cli.md'), name: 'receiver-checks', render: () => renderReceiverChecks() },
] as const;

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

export function renderReceiverChecks(): string {
  const lines = ['| Check | What is sent | A good receiver answers | If not |', '|---|---|---|---|'];
  for (const c of receiverChecks()) lines.push(`| \`${c.id}\` | ${cell(c.sends)} | ${cell(c.expected)} | ${cell(c.advice)} |`);
  return lines.join('\n');
}

function replaceBetween(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`the page lacks the ${start} … ${end} markers`);
  return `${text.slice(0, i + start.length)}\n${content}\n${text.slice(j)}`;
}

/** A page's text with its generated table brought up to date. */
export function updateTable(text: string, table: (typeof TABLES)[number]): string {
  return replaceBetween(text, table.name, table.render());
}

function main(argv: string[]): void {
  let stale = 0;
  for (const table of TABLES) {
    const current = readFileSync(table.path, 'utf8');
    const next = updateTable(current, table);
    if (next === current) continue;
    if (argv.includes('--check')) {
      console.error(`${table.path}: the ${table.name} is out of date: run \`npm run docs:tables\``);
      stale++;
    } else writeFileSync(table.path, next);
  }
  if (stale > 0) process.exit(1);
  console.log(argv.includes('--check') ? 'tables are up to date' : 'tables written');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
