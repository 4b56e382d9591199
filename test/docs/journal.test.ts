/**
 * docs/journal.md: the "Try it" block runs verbatim (bash, curl, jq) against a listening
 * simulator and prints exactly what the page says it prints; the page names every matcher field
 * and every setting of the journal.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import t from 'tap';
import { REQUEST_MATCHER } from '../../schemas/journal.js';
import { defaultConfig, SETTINGS } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { scaled } from '../helpers/speed.js';

const page = readFileSync(new URL('../../docs/journal.md', import.meta.url), 'utf8');
const missing = ['bash', 'curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

t.test(
  'the Try it block prints what the page says',
  { skip: missing.length > 0 && !process.env.CI ? `${missing.join(', ')} not installed` : false },
  async (t) => {
    const block = page.match(
      /<!-- journal-example:start -->\n```sh\n([\s\S]*?)```\n<!-- journal-example:end -->\n\nprints\n\n```\n([\s\S]*?)```/,
    );
    if (!block) throw new Error('docs/journal.md: no example block followed by its output');
    const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent' }, () => undefined);
    t.teardown(() => server.close());
    const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', block[1]], {
      env: { ...process.env, OBSIM: server.url },
      encoding: 'utf8',
      timeout: scaled(30_000),
    });
    t.equal(run.stdout, block[2]);
  },
);

t.test('every matcher field and every journal setting is on the page', async (t) => {
  for (const field of Object.keys(REQUEST_MATCHER.properties)) t.match(page, `\`${field}\``, `matcher field ${field}`);
  for (const s of SETTINGS.filter((x) => x.key.startsWith('journal'))) t.match(page, s.flag, `${s.flag}`);
});
