/** The "Sandbox control API" section of docs/sandbox-controls.md documents every /_sandbox operation of the controls document (openapi-controls.json). */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { scaled } from '../helpers/speed.js';

const readme = readFileSync(new URL('../../docs/sandbox-controls.md', import.meta.url), 'utf8');
const openapi = JSON.parse(readFileSync(new URL('../../openapi-controls.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};
const start = readme.indexOf('### Sandbox control API');
const section = readme.slice(start, readme.indexOf('\n### ', start + 1));

t.test('every /_sandbox operation of openapi-controls.json is in the README control API section', async (t) => {
  t.ok(start > 0, 'README has a "Sandbox control API" section');
  const ops = Object.entries(openapi.paths)
    .filter(([path]) => path.startsWith('/_sandbox'))
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
  t.ok(ops.length >= 14, `${ops.length} sandbox operations`);
  for (const op of ops) t.ok(section.includes(`\`${op}`), `${op} is documented`);
  // and the other way round: the section documents no operation that does not exist
  const documented = [...section.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/_sandbox[^`?\s]*)/g)].map((m) => `${m[1]} ${m[2]}`);
  for (const op of new Set(documented)) t.ok(ops.includes(op), `${op} (README) exists in openapi-controls.json`);
});

t.test('the "Sandboxes" examples run as written: curl creates one, the eval block drives and deletes one', async (t) => {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const { startServer } = await import('../../src/server.js');
  const { defaultConfig } = await import('../../src/config.js');
  const { BIN, ROOT } = await import('../helpers/processes.js');
  const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent' }, () => undefined);
  t.teardown(() => server.close());

  const section = readme.slice(readme.indexOf('### Sandboxes'), readme.indexOf('### Magic values'));
  const blocks = [...section.matchAll(/```(sh|json)\n([\s\S]*?)\n```/g)].map((m) => ({ lang: m[1], text: m[2] }));
  t.same(
    blocks.map((b) => b.lang),
    ['sh', 'json', 'sh'],
  );
  const run = (script: string) =>
    promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: ROOT,
      env: { ...process.env, OBSIM_BASE_URL: server.url },
      encoding: 'utf8',
      timeout: scaled(120_000),
    });

  const created = JSON.parse((await run(blocks[0].text.replace(/http:\/\/127\.0\.0\.1:4010/g, server.url))).stdout);
  const documentedKeys = [...blocks[1].text.matchAll(/^ {2}"(\w+)":/gm)].map((m) => m[1]).sort();
  t.same(Object.keys(created).sort(), documentedKeys, 'the answer has the documented fields');
  t.match(created, {
    name: 'checkout tests',
    ttlMs: 7_200_000,
    clock: { now: '2030-01-01T00:00:00.000Z', frozen: true },
    settings: { settleDelayMs: 10_000 },
  });

  const script = blocks[2].text.replace(/npx obsim/g, `node ${BIN.join(' ')}`);
  const out = await run(script);
  t.match(out.stdout, /PASS payment-paid/, 'the scenario passed in the new sandbox');
  t.match(out.stdout, /^sbx_\w+ {2}sbx_\w+ +clock \S+ \(frozen\)/m, 'list shows it');
  t.match(out.stdout, /^deleted sbx_\w+: /m, 'and it is deleted');
  t.equal(
    ((await fetch(`${server.url}/_sandbox/sandboxes`).then((r) => r.json())) as { total: number }).total,
    1,
    'only the curl-created one is left',
  );
});
