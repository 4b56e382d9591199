/**
 * A partner generates its client from a version's document (/openapi.json?version=NAME) with
 * @hey-api/openapi-ts: the client compiles with `tsc --strict` against that version's types (the
 * example version's new field is typed, its removed one is not), and drives a payment under the
 * version against a listening obsim. Generated code goes to tmp/ (gitignored).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { VirtualClock } from '../../src/clock.js';
import { build, PARTNER } from '../helpers/app.js';
import { ROOT } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';
import { strictDiagnostics } from '../helpers/typecheck.js';

t.setTimeout(scaled(180_000));

const V = '2027-03-01';

const FLOW = `
import { createClient } from './versioned/client/index.js';
import * as partner from './versioned/sdk.gen.js';
import type { Payment } from './versioned/types.gen.js';

export async function run(baseUrl: string, clientId: string, clientSecret: string) {
  const credentials = (auth: { name?: string }) => (auth.name === 'X-Partner-Client-Id' ? clientId : clientSecret);
  const client = createClient({ baseUrl, auth: credentials, headers: { 'Obsim-Contract-Version': '${V}' } });
  const merchant = await partner.createTestMerchant({ client, body: { companyName: 'Versioned Client ApS' }, throwOnError: true });
  const created = await partner.createPayment({
    client,
    body: { merchantClientId: merchant.data.clientId, amount: 10, referenceNumber: 'VER-1' },
    throwOnError: true,
  });
  const reference: Payment['paymentReference'] = created.data.paymentReference;
  const status: Payment['status'] = created.data.status;
  // @ts-expect-error merchantName is not part of this version's Payment
  void created.data.merchantName;
  const hook = await partner.registerWebhook({ client, body: { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] }, throwOnError: true });
  return { reference, status, paymentId: created.data.paymentId, webhookStatus: hook.response.status, webhook: hook.data };
}
`;

t.test("a client generated from a version's document compiles strictly and drives a payment under that version", async (t) => {
  const dir = join(ROOT, 'tmp', `versioned-client-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');

  const app = await build(t, {
    clock: VirtualClock.create({ start: '2027-04-01T00:00:00.000Z', frozen: true }),
    config: { contracts: 'examples/contracts' },
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const document = await fetch(`${address}/openapi.json?version=${V}`);
  t.equal(document.status, 200);
  writeFileSync(join(dir, 'openapi.json'), await document.text());
  const r = spawnSync(join(ROOT, 'node_modules/.bin/openapi-ts'), ['-i', join(dir, 'openapi.json'), '-o', join(dir, 'versioned')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  t.equal(r.status, 0, `openapi-ts: ${r.stderr}`);

  const flow = join(dir, 'flow.ts');
  writeFileSync(flow, `/* c8 ignore start */\n${FLOW}`);
  const diagnostics = strictDiagnostics([flow, join(dir, 'versioned/index.ts')]);
  t.same(diagnostics, [], 'tsc --strict: no diagnostics (and the removed field is a type error)');

  const { run } = (await import(pathToFileURL(flow).href)) as { run: (...args: string[]) => Promise<any> };
  const result = await run(address, PARTNER['x-partner-client-id'], PARTNER['x-partner-client-secret']);
  t.equal(result.reference, `PAY-${result.paymentId}`, "the version's new field arrived, typed");
  t.equal(result.status, 'pending');
  t.equal(result.webhookStatus, 201, "the version's status code");
  t.match(result.webhook, { url: 'http://127.0.0.1:9/hook' }, 'a 201 the client reads as its success');
});
