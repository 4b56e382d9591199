/**
 * docs/lifecycle-and-webhooks.md and docs/sandbox-controls.md hold the current state diagrams, events and magic amounts;
 * the Transitions example runs verbatim (bash, curl, jq) and prints what the page says.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import t from 'tap';
import { defaultConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { docsPage, missingTools } from '../helpers/docs.js';
import { MAGIC_AMOUNTS } from '../../src/domain/magic.js';
import { lifecycleDiagrams } from '../../src/domain/diagrams.js';
import { envelopeProblems, EVENT_DATA } from '../helpers/contract.js';
import { scaled } from '../helpers/speed.js';

const lifecycle = readFileSync(new URL('../../docs/lifecycle-and-webhooks.md', import.meta.url), 'utf8');
const controls = readFileSync(new URL('../../docs/sandbox-controls.md', import.meta.url), 'utf8');
const section = `${lifecycle}\n${controls.slice(0, controls.indexOf('### Hosted pages'))}`;

t.test('README contains the Mermaid diagram generated from each transition table', async (t) => {
  for (const [name, diagram] of Object.entries(lifecycleDiagrams())) {
    t.ok(section.includes('```mermaid\n' + diagram + '\n```'), `${name} diagram is current (regenerate with src/engine/docs.ts)`);
  }
});

t.test('README lists every magic amount and every event', async (t) => {
  for (const m of MAGIC_AMOUNTS) t.match(section, `| payment \`amount\` | \`${m.amount.toFixed(2)}\` |`);
  for (const event of Object.keys(EVENT_DATA)) {
    t.match(section, `| \`${event}\` |`, `${event} in the events table`);
    t.match(section, `{"event":"${event}"`, `${event} example payload`);
  }
});

t.test('README example payloads match the contract tables', async (t) => {
  const lines = section.split('\n').filter((l) => l.startsWith('{"event":'));
  t.equal(lines.length, Object.keys(EVENT_DATA).length);
  for (const line of lines) {
    const body = JSON.parse(line);
    t.same(envelopeProblems(body, body.event), [], body.event);
  }
});

const missingShell = missingTools('bash', 'curl', 'jq');
t.test(
  'the Transitions example prints what the page says',
  { skip: missingShell.length > 0 && !process.env.CI ? `${missingShell.join(', ')} not installed` : false },
  async (t) => {
    const page = docsPage('docs/lifecycle-and-webhooks.md');
    const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent' }, () => undefined);
    t.teardown(() => server.close());
    const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', page.block('transitions-example', 'sh')], {
      env: { ...process.env, OBSIM: server.url },
      encoding: 'utf8',
      timeout: scaled(30_000),
    });
    t.equal(run.stdout, page.printed('transitions-example'));
  },
);
