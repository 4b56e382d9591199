/**
 * A second, independent generator proves the documents: @hey-api/openapi-ts (its fetch client,
 * an SDK of one function per operationId) generates a partner's client from openapi.json and a
 * test harness's client from openapi-controls.json; the generated TypeScript and a program using
 * it compile with `tsc --strict`; the program then drives a full payment flow (test merchant,
 * webhook, payment, completion through the controls, status paid, the signed delivery received)
 * and an AIS read (token, consent, authorization, accounts, balance, transactions) against a
 * listening obsim. The generated names are the documents' operationIds. docs/openapi.md's
 * command and client block run as written.
 *
 * Everything generated goes to tmp/ (gitignored), inside the repository.
 */
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { build, PARTNER } from '../helpers/app.js';
import { ROOT } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';
import { strictDiagnostics } from '../helpers/typecheck.js';

t.setTimeout(scaled(180_000));

const docs = readFileSync(join(ROOT, 'docs/openapi.md'), 'utf8');
/** The code block after `<!-- example:NAME -->` in docs/openapi.md. */
function example(name: string, lang: string): string {
  const m = docs.match(new RegExp(`<!-- example:${name} -->\\n\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``));
  if (!m) throw new Error(`docs/openapi.md: no example:${name} block`);
  return m[1];
}

const FLOW = `
import { createClient } from './partner/client/index.js';
import * as partner from './partner/sdk.gen.js';
import * as controls from './controls/sdk.gen.js';
import type { Payment } from './partner/types.gen.js';

export async function run(baseUrl: string, clientId: string, clientSecret: string, receiverUrl: string) {
  // the partner credential headers are two apiKey schemes: the client asks for each by name
  const credentials = (auth: { name?: string }) => (auth.name === 'X-Partner-Client-Id' ? clientId : clientSecret);
  const client = createClient({ baseUrl, auth: credentials });

  const merchant = await partner.createTestMerchant({ client, body: { companyName: 'Generated Client ApS' }, throwOnError: true });
  const webhook = await partner.registerWebhook({
    client,
    body: { url: receiverUrl, events: ['payment.completed'] },
    throwOnError: true,
  });
  const created = await partner.createPayment({
    client,
    body: { merchantClientId: merchant.data.clientId, amount: 249.5, referenceNumber: 'GEN-0001' },
    throwOnError: true,
  });
  const completed = await controls.controlPayment({
    client,
    path: { paymentId: created.data.paymentId, action: 'complete' },
    body: {},
    throwOnError: true,
  });
  const status = await partner.getPaymentStatus({ client, path: { paymentId: created.data.paymentId }, throwOnError: true });
  const paid: Payment['status'] = status.data.status;
  const missing = await partner.getPaymentStatus({ client, path: { paymentId: 1 } });

  // account information: the bearer token is an http bearer scheme
  const userId = 'user-typical';
  const token = await partner.generateToken({
    client,
    body: { userId, merchantId: merchant.data.merchantId, permissions: ['ais:accounts:read', 'ais:balance:read', 'ais:transactions:read'] },
    throwOnError: true,
  });
  const ais = createClient({ baseUrl, auth: (auth) => (auth.scheme === 'bearer' ? token.data.token : undefined) });
  const consent = await partner.createConsent({
    client: ais,
    body: {
      merchantId: merchant.data.merchantId,
      userId,
      permissions: ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail'],
      expirationDateTime: '2099-01-01T00:00:00Z',
      transactionFromDateTime: '2020-01-01T00:00:00Z',
    },
    throwOnError: true,
  });
  await controls.controlConsent({ client, path: { requestId: consent.data.requestId, action: 'authorize' }, body: {}, throwOnError: true });
  const accounts = await partner.listAccounts({ client: ais, body: { userId, merchantId: merchant.data.merchantId }, throwOnError: true });
  const accountId = accounts.data.accounts[0].accountId;
  const balance = await partner.getAccountBalance({ client: ais, body: { userId, merchantId: merchant.data.merchantId, accountId }, throwOnError: true });
  const transactions = await partner.listAccountTransactions({
    client: ais,
    body: { userId, merchantId: merchant.data.merchantId, accountId, pageLimit: 5 },
    throwOnError: true,
  });

  // the generated types are strict: these must not compile
  // @ts-expect-error amount is a number
  void (() => partner.createPayment({ client, body: { merchantClientId: 'x', amount: '1.00', referenceNumber: 'r' } }));
  // @ts-expect-error obsim's controls are not in the partner's SDK
  void (() => partner.controlPayment);

  return {
    merchant: merchant.data,
    webhook: webhook.data,
    created: created.data,
    completed: completed.data,
    paid,
    missing: { status: missing.response?.status, code: missing.error?.code },
    consent: consent.data,
    accounts: accounts.data,
    balance: balance.data,
    transactions: transactions.data,
  };
}
`;

t.test('@hey-api/openapi-ts generates clients from both documents that compile strictly and drive a payment and an AIS read', async (t) => {
  const dir = join(ROOT, 'tmp', `generated-client-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');

  // docs/openapi.md's command, as written but for its input (the committed file) and output folder
  const command = example('hey-api', 'sh').trim().split(/\s+/);
  t.same(command.slice(0, 2), ['npx', '@hey-api/openapi-ts']);
  for (const [file, out] of [
    ['openapi.json', 'partner'],
    ['openapi-controls.json', 'controls'],
  ]) {
    const args = command.slice(2).map((arg, i, all) => (all[i - 1] === '-i' ? file : all[i - 1] === '-o' ? join(dir, out) : arg));
    const r = spawnSync(join(ROOT, 'node_modules/.bin/openapi-ts'), args, { cwd: ROOT, encoding: 'utf8' });
    t.equal(r.status, 0, `openapi-ts on ${file}: ${r.stderr}`);
  }
  const sdk = readFileSync(join(dir, 'partner/sdk.gen.ts'), 'utf8');
  for (const name of ['createPayment', 'getPaymentStatus', 'listAccountTransactions', 'generateToken', 'registerWebhook'])
    t.match(sdk, new RegExp(`export const ${name} = `), `the SDK has ${name}() (its operationId)`);
  t.notMatch(sdk, /export const (control|advanceClock|listDeliveries|postV1|getV1)/, 'no controls, no invented names');

  // docs/openapi.md's client block, against this simulator and the flow's test merchant
  const docExample = join(dir, 'doc-example.ts');
  const writeDocExample = (baseUrl: string, merchantClientId: string) =>
    writeFileSync(
      docExample,
      `/* c8 ignore start */\n${example('hey-api-client', 'ts')
        .replaceAll('./provider-client/', './partner/')
        .replace('http://127.0.0.1:4010', baseUrl)
        .replace("'…'", JSON.stringify(merchantClientId))}\nexport const result = data;\n`,
    );
  writeDocExample('http://127.0.0.1:4010', '00000000-0000-4000-8000-000000000000');

  const flow = join(dir, 'flow.ts');
  // written during the run: the marker keeps this generated program out of coverage
  writeFileSync(flow, `/* c8 ignore start */\n${FLOW}`);
  t.same(
    strictDiagnostics([flow, docExample, join(dir, 'partner/index.ts'), join(dir, 'controls/index.ts')]),
    [],
    'tsc --strict: no diagnostics',
  );

  const received: { body: Buffer; signature: unknown }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks), signature: req.headers['x-webhook-signature'] });
      res.end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  t.teardown(() => receiver.close());

  const app = await build(t);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const { run } = (await import(pathToFileURL(flow).href)) as { run: (...args: string[]) => Promise<any> };
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const r = await run(address, PARTNER['x-partner-client-id'], PARTNER['x-partner-client-secret'], receiverUrl);

  t.equal(r.merchant.status, 'activated');
  t.equal(r.created.status, 'pending');
  t.equal(r.created.amount, 249.5);
  t.equal(r.paid, 'paid', 'getPaymentStatus reads the payment paid');
  t.same(r.missing, { status: 404, code: 'payment_not_found' }, 'errors come back typed as ErrorBody');
  t.equal(r.consent.status, 'pending');
  t.ok(r.accounts.accounts.length > 0);
  t.equal(r.balance.accountId, r.accounts.accounts[0].accountId);
  t.ok(r.transactions.transactions.length > 0 && r.transactions.transactions.length <= 5);

  writeDocExample(address, r.merchant.clientId);
  const { result } = (await import(`${pathToFileURL(docExample).href}?run`)) as { result: { status: string; referenceNumber: string } };
  t.match(result, { status: 'pending', referenceNumber: 'order-1001' }, "docs/openapi.md's client block creates a payment");

  // the delivery is sent in the background: wait for it (real sockets), then recompute its signature
  // with the secret registerWebhook answered
  for (let i = 0; i < 500 && received.length === 0; i++) await new Promise((done) => setTimeout(done, 10));
  t.equal(received.length, 1, 'one delivery arrived');
  const delivery = received[0];
  t.match(JSON.parse(delivery.body.toString()), { event: 'payment.completed', data: { paymentId: r.created.paymentId, status: 'paid' } });
  t.equal(delivery.signature, createHmac('sha256', r.webhook.secret).update(delivery.body).digest('hex'), 'signed with the secret');
});
