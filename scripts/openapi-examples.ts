/**
 * Writes schemas/examples.ts, the request and response examples of the OpenAPI documents, from a
 * scripted session against a real obsim (frozen clock, the default partner, a local webhook
 * receiver): every example is an answer obsim really gave, keyed by operationId.
 * test/contract/openapi-examples.test.ts validates each against its schema.
 *
 *   npm run openapi:examples && npm run openapi
 */
import { writeFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { WEBHOOK_OPERATIONS } from '../src/openapi/documents.js';

const OUT = fileURLToPath(new URL('../schemas/examples.ts', import.meta.url));
const PARTNER = { 'x-partner-client-id': 'sandbox-partner', 'x-partner-client-secret': 'sandbox-secret' };
const RECEIVER_SHOWN_AS = 'https://partner.example/webhooks/obsim';

interface Example {
  request?: unknown;
  response?: unknown;
  /** The 200 answer in another media type the operation offers, by type. */
  media?: Record<string, unknown>;
}

const received = new Map<string, unknown>();
let webhookSecret = '';

const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    // a receiver that verifies signatures, as a partner's must (checkRegisteredReceiver passes)
    if (req.headers['x-webhook-signature'] !== createHmac('sha256', webhookSecret).update(raw).digest('hex')) {
      res.writeHead(401).end();
      return;
    }
    const body = JSON.parse(raw.toString('utf8')) as { event: string };
    if (!received.has(body.event)) received.set(body.event, body);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  });
});
await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/obsim`;

const app = await buildApp({
  config: {
    db: ':memory:',
    logLevel: 'silent',
    clockStart: '2026-03-02T09:30:00.000Z',
    clockFrozen: true,
    publicUrl: 'http://localhost:4010',
    // the shipped example version, so that the version list shows one (it changes no base answer)
    contracts: 'examples/contracts',
  },
  logger: false,
});
await app.ready();
const examples: Record<string, Example> = {};

async function call(
  operationId: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = PARTNER,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the session reads ids out of whatever each answer holds
): Promise<any> {
  const res = await app.inject({ method, url, payload: body as never, headers });
  if (res.statusCode !== 200) throw new Error(`${operationId}: ${method} ${url} answered ${res.statusCode} ${res.body}`);
  const response = res.headers['content-type']?.toString().includes('json') ? (JSON.parse(res.body) as unknown) : res.body;
  if (!examples[operationId]) examples[operationId] = body === undefined ? { response } : { request: body, response };
  return response;
}

/** Let the webhook worker deliver what is pending (real sockets, a loopback receiver). */
async function deliveries(): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const list: { items: unknown[] } = (await app.inject({ url: '/_sandbox/deliveries?state=pending', headers: PARTNER })).json();
    if (list.items.length === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

await call('getHealth', 'GET', '/healthz', undefined, {});
await call('listContractVersions', 'GET', '/_sandbox/contract/versions');
webhookSecret = (
  await call('registerWebhook', 'POST', '/v1/partner/webhooks', {
    url: receiverUrl,
    events: Object.keys(WEBHOOK_OPERATIONS).filter((event) => event !== 'webhook.test'),
  })
).secret;
const merchant = await call('createTestMerchant', 'POST', '/v1/partner/merchants/test', { companyName: 'Nørrebro Kaffe ApS' });
await call('createMerchant', 'POST', '/v1/partner/merchants', {
  companyName: 'Vesterbro Cykler ApS',
  contactEmail: 'ejer@vesterbrocykler.dk',
  contactPhone: '+4531234567',
  partnerRefId: 'crm-20931',
});
const fastTrack = await call('createFastTrackMerchant', 'POST', '/v1/partner/merchants/fast-track', {
  companyName: 'Amager Bageri ApS',
  contactEmail: 'kontakt@amagerbageri.dk',
  registrationNumber: '38291045',
  website: 'https://amagerbageri.dk',
  iban: 'DK5000400440116243',
});
await call('listMerchants', 'GET', '/v1/partner/merchants?page=1&limit=2');
await call('getMerchantOnboardingStatus', 'GET', `/v1/partner/merchants/${merchant.merchantId}/onboarding-status`);
await call('resendMerchantOnboarding', 'POST', `/v1/partner/merchants/${fastTrack.merchantId}/resend-onboarding`);
await call('createMerchantStore', 'POST', `/v1/partner/merchants/${merchant.merchantId}/stores`, {
  name: 'Nørrebrogade 12',
  mccCode: '5814',
});
const payment = await call('createPayment', 'POST', '/v1/partner/payments', {
  merchantClientId: merchant.clientId,
  amount: 149.95,
  referenceNumber: 'order-1001',
});
const rejected = await call('createPayment', 'POST', '/v1/partner/payments', {
  merchantClientId: merchant.clientId,
  amount: 89,
  referenceNumber: 'order-1002',
});
await call('controlPayment', 'POST', `/_sandbox/payments/${rejected.paymentId}/fail`, { reason: 'bank_rejected' });
await call('controlPayment', 'POST', `/_sandbox/payments/${payment.paymentId}/complete`);
await call('getPaymentStatus', 'GET', `/v1/partner/payments/${payment.paymentId}/status`);
const webhook = (await call('listSandboxWebhooks', 'GET', '/_sandbox/webhooks')).items[0] as { id: string };
await call('testWebhook', 'POST', `/v1/partner/webhooks/${webhook.id}/test`);
await deliveries();

const ais = { userId: 'user-typical', merchantId: merchant.merchantId };
const { token } = await call('generateToken', 'POST', '/v1/auth/generate-token', {
  ...ais,
  permissions: ['ais:accounts:read', 'ais:balance:read', 'ais:transactions:read'],
});
const bearer = { authorization: `Bearer ${token}` };
const consentRequest = {
  ...ais,
  permissions: ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail'],
  expirationDateTime: '2026-06-01T00:00:00.000Z',
  transactionFromDateTime: '2025-03-01T00:00:00.000Z',
};
const refused = await call('createConsent', 'POST', '/v1/ais/consents', consentRequest, bearer);
await call('controlConsent', 'POST', `/_sandbox/consents/${refused.requestId}/deny`, { errorMessage: 'The user cancelled at the bank' });
const consent = await call('createConsent', 'POST', '/v1/ais/consents', consentRequest, bearer);
await call('controlConsent', 'POST', `/_sandbox/consents/${consent.requestId}/authorize`);
await call('listUserConsents', 'GET', `/v1/ais/users/${ais.userId}/consents?merchantId=${ais.merchantId}`, undefined, bearer);
const accounts = await call('listAccounts', 'POST', '/v1/ais/accounts', ais, bearer);
const accountId = (accounts.accounts as { accountId: string }[])[0].accountId;
await call('getAccountBalance', 'POST', '/v1/ais/accounts/balance', { ...ais, accountId }, bearer);
await call('listAccountTransactions', 'POST', '/v1/ais/accounts/transactions', { ...ais, accountId, pageLimit: 2 }, bearer);
await call(
  'listAccountTransactionsInWindow',
  'GET',
  `/v1/ais/accounts/${accountId}/transactions?userId=${ais.userId}&merchantId=${ais.merchantId}&fromDate=2026-02-20&toDate=2026-03-01&pageLimit=2`,
  undefined,
  bearer,
);

await call('getClock', 'GET', '/_sandbox/clock');
await call('resumeClock', 'POST', '/_sandbox/clock/resume', {});
await call('freezeClock', 'POST', '/_sandbox/clock/freeze', {});
await call('advanceClock', 'POST', '/_sandbox/clock/advance', { duration: '10m' });
const standard = await call('createMerchant', 'POST', '/v1/partner/merchants', {
  companyName: 'Frederiksberg Blomster ApS',
  contactEmail: 'hej@fblomster.dk',
});
await call('controlMerchant', 'POST', `/_sandbox/merchants/${standard.merchantId}/submit-onboarding`, {});
await call('controlMerchant', 'POST', `/_sandbox/merchants/${merchant.merchantId}/deactivate`);
await call('listMerchantTransitions', 'GET', `/_sandbox/merchants/${standard.merchantId}/transitions`);
await call('listPaymentTransitions', 'GET', `/_sandbox/payments/${payment.paymentId}/transitions`);
await call('listConsentTransitions', 'GET', `/_sandbox/consents/${consent.requestId}/transitions`);
const delivery = (await call('listDeliveries', 'GET', '/_sandbox/deliveries?limit=2')).items[0] as { id: number };
await call('getDelivery', 'GET', `/_sandbox/deliveries/${delivery.id}`);
await call('redeliverDelivery', 'POST', `/_sandbox/deliveries/${delivery.id}/redeliver`, {});
await deliveries();
const entries = (await call('listRequests', 'GET', '/_sandbox/requests?limit=2&path=/v1/partner/payments')).items as { id: number }[];
const har = await app.inject({ url: '/_sandbox/requests?limit=1&path=/v1/partner/payments&format=har', headers: PARTNER });
examples.listRequests.media = { 'application/har+json': JSON.parse(har.body) as unknown };
await call('getRequest', 'GET', `/_sandbox/requests/${entries[0].id}`);
const matcher = { request: { method: 'POST', path: '/v1/partner/payments', body: { referenceNumber: 'order-1001' } } };
await call('countRequests', 'POST', '/_sandbox/requests/count', matcher);
await call('verifyRequests', 'POST', '/_sandbox/requests/verify', { ...matcher, count: 1 });
await call('checkRegisteredReceiver', 'POST', '/_sandbox/receiver-checks', { timeoutMs: 2000 });
await call('listReceiverChecks', 'GET', '/_sandbox/receiver-checks');
await call('getReadinessReport', 'GET', '/_sandbox/report');
await call(
  'getScenarioDraft',
  'GET',
  `/_sandbox/scenario-draft?format=json&since=${entries[0].id}&until=${entries[0].id}&name=one-payment`,
);
// the journal's own HAR of that payment, imported as a scenario
await call('importHarScenario', 'POST', '/_sandbox/scenarios/import?format=json&name=one-payment', JSON.parse(har.body));
const chaos = { profile: 'provider-outage', seed: 7, rules: [{ kind: 'webhook_duplicate', event: 'payment.completed', rate: 0.1 }] };
await call('setFaults', 'PUT', '/_sandbox/faults', chaos);
await call('getFaults', 'GET', '/_sandbox/faults');
await call('clearFaults', 'DELETE', '/_sandbox/faults');
await call('setBankProfile', 'PUT', '/_sandbox/banks/nordlys-bank', {
  profile: 'weekend-settlement',
  health: { status: 'down', forSeconds: 3600 },
  seed: 7,
});
await call('getBank', 'GET', '/_sandbox/banks/nordlys-bank');
await call('listBanks', 'GET', '/_sandbox/banks');
await call('clearBankProfile', 'DELETE', '/_sandbox/banks/nordlys-bank');
await call('listMagicValues', 'GET', '/_sandbox/magic-values');
await call('getSandboxOverview', 'GET', '/_sandbox/overview');
await call('listSandboxMerchants', 'GET', '/_sandbox/merchants?limit=1');
await call('getSandboxMerchant', 'GET', `/_sandbox/merchants/${merchant.merchantId}`);
await call('listSandboxPayments', 'GET', '/_sandbox/payments?limit=1');
await call('getSandboxPayment', 'GET', `/_sandbox/payments/${payment.paymentId}`);
await call('listSandboxConsents', 'GET', '/_sandbox/consents?limit=1');
await call('listScenarios', 'GET', '/_sandbox/scenarios');
await call('createSnapshot', 'POST', '/_sandbox/snapshots', { name: 'after-first-payment' });
await call('listSnapshots', 'GET', '/_sandbox/snapshots');
await call('restoreSnapshot', 'POST', '/_sandbox/snapshots/after-first-payment/restore', {});
await call('deleteSnapshot', 'DELETE', '/_sandbox/snapshots/after-first-payment');
await call('runScenario', 'POST', '/_sandbox/scenarios/run', { name: 'payment-paid', isolate: true });
const sandbox = await call('createSandbox', 'POST', '/_sandbox/sandboxes', { name: 'checkout-tests', ttl: '2h' }, {});
await call('listSandboxes', 'GET', '/_sandbox/sandboxes', undefined, {});
await call('getSandbox', 'GET', `/_sandbox/sandboxes/${sandbox.sandboxId}`, undefined, {});
await call('deleteSandbox', 'DELETE', `/_sandbox/sandboxes/${sandbox.sandboxId}`, undefined, {});
await call('getPostmanEnvironment', 'GET', '/_sandbox/collections/postman/environment');
const collection = await call('getPostmanCollection', 'GET', '/_sandbox/collections/postman');
// shown shortened (the whole collection is some 300 KB): the first step of the Flows folder, and the collection's variables and script
const flows = collection.item.find((folder: { name: string }) => folder.name === 'Flows');
examples.getPostmanCollection = {
  response: { ...collection, item: [{ ...flows, item: [{ ...flows.item[0], item: flows.item[0].item.slice(0, 1) }] }] },
};
await call('clearRequests', 'DELETE', '/_sandbox/requests');
await call('resetSandboxData', 'POST', '/_sandbox/reset', {});
// Pact (docs/pact.md): a provider state set up in the emptied sandbox, then its traffic as a pact
await call('listPactProviderStates', 'GET', '/_sandbox/pact/provider-states');
await call('changePactProviderState', 'POST', '/_sandbox/pact/provider-states', {
  state: 'a payment',
  params: { status: 'paid' },
  action: 'setup',
});
await call('exportPact', 'GET', '/_sandbox/pact?consumer=shop-app&provider=open-banking-provider');
// an upgrade (docs/contract-versions.md): what the example version changes, and what of it the pact state's traffic touched
await call('getContractChangelog', 'GET', '/_sandbox/contract/changelog?from=base&to=2027-03-01');
await call('getContractImpact', 'GET', '/_sandbox/contract/impact?to=2027-03-01');

await app.close();
receiver.close();

for (const [event, operationId] of Object.entries(WEBHOOK_OPERATIONS)) {
  if (!received.has(event)) throw new Error(`no ${event} delivery was received`);
  examples[operationId] = { request: received.get(event) };
}
// the stream is text/event-stream, not a JSON answer: shown as one event of it
examples.streamRequests = {
  response: 'event: request\ndata: {"id":42,"method":"POST","path":"/v1/partner/payments","status":200,"…":"a JournalEntry"}\n\n',
};
const text = JSON.stringify(examples, null, 2).replaceAll(receiverUrl, RECEIVER_SHOWN_AS);
writeFileSync(
  OUT,
  `/* Generated from a scripted session by scripts/openapi-examples.ts (npm run openapi:examples). Do not edit. */\n` +
    `/** Request and response examples of the OpenAPI documents, by operationId: answers obsim really gave. */\n` +
    `export const OPERATION_EXAMPLES: Record<string, { request?: unknown; response?: unknown; media?: Record<string, unknown> }> = ${text};\n`,
);
console.log(`schemas/examples.ts: ${Object.keys(examples).length} operations`);
