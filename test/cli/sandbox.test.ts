/**
 * `obsim sandbox create|list|delete` against a listening simulator: create prints export lines an
 * `eval` can run (and nothing else on standard output), the exported credentials work, list shows
 * the sandbox, delete removes it (a second delete fails with exit 1), --json prints the answer.
 */
import t from 'tap';
import { defaultConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { runObsim } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));

t.test('create, use, list, delete', async (t) => {
  const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent' }, () => undefined);
  t.teardown(() => server.close());
  const env = { OBSIM_BASE_URL: server.url };

  const created = await runObsim(
    ['sandbox', 'create', '--name', 'cli test', '--clock-frozen', '--clock-start', '2031-05-01T00:00:00Z', '--ttl', '2h'],
    {
      env,
    },
  );
  t.equal(created.code, 0, created.stderr);
  const lines = created.stdout.trim().split('\n');
  t.equal(lines.length, 3, 'only export lines on standard output');
  for (const line of lines) t.match(line, /^export OBSIM_[A-Z_]+=[A-Za-z0-9_-]+$/, 'shell-safe');
  const vars = Object.fromEntries(lines.map((l) => l.slice('export '.length).split('=') as [string, string]));
  t.equal(vars.OBSIM_PARTNER_CLIENT_ID, vars.OBSIM_SANDBOX_ID);
  t.match(created.stderr, /^sandbox sbx_\w+: clock 2031-05-01T00:00:00.000Z \(frozen\), default merchant \d+, removed if idle until /);

  const clock = await fetch(`${server.url}/_sandbox/clock`, {
    headers: { 'x-partner-client-id': vars.OBSIM_PARTNER_CLIENT_ID, 'x-partner-client-secret': vars.OBSIM_PARTNER_CLIENT_SECRET },
  });
  t.match(await clock.json(), { now: '2031-05-01T00:00:00.000Z', frozen: true }, 'the exported credentials work');

  const list = await runObsim(['sandbox', 'list'], { env });
  t.equal(list.code, 0);
  t.match(list.stdout, new RegExp(`^${vars.OBSIM_SANDBOX_ID}  cli test +clock 2031-05-01T00:00:00.000Z \\(frozen\\)  expires `));
  const json = await runObsim(['sandbox', 'list', '--json'], { env });
  t.match(JSON.parse(json.stdout), { total: 1, items: [{ sandboxId: vars.OBSIM_SANDBOX_ID, name: 'cli test' }] });

  const del = await runObsim(['sandbox', 'delete', vars.OBSIM_SANDBOX_ID], { env });
  t.equal(del.code, 0, del.stderr);
  t.match(del.stdout, new RegExp(`^deleted ${vars.OBSIM_SANDBOX_ID}: 1 merchants`));
  const again = await runObsim(['sandbox', 'delete', vars.OBSIM_SANDBOX_ID], { env });
  t.equal(again.code, 1);
  t.match(again.stderr, /answered 404: .*sandbox_not_found/);
  t.equal((await runObsim(['sandbox', 'list'], { env })).stdout.trim(), 'no sandboxes (create one: obsim sandbox create)');
});
