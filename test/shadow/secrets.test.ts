/**
 * Credentials never kept (docs/drift.md, "What is redacted"): known secrets go through a shadow
 * (`obsim shadow`, a real process) in front of the foreign provider double — the partner's client
 * secret on every request, the AIS bearer token and the token answer it came in, the webhook
 * secret the registration answers, a cookie the partner sends and the two the provider sets, a
 * receiver URL with userinfo and a token in its query, an access token in a request's query — and
 * every output is searched for each: the report as JSON, HTML and JUnit, the exchanges as JSON, both
 * HAR exports, and everything the shadow printed. None is found; the redaction marks are.
 */
import t from 'tap';
import { request } from 'undici';
import { startForeignProvider } from '../helpers/foreign/provider.js';
import { freePorts } from '../helpers/cluster.js';
import { shadowProcess } from '../helpers/processes.js';
import { startReceiver } from '../helpers/receiver.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(60_000));

t.test('no secret that went through the shadow is in anything it writes or prints', async (t) => {
  const double = await startForeignProvider();
  t.teardown(() => double.close());
  const rx = await startReceiver(t);
  const port = await freePorts(1);
  const shadowCli = await shadowProcess(t, ['--upstream', double.url, '--port', String(port), '--public-url', `http://127.0.0.1:${port}`]);
  const reportUrl = shadowCli.reportUrl;
  const shadow = `http://127.0.0.1:${port}`;

  const secrets: Record<string, string> = { 'partner secret': double.partner.clientSecret };
  const partner = { 'x-partner-client-id': double.partner.clientId, 'x-partner-client-secret': double.partner.clientSecret };
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = partner) => {
    const res = await request(`${shadow}${path}`, {
      method: method as 'GET',
      headers: {
        ...headers,
        cookie: 'partner_session=cookie-the-partner-sent-4b1d',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookies = [res.headers['set-cookie'] ?? []].flat();
    setCookies.forEach((c, i) => (secrets[`provider cookie ${i}`] = c.split(';')[0].split('=')[1]));
    return (await res.body.json()) as Record<string, any>;
  };
  secrets['partner cookie'] = 'cookie-the-partner-sent-4b1d';

  const receiverUrl = new URL(`${rx.url}/webhooks`);
  receiverUrl.username = 'receiver-user';
  receiverUrl.password = 'receiver-password-9f2c';
  receiverUrl.searchParams.set('token', 'receiver-query-token-77aa');
  secrets['receiver password'] = 'receiver-password-9f2c';
  secrets['receiver query token'] = 'receiver-query-token-77aa';
  const hook = await call('POST', '/v1/partner/webhooks', { url: receiverUrl.toString(), events: ['payment.completed'] });
  secrets['webhook secret'] = hook.secret;
  const merchant = await call('POST', '/v1/partner/merchants/test', { companyName: 'Secretive ApS' });
  const payment = await call('POST', '/v1/partner/payments', { merchantClientId: merchant.clientId, amount: 12, referenceNumber: 'sec-1' });
  await call('POST', `/_sandbox/payments/${payment.paymentId}/complete`);
  await rx.waitFor(1);
  const token = await call(
    'POST',
    '/v1/auth/generate-token',
    { userId: 'user-typical', merchantId: merchant.merchantId, permissions: ['ais:accounts:read'] },
    {},
  );
  secrets['bearer token'] = token.token;
  secrets['bearer token signature'] = token.token.split('.')[2];
  const bearer = { authorization: `Bearer ${token.token}` };
  await call(
    'POST',
    '/v1/ais/consents',
    {
      merchantId: merchant.merchantId,
      userId: 'user-typical',
      permissions: ['ReadAccountsDetail'],
      expirationDateTime: '2031-01-01T00:00:00.000Z',
      transactionFromDateTime: '2026-01-01T00:00:00.000Z',
    },
    bearer,
  );
  await call('GET', `/v1/partner/payments/${payment.paymentId}/status?access_token=query-access-token-5e5e`);
  secrets['query access token'] = 'query-access-token-5e5e';
  t.equal(Object.keys(secrets).length >= 10, true, `${Object.keys(secrets).length} secrets sent`);

  const text = async (url: string) => (await request(url)).body.text();
  const base = reportUrl.replace(/\/_shadow\/report$/, '');
  // the report waits for every exchange to be replayed: each output then holds all of them
  const outputs: Record<string, string> = {
    'report (JSON)': await text(`${reportUrl}?format=json`),
    'report (HTML)': await text(`${reportUrl}?format=html`),
    'report (JUnit)': await text(`${reportUrl}?format=junit`),
    exchanges: await text(`${base}/_shadow/exchanges`),
    "HAR (the upstream's answers)": await text(`${base}/_shadow/exchanges?format=har`),
    "HAR (obsim's replays)": await text(`${base}/_shadow/exchanges?format=har&side=obsim`),
  };
  await shadowCli.stop();
  outputs['what the shadow printed'] = shadowCli.printed();

  const exchanges = JSON.parse(outputs.exchanges) as { items: unknown[] };
  t.ok(exchanges.items.length >= 6, `the outputs hold the flow (${exchanges.items.length} exchanges)`);
  t.match(
    outputs["HAR (obsim's replays)"],
    /http:\/\/obsim\.shadow\/v1\/partner\/payments\/\d+\/status/,
    "obsim's side at the paths obsim was asked",
  );
  for (const [where, output] of Object.entries(outputs)) {
    for (const [what, secret] of Object.entries(secrets)) {
      t.notOk(output.includes(secret), `${where}: no ${what}`);
    }
  }
  t.match(outputs.exchanges, /REDACTED/, 'what was there is marked redacted');
});
