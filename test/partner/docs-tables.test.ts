import { readFileSync } from 'node:fs';
import t from 'tap';
import { README_PATH, renderConfigTable, renderErrorTable, updateTables } from '../../scripts/docs-tables.js';
import { SETTINGS } from '../../src/config.js';
import { ERROR_CATALOGUE } from '../../src/domain/errors.js';

t.test('README configuration and error tables are generated from the code and up to date', async (t) => {
  const readme = readFileSync(README_PATH, 'utf8');
  t.equal(updateTables(readme), readme, 'README.md tables are out of date: run `npm run docs:tables`');
});

t.test('the tables list every setting and every error code', async (t) => {
  const config = renderConfigTable();
  for (const s of SETTINGS) {
    t.match(config, `\`${s.env}\``);
    t.match(config, `\`${s.flag}`);
  }
  const errors = renderErrorTable();
  for (const [code, { status }] of Object.entries(ERROR_CATALOGUE)) t.match(errors, `| ${status} | \`${code}\` |`);
});

t.test('updateTables is idempotent and keeps the text around the markers', async (t) => {
  const text =
    'a\n<!-- config-table:start -->\nold\n<!-- config-table:end -->\nb\n<!-- error-table:start -->\n<!-- error-table:end -->\nc\n';
  const once = updateTables(text);
  t.equal(updateTables(once), once);
  t.ok(once.startsWith('a\n<!-- config-table:start -->\n| Flag'));
  t.ok(once.endsWith('<!-- error-table:end -->\nc\n'));
  t.notMatch(once, 'old');
  t.throws(() => updateTables('no markers'));
});
