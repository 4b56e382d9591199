/**
 * `obsim scenario record` against a listening simulator: a session recorded to a file that
 * `obsim scenario run --isolate` then passes; to standard output; an admin's --sandbox; nothing
 * to record (exit 1, the reason on standard error and in the file); bad ranges refused (exit 2).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { defaultConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { runObsim } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));

t.test('obsim scenario record: record a session, run the recording', async (t) => {
  const server = await startServer(
    { ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent', adminKey: 'admin-1' },
    () => undefined,
  );
  t.teardown(() => server.close());
  const dir = mkdtempSync(join(tmpdir(), 'obsim-record-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const created = (await (
    await fetch(`${server.url}/_sandbox/sandboxes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-obsim-admin-key': 'admin-1' },
      body: '{"name":"qa"}',
    })
  ).json()) as { sandboxId: string; credentials: { clientId: string; clientSecret: string } };
  const env = {
    OBSIM_BASE_URL: server.url,
    OBSIM_PARTNER_CLIENT_ID: created.credentials.clientId,
    OBSIM_PARTNER_CLIENT_SECRET: created.credentials.clientSecret,
    OBSIM_ADMIN_KEY: 'admin-1',
  };

  const empty = await runObsim(['scenario', 'record'], { env });
  t.equal(empty.code, 1, 'nothing to record: exit 1');
  t.match(empty.stderr, /Nothing to record: the journal of sbx_\w+ is empty/);
  t.match(empty.stdout, /^# /, 'the file says so in a comment');

  const played = await runObsim(['scenario', 'run', 'payment-paid'], { env });
  t.equal(played.code, 0, played.stdout);
  const file = join(dir, 'qa', 'checkout.yaml');
  const recorded = await runObsim(['scenario', 'record', '--name', 'checkout', '--out', file], { env });
  t.equal(recorded.code, 0, recorded.stderr);
  t.match(recorded.stderr, new RegExp(`${file.replace(/[.\\]/g, '\\$&')}: \\d+ steps from \\d+ journal entries and 1 deliveries`));
  const text = readFileSync(file, 'utf8');
  t.match(text, /^name: checkout$/m);
  t.notOk(text.includes(created.credentials.clientSecret), 'no secret');
  const replay = await runObsim(['scenario', 'run', file, '--isolate', '--quiet'], { env });
  t.equal(replay.code, 0, `the recording passes on a fresh sandbox\n${replay.stdout}`);

  const stdout = await runObsim(['scenario', 'record', '--sandbox', created.sandboxId, '--partner-client-id', 'nobody'], { env });
  t.equal(stdout.code, 0, 'an admin names the sandbox');
  t.match(stdout.stdout, /expectWebhook:\n\s+event: payment\.completed/);

  const bad = await runObsim(['scenario', 'record', '--since', 'last tuesday'], { env });
  t.equal(bad.code, 2);
  t.match(bad.stderr, /--since.*expected a journal entry id, an entry's request id \(x-request-id\) or an ISO 8601 instant/);
  const unknown = await runObsim(['scenario', 'record', '--since', 'req-never-sent'], { env });
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /answered 400: .*since: no journal entry of this sandbox has the request id \\"req-never-sent\\"/);
  const refused = await runObsim(['scenario', 'record', '--since', '9', '--until', '3'], { env });
  t.equal(refused.code, 2);
  t.match(refused.stderr, /answered 400: .*until \(#3\) is before since \(#9\)/);
});
