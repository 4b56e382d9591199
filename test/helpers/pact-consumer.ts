/**
 * A partner's consumer test, written with Pact JS's own consumer DSL (PactV4), as a team that
 * uses Pact writes it: a small client of the provider's API (test merchant, payment, its status by
 * the id a provider state made, webhook registration, a consent, a page of an account's
 * transactions), each call tested against Pact's mock server. Running it records the pact that
 * `obsim pact verify` and `obsim pact check` are then given. The expectations come from the
 * provider document (/work/shared/provider-api.md), not from obsim.
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { join } from 'node:path';

const { like, integer, decimal, string, regex, eachLike, fromProviderState, iso8601DateTimeWithMillis } = MatchersV3;

/** The partner's own client: what the consumer test exercises. */
class PartnerClient {
  constructor(
    private readonly baseUrl: string,
    private readonly credentials = { id: 'partner-id', secret: 'partner-secret' },
  ) {}

  private async call(
    method: string,
    path: string,
    body?: unknown,
    auth?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const headers: Record<string, string> = auth
      ? { authorization: auth }
      : { 'x-partner-client-id': this.credentials.id, 'x-partner-client-secret': this.credentials.secret };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  createTestMerchant = (companyName: string) => this.call('POST', '/v1/partner/merchants/test', { companyName });
  createPayment = (merchantClientId: string, amount: number, referenceNumber: string) =>
    this.call('POST', '/v1/partner/payments', { merchantClientId, amount, referenceNumber });
  paymentStatus = (paymentId: number) => this.call('GET', `/v1/partner/payments/${paymentId}/status`);
  registerWebhook = (url: string, events: string[]) => this.call('POST', '/v1/partner/webhooks', { url, events });
  createConsent = (token: string, body: Record<string, unknown>) => this.call('POST', '/v1/ais/consents', body, `Bearer ${token}`);
  transactionsPage = (token: string, body: Record<string, unknown>) =>
    this.call('POST', '/v1/ais/accounts/transactions', body, `Bearer ${token}`);
}

const partnerHeaders = { 'X-Partner-Client-Id': like('partner-id'), 'X-Partner-Client-Secret': like('partner-secret') };
const json = { 'Content-Type': regex('^application/json.*$', 'application/json; charset=utf-8') };
const check = (ok: boolean, what: string) => {
  if (!ok) throw new Error(`consumer expectation failed: ${what}`);
};

/** Records the partner flow's pact into `dir`; resolves to the pact file. */
export async function recordPartnerFlowPact(dir: string, consumer = 'shop-app', provider = 'open-banking-provider'): Promise<string> {
  const pact = new PactV4({ consumer, provider, dir, logLevel: 'error' });

  await pact
    .addInteraction()
    .uponReceiving('a request to create a test merchant')
    .withRequest('POST', '/v1/partner/merchants/test', (b) => b.headers(partnerHeaders).jsonBody({ companyName: 'Shop ApS' }))
    .willRespondWith(200, (b) =>
      b.headers(json).jsonBody({
        merchantId: integer(100002),
        clientId: string('31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd'),
        companyName: 'Shop ApS',
        status: 'activated',
      }),
    )
    .executeTest(async (server) => {
      const res = await new PartnerClient(server.url).createTestMerchant('Shop ApS');
      check(res.body.status === 'activated', 'a test merchant is activated at creation');
    });

  await pact
    .addInteraction()
    .given('a merchant', { status: 'activated' })
    .uponReceiving('a request to create a payment')
    .withRequest('POST', '/v1/partner/payments', (b) =>
      b.headers(partnerHeaders).jsonBody({
        merchantClientId: fromProviderState('${merchantClientId}', '31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd'),
        amount: 49.95,
        referenceNumber: 'order-1001',
      }),
    )
    .willRespondWith(200, (b) =>
      b.headers(json).jsonBody({
        paymentId: integer(5000001),
        status: 'pending',
        amount: decimal(49.95),
        referenceNumber: 'order-1001',
        paymentUrl: string('http://localhost:4010/pay/pay_5000001_x'),
        createdAt: iso8601DateTimeWithMillis('2026-03-02T09:30:00.000Z'),
      }),
    )
    .executeTest(async (server) => {
      const res = await new PartnerClient(server.url).createPayment('31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd', 49.95, 'order-1001');
      check(typeof res.body.paymentUrl === 'string', 'a payment has a paymentUrl to send the payer to');
    });

  await pact
    .addInteraction()
    .given('a payment', { status: 'paid' })
    .uponReceiving("a request for a paid payment's status")
    .withRequest('GET', fromProviderState('/v1/partner/payments/${paymentId}/status', '/v1/partner/payments/5000001/status'), (b) =>
      b.headers(partnerHeaders),
    )
    .willRespondWith(200, (b) =>
      b
        .headers(json)
        .jsonBody({ paymentId: integer(5000001), status: 'paid', bankPaymentStatus: 'AcceptedSettlementCompleted', failureReason: null }),
    )
    .executeTest(async (server) => {
      const res = await new PartnerClient(server.url).paymentStatus(5000001);
      check(res.body.status === 'paid', 'the status reads paid');
    });

  await pact
    .addInteraction()
    .uponReceiving('a request to register a webhook')
    .withRequest('POST', '/v1/partner/webhooks', (b) =>
      b.headers(partnerHeaders).jsonBody({ url: 'https://shop.example/hooks', events: ['payment.completed', 'payment.failed'] }),
    )
    .willRespondWith(200, (b) =>
      b.headers(json).jsonBody({
        id: regex('^wh_[0-9a-z_]+$', 'wh_5b0e1c'),
        url: 'https://shop.example/hooks',
        events: ['payment.completed', 'payment.failed'],
        secret: regex('^whsec_[0-9a-f]+$', 'whsec_0123abcd'),
      }),
    )
    .executeTest(async (server) => {
      const res = await new PartnerClient(server.url).registerWebhook('https://shop.example/hooks', [
        'payment.completed',
        'payment.failed',
      ]);
      check(typeof res.body.secret === 'string', 'registration hands out the signing secret');
    });

  const bearer = { Authorization: fromProviderState('Bearer ${token}', 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig') };
  await pact
    .addInteraction()
    .given('a bank user with accounts and transactions', { userId: 'user-typical', consent: 'none' })
    .uponReceiving('a request to create a consent')
    .withRequest('POST', '/v1/ais/consents', (b) =>
      b.headers(bearer).jsonBody({
        merchantId: fromProviderState('${merchantId}', 100002),
        userId: 'user-typical',
        permissions: ['ReadAccountsDetail', 'ReadTransactionsDetail'],
        expirationDateTime: '2030-01-01T00:00:00Z',
        transactionFromDateTime: '2025-01-01T00:00:00Z',
      }),
    )
    .willRespondWith(200, (b) =>
      b.headers(json).jsonBody({
        requestId: string('3f1c'),
        status: 'pending',
        userId: 'user-typical',
        authorizationUrl: string('http://localhost:4010/consent/x'),
      }),
    )
    .executeTest(async (server) => {
      const res = await new PartnerClient(server.url).createConsent('eyJhbGciOiJIUzI1NiJ9.e30.sig', {
        merchantId: 100002,
        userId: 'user-typical',
        permissions: ['ReadAccountsDetail', 'ReadTransactionsDetail'],
        expirationDateTime: '2030-01-01T00:00:00Z',
        transactionFromDateTime: '2025-01-01T00:00:00Z',
      });
      check(res.body.status === 'pending', 'a new consent is pending');
    });

  await pact
    .addInteraction()
    .given('a bank user with accounts and transactions', { userId: 'user-typical' })
    .uponReceiving("a request for a page of an account's transactions")
    .withRequest('POST', '/v1/ais/accounts/transactions', (b) =>
      b.headers(bearer).jsonBody({
        userId: 'user-typical',
        merchantId: fromProviderState('${merchantId}', 100002),
        accountId: fromProviderState('${accountId}', 'acc_1'),
        pageLimit: 2,
      }),
    )
    .willRespondWith(200, (b) =>
      b.headers(json).jsonBody({
        accountId: string('acc_1'),
        pageLimit: 2,
        totalTransactions: integer(40),
        transactions: eachLike({ transactionId: string('tx_1'), amount: regex('^\\d+\\.\\d{2}$', '12.50'), currency: string('DKK') }),
      }),
    )
    .executeTest(async (server) => {
      const res = await new PartnerClient(server.url).transactionsPage('eyJhbGciOiJIUzI1NiJ9.e30.sig', {
        userId: 'user-typical',
        merchantId: 100002,
        accountId: 'acc_1',
        pageLimit: 2,
      });
      check(Array.isArray(res.body.transactions), 'a page lists transactions');
    });

  return join(dir, `${consumer}-${provider}.json`);
}

/** A flow that reads merchantName from a payment's status (the example contract version removes it). */
export async function recordMerchantNamePact(dir: string): Promise<string> {
  const pact = new PactV4({ consumer: 'receipt-printer', provider: 'open-banking-provider', dir, logLevel: 'error' });
  await pact
    .addInteraction()
    .given('a payment', { status: 'paid' })
    .uponReceiving("a request for the merchant's name on a paid payment")
    .withRequest('GET', fromProviderState('/v1/partner/payments/${paymentId}/status', '/v1/partner/payments/5000001/status'), (b) =>
      b.headers(partnerHeaders),
    )
    .willRespondWith(200, (b) => b.headers(json).jsonBody({ status: 'paid', merchantName: string('Nørrebro Kaffe ApS') }))
    .executeTest(async (server) => {
      const res = await new PartnerClient(server.url).paymentStatus(5000001);
      check(typeof res.body.merchantName === 'string', 'the receipt names the merchant');
    });
  return join(dir, 'receipt-printer-open-banking-provider.json');
}
