import { readFileSync } from 'node:fs';
import t from 'tap';
import { renderConfigTable, renderErrorTable, renderReceiverChecks, TABLES, updateTable } from '../../scripts/docs-tables.js';
import { SETTINGS } from '../../src/config.js';
import { ERROR_CATALOGUE } from '../../src/domain/errors.js';
import { receiverChecks } from '../../src/webhooks/receiver-check.js';

t.test('the configuration, error and receiver-check tables in docs/ are generated from the code and up to date', async (t) => {
  for (const table of TABLES) {
    const text = readFileSync(table.path, 'utf8');
    t.equal(updateTable(text, table), text, `${table.path}: ${table.name} is out of date: run \`npm run docs:tables\``);
  }
});

t.test('the tables list every setting, every error code and every receiver check', async (t) => {
  const config = renderConfigTable();
  for (const s of SETTINGS) {
    t.match(config, `\`${s.env}\``);
    t.match(config, `\`${s.flag}`);
  }
  const errors = renderErrorTable();
  for (const [code, { status }] of Object.entries(ERROR_CATALOGUE)) t.match(errors, `| ${status} | \`${code}\` |`);
  const checks = renderReceiverChecks();
  t.equal(receiverChecks().length, 12);
  for (const c of receiverChecks()) t.match(checks, `| \`${c.id}\` |`);
});

t.test('updateTable is idempotent and keeps the text around the markers', async (t) => {
  const [config, errors] = TABLES;
  const text =
    'a\n<!-- config-table:start -->\nSTALE-ROWS\n<!-- config-table:end -->\nb\n<!-- error-table:start -->\n<!-- error-table:end -->\nc\n';
  const once = updateTable(updateTable(text, config), errors);
  t.equal(updateTable(updateTable(once, config), errors), once);
  t.ok(once.startsWith('a\n<!-- config-table:start -->\n| Flag'));
  t.ok(once.endsWith('<!-- error-table:end -->\nc\n'));
  t.notMatch(once, 'STALE-ROWS');
  t.throws(() => updateTable('no markers', config));
});
