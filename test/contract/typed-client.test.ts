/**
 * Clients generated from the committed documents by tools no one here wrote (openapi-typescript
 * for the types, openapi-fetch for the calls) run the main happy paths against a listening
 * simulator: a partner's client from openapi.json (the provider API only), and a test harness's
 * client from openapi-controls.json (health, authorizing a consent). The client program is type-checked against the generated
 * types first (including `@ts-expect-error` lines proving the types are strict), then executed.
 *
 * Everything generated goes to tmp/ (gitignored), inside the repository so that the client
 * resolves openapi-fetch from node_modules.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import t from 'tap';
import ts from 'typescript';
import { build, PARTNER } from '../helpers/app.js';
import { scaled } from '../helpers/speed.js';

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './api.js';
import type { paths as ControlPaths } from './controls.js';

export async function run(baseUrl: string, headers: Record<string, string>) {
  const client = createClient<paths>({ baseUrl, headers });
  const controls = createClient<ControlPaths>({ baseUrl, headers });

  const health = await controls.GET('/healthz');

  const standard = await client.POST('/v1/partner/merchants', {
    body: { companyName: 'Typed Client ApS', contactEmail: 'typed@example.test', partnerRefId: 'typed-1' },
  });
  if (!standard.data) throw new Error('create merchant: ' + JSON.stringify(standard.error));
  const onboarding = await client.GET('/v1/partner/merchants/{merchantId}/onboarding-status', {
    params: { path: { merchantId: standard.data.merchantId } },
  });

  const test = await client.POST('/v1/partner/merchants/test', { body: { companyName: 'Typed Test Shop' } });
  if (!test.data) throw new Error('test merchant: ' + JSON.stringify(test.error));

  const list = await client.GET('/v1/partner/merchants', { params: { query: { page: 1, limit: 10 } } });

  const payment = await client.POST('/v1/partner/payments', {
    body: { merchantClientId: test.data.clientId, amount: 125.5, referenceNumber: 'TYPED-0001' },
  });
  if (!payment.data) throw new Error('payment: ' + JSON.stringify(payment.error));
  const status = await client.GET('/v1/partner/payments/{paymentId}/status', {
    params: { path: { paymentId: payment.data.paymentId } },
  });
  const paymentStatus: 'pending' | 'processing' | 'paid' | 'failed' | undefined = status.data?.status;

  const webhook = await client.POST('/v1/partner/webhooks', {
    body: { url: 'https://hooks.example.test/obsim', events: ['payment.completed', 'payment.failed'] },
  });
  if (!webhook.data) throw new Error('webhook: ' + JSON.stringify(webhook.error));
  const webhookTest = await client.POST('/v1/partner/webhooks/{id}/test', { params: { path: { id: webhook.data.id } } });

  // account information: token -> consent -> authorize (control call) -> accounts
  const userId = 'typed-user-1';
  const token = await client.POST('/v1/auth/generate-token', {
    body: { userId, merchantId: test.data.merchantId, permissions: ['ais:accounts:read', 'ais:balance:read'] },
  });
  if (!token.data) throw new Error('token: ' + JSON.stringify(token.error));
  const bearer = { Authorization: 'Bearer ' + token.data.token };
  const consent = await client.POST('/v1/ais/consents', {
    headers: bearer,
    body: {
      merchantId: test.data.merchantId,
      userId,
      permissions: ['ReadAccountsDetail', 'ReadBalances'],
      expirationDateTime: '2026-12-31T00:00:00Z',
      transactionFromDateTime: '2025-01-01T00:00:00Z',
    },
  });
  if (!consent.data) throw new Error('consent: ' + JSON.stringify(consent.error));
  const authorized = await controls.POST('/_sandbox/consents/{requestId}/{action}', {
    params: { path: { requestId: consent.data.requestId, action: 'authorize' } },
    body: {},
  });
  const accounts = await client.POST('/v1/ais/accounts', { headers: bearer, body: { userId, merchantId: test.data.merchantId } });

  // errors are typed too: the one ErrorBody
  const missing = await client.GET('/v1/partner/payments/{paymentId}/status', { params: { path: { paymentId: 999999 } } });
  const errorCode: string | undefined = missing.error?.code;

  // the generated types are strict: these lines must NOT type-check
  // @ts-expect-error amount is a number in the contract
  void (() => client.POST('/v1/partner/payments', { body: { merchantClientId: 'x', amount: '12.50', referenceNumber: 'r' } }));
  // @ts-expect-error not a documented event name
  void (() => client.POST('/v1/partner/webhooks', { body: { url: 'https://x.test', events: ['payment.refunded'] } }));
  // @ts-expect-error no such path
  void (() => client.GET('/v1/partner/refunds'));
  // @ts-expect-error obsim's controls are not in the partner's document
  void (() => client.GET('/_sandbox/clock'));

  return {
    health: { status: health.response.status, body: health.data },
    standard: { status: standard.response.status, body: standard.data },
    onboarding: { status: onboarding.response.status, body: onboarding.data },
    test: { status: test.response.status, body: test.data },
    list: { status: list.response.status, total: list.data?.total },
    payment: { status: payment.response.status, body: payment.data },
    paymentStatus: { status: status.response.status, value: paymentStatus, body: status.data },
    webhook: { status: webhook.response.status, body: webhook.data },
    webhookTest: { status: webhookTest.response.status, body: webhookTest.data },
    missing: { status: missing.response.status, code: errorCode },
    token: { status: token.response.status, token: token.data.token },
    consent: { status: consent.response.status, body: consent.data },
    authorized: { status: authorized.response.status },
    accounts: { status: accounts.response.status, body: accounts.data },
  };
}
`;

function typecheck(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? `${d.file.fileName.replace(ROOT, '')}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}

t.test(
  'clients generated from openapi.json and openapi-controls.json (openapi-typescript + openapi-fetch) run the happy paths',
  async (t) => {
    const dir = join(ROOT, 'tmp', `typed-client-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');

    for (const [file, out] of [
      ['openapi.json', 'api.d.ts'],
      ['openapi-controls.json', 'controls.d.ts'],
    ]) {
      const types = astToString(await openapiTS(JSON.parse(readFileSync(join(ROOT, file), 'utf8'))));
      t.match(types, /export interface paths/);
      writeFileSync(join(dir, out), types);
    }
    const clientFile = join(dir, 'client.ts');
    // written during the run, so tap's coverage-exclude (a glob listed when the run starts) cannot see
    // it: the marker keeps this generated client out of `npm run coverage`'s report
    writeFileSync(clientFile, `/* c8 ignore start */\n${CLIENT}`);

    t.same(typecheck(clientFile), [], 'the client type-checks against the generated types');

    const app = await build(t);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const { run } = (await import(pathToFileURL(clientFile).href)) as { run: (url: string, h: Record<string, string>) => Promise<any> };
    const r = await run(address, PARTNER);

    t.equal(r.health.status, 200);
    t.equal(r.health.body.status, 'ok');
    t.equal(r.standard.status, 200);
    t.equal(r.standard.body.status, 'pending_onboarding');
    t.equal(r.onboarding.status, 200);
    t.equal(r.onboarding.body.merchantId, r.standard.body.merchantId);
    t.equal(r.test.status, 200);
    t.equal(r.test.body.status, 'activated');
    t.equal(r.list.status, 200);
    t.ok(r.list.total >= 2);
    t.equal(r.payment.status, 200);
    t.equal(r.payment.body.amount, 125.5);
    t.equal(r.paymentStatus.status, 200);
    t.equal(r.paymentStatus.value, 'pending');
    t.equal(r.paymentStatus.body.paymentId, r.payment.body.paymentId);
    t.equal(r.webhook.status, 200);
    t.match(r.webhook.body.secret, /^whsec_/);
    t.equal(r.webhookTest.status, 200);
    t.equal(r.webhookTest.body.webhookId, r.webhook.body.id);
    t.equal(r.missing.status, 404);
    t.equal(r.missing.code, 'payment_not_found');
    t.equal(r.token.status, 200);
    t.match(r.token.token, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'a JWT');
    t.equal(r.consent.status, 200);
    t.equal(r.consent.body.status, 'pending');
    t.equal(r.authorized.status, 200);
    t.equal(r.accounts.status, 200);
    t.equal(r.accounts.body.userId, 'typed-user-1');
    t.equal(r.accounts.body.totalAccounts, r.accounts.body.accounts.length);
  },
);
