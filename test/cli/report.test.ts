/**
 * `obsim report` against a listening simulator: the text report (no colour off a TTY), markdown,
 * JUnit parsed by an XML parser and matching the verdict, requirements files that pass, fail and
 * are refused with one line, and the exit codes a pipeline gates on.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import t from 'tap';
import { convert } from 'xmlbuilder2';
import { defaultConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { ROOT, runObsim } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));

const PARTNER = {
  'x-partner-client-id': 'sandbox-partner',
  'x-partner-client-secret': 'sandbox-secret',
  'content-type': 'application/json',
};

t.test('obsim report: formats, requirements and exit codes', async (t) => {
  const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent', clockFrozen: true }, () => undefined);
  t.teardown(() => server.close());
  const dir = mkdtempSync(join(tmpdir(), 'obsim-report-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { OBSIM_BASE_URL: server.url };
  const post = async (path: string, body: unknown) =>
    (await fetch(`${server.url}${path}`, { method: 'POST', headers: PARTNER, body: JSON.stringify(body) })).json() as Promise<any>;
  const m = await post('/v1/partner/merchants/test', { companyName: 'Report ApS' });
  await post('/v1/partner/payments', { merchantClientId: m.clientId, amount: 12, referenceNumber: 'r-1' });
  await post('/v1/partner/payments', { merchantClientId: m.clientId, amount: 12, referenceNumber: 'r-1' }); // a smell

  const text = await runObsim(['report'], { env });
  t.equal(text.code, 1, 'the default checklist is unmet: exit 1');
  t.match(text.stdout, /^obsim readiness report: sandbox sandbox-partner, /);
  t.match(text.stdout, /Verdict: UNMET \(\d+ met, \d+ unmet, \d+ not applicable\)/);
  t.match(text.stdout, /UNMET {2}Verifies webhook signatures/);
  t.match(text.stdout, /duplicate_reference_number .* docs\/readiness\.md#duplicate-reference-number/);
  t.match(text.stdout, /createPayment +POST \/v1\/partner\/payments +200×2/);
  t.notMatch(text.stdout, /\u001b\[/, 'no colour codes off a terminal');

  const xmlFile = join(dir, 'reports', 'readiness.xml');
  const junit = await runObsim(['report', '--format', 'junit', '--out', xmlFile], { env });
  t.equal(junit.code, 1);
  t.match(junit.stderr, `readiness of sandbox-partner: unmet`);
  t.equal(junit.stdout, '', 'the report went to the file');
  const doc = convert(readFileSync(xmlFile, 'utf8'), { format: 'object' }) as any;
  const suite = doc.testsuites.testsuite;
  const cases = [suite.testcase].flat();
  const failed = cases.filter((c: any) => c.failure !== undefined);
  t.equal(Number(suite['@failures']), failed.length, 'failures counted as the failing cases');
  t.ok(failed.length > 0, 'an unmet verdict has a failing case');
  t.ok(
    failed.some((c: any) => c['@name'].startsWith('no_smells')),
    'the smell fails its item',
  );
  t.equal([suite.properties.property].flat().find((p: any) => p['@name'] === 'verdict')['@value'], 'unmet');

  const met = join(dir, 'met.yaml');
  writeFileSync(
    met,
    'name: Payments only\noperations:\n  - createPayment\n  - operation: createTestMerchant\n    statuses: [200]\nstates:\n  payments: [pending]\n',
  );
  const ok = await runObsim(['report', '--require', met, '--format', 'json'], { env });
  t.equal(ok.code, 0, ok.stderr);
  const judged = JSON.parse(ok.stdout);
  t.equal(judged.verdict, 'met');
  t.equal(judged.checklistSource, 'Payments only');
  t.same(
    judged.checklist.map((i: any) => i.id),
    ['operation:createPayment', 'operation:createTestMerchant:200', 'state:payments:pending'],
    'the requirements replace the default checklist',
  );

  const unmet = join(dir, 'unmet.yaml');
  writeFileSync(unmet, 'operations:\n  - { operation: createPayment, statuses: [409, 4xx] }\nsmells: absent\n');
  const md = await runObsim(['report', '--require', unmet, '--format', 'markdown'], { env });
  t.equal(md.code, 1);
  t.match(md.stdout, /^## obsim readiness: ❌ unmet/);
  t.match(md.stdout, /\| ❌ unmet \| Meets 409 on createPayment/);
  t.match(md.stdout, /\| ❌ unmet \| Does nothing the report flags \| duplicate_reference_number/);

  const bad = join(dir, 'go-live.yaml');
  writeFileSync(bad, 'operations:\n  - createPayment\n  - operation: getPaymentStatus\n    statuses: [200, 7xx]\n');
  const badArg = relative(ROOT, bad); // as a user types it, relative to where obsim runs
  const refused = await runObsim(['report', '--require', badArg], { env });
  t.equal(refused.code, 2);
  t.equal(
    refused.stderr.trim(),
    `obsim report: ${badArg}: /operations/1/statuses/1: must be an HTTP status (100-599) or a class such as 4xx`,
    'one line: the file as given, the JSON pointer, the problem',
  );
  t.equal(refused.stdout, '');

  writeFileSync(bad, 'operations: [createPaymnt]\n');
  const unknown = await runObsim(['report', '--require', badArg], { env });
  t.equal(unknown.code, 2);
  t.equal(
    unknown.stderr.trim(),
    `obsim report: ${badArg}: /operations/0: unknown operation "createPaymnt": use an operationId of openapi.json or "METHOD /path/{template}"`,
  );

  const down = await runObsim(['report', '--base-url', 'http://127.0.0.1:9'], { env: {} });
  t.equal(down.code, 2, 'unreachable: exit 2, not a verdict');
  t.match(down.stderr, /cannot reach http:\/\/127\.0\.0\.1:9/);

  const schema = await runObsim(['report', '--requirements-schema'], { env });
  t.equal(schema.stdout, readFileSync(join(ROOT, 'readiness', 'requirements.schema.json'), 'utf8'), 'the published schema is current');
});
