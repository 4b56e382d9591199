/**
 * `obsim contract changelog` and `obsim contract impact` against a listening simulator serving
 * the corpus (test/helpers/changelog-corpus.ts): the changelog as JSON and Markdown, the impact
 * as JUnit parsed by an XML parser, an admin's --sandbox, the exit codes a pipeline gates on, and
 * one line (exit 2) for an unknown version.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { convert } from 'xmlbuilder2';
import { defaultConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { CORPUS_CHANGES, CORPUS_DIR } from '../helpers/changelog-corpus.js';
import { runObsim } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));

t.test('obsim contract changelog and impact: formats, --sandbox and exit codes', async (t) => {
  const server = await startServer(
    { ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent', clockFrozen: true, contracts: CORPUS_DIR },
    () => undefined,
  );
  t.teardown(() => server.close());
  const dir = t.testdir({});
  const env = { OBSIM_BASE_URL: server.url };

  const json = await runObsim(['contract', 'changelog', '--from', 'corpus-a', '--to', 'corpus-b', '--format', 'json'], { env });
  t.equal(json.code, 0, json.stderr);
  const changelog = JSON.parse(json.stdout) as { changes: { id: string }[] };
  t.same(changelog.changes.map((c) => c.id).sort(), Object.keys(CORPUS_CHANGES).sort());
  const md = await runObsim(['contract', 'changelog', '--from', 'base', '--to', 'corpus-b'], { env });
  t.equal(md.code, 0);
  t.match(md.stdout, /^# Contract changes from base to corpus-b\n/);

  // a sandbox pinned to corpus-a makes one call; the default sandbox none
  const created = (await (
    await fetch(`${server.url}/_sandbox/sandboxes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contractVersion: 'corpus-a' }),
    })
  ).json()) as { sandboxId: string; credentials: { clientId: string; clientSecret: string } };
  const merchant = await fetch(`${server.url}/v1/partner/merchants/test`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-partner-client-id': created.credentials.clientId,
      'x-partner-client-secret': created.credentials.clientSecret,
    },
    body: JSON.stringify({ companyName: 'CLI ApS' }),
  });
  t.equal(merchant.status, 200);

  const xmlFile = join(dir, 'reports', 'impact.xml');
  const junit = await runObsim(
    ['contract', 'impact', '--to', 'corpus-b', '--sandbox', created.sandboxId, '--format', 'junit', '--out', xmlFile],
    {
      env,
    },
  );
  t.equal(junit.code, 1, 'a touched breaking change: exit 1');
  t.match(junit.stderr, `impact of corpus-b on ${created.sandboxId}: breaking (2 breaking of 2 touched;`);
  const suite = (convert(readFileSync(xmlFile, 'utf8'), { format: 'object' }) as any).testsuites.testsuite;
  const cases = [suite.testcase].flat();
  t.same(cases.map((c: any) => c.failure['@type']).sort(), ['new-required-request-property', 'response-property-became-optional']);

  const clear = await runObsim(['contract', 'impact', '--to', 'corpus-b', '--format', 'json'], { env });
  t.equal(clear.code, 0, 'the default sandbox touched nothing: exit 0');
  t.equal(JSON.parse(clear.stdout).verdict, 'clear');

  const unknown = await runObsim(['contract', 'impact', '--to', 'corpus-z'], { env });
  t.equal(unknown.code, 2);
  const lines = unknown.stderr.trim().split('\n');
  t.equal(lines.length, 1, unknown.stderr);
  t.match(lines[0], /^obsim contract impact: GET .* answered 400: .*the versions are base, corpus-a, corpus-b/);
  const missing = await runObsim(['contract', 'changelog', '--from', 'base'], { env });
  t.equal(missing.code, 2, 'wrong usage');
});
