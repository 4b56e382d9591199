/**
 * obsim as a cluster, end to end through HAProxy (docs/cluster.md): three shards as child
 * processes, sandboxes created until every shard owns some, and every way of naming a sandbox
 * routed to its shard: partner headers, hosted pages (in Chromium), AIS bearer tokens, the
 * console's cookie, the journal's stream (`obsim logs tail`), webhooks leaving from the owning
 * shard. Then one shard is killed: only its sandboxes answer 503 (within a second), the others
 * keep serving without a failed request, and once it is back everything it acknowledged is there.
 */
import { spawn } from 'node:child_process';
import t from 'tap';
import { createObsimClient } from '../../src/client/index.js';
import { browserMissing, inCI, launchBrowser } from '../helpers/browser.js';
import { haproxyMissing, routerCall, startTestCluster } from '../helpers/cluster.js';
import { runnable, ROOT } from '../helpers/process.js';
import { expectedSignature, startReceiver } from '../helpers/receiver.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(240_000));

const missing = haproxyMissing();
if (missing && inCI()) t.fail(`${missing}: in CI the cluster tests must run (.ci/run installs haproxy)`);

interface Sandbox {
  sandboxId: string;
  shard: string;
  headers: Record<string, string>;
  merchant: { merchantId: number; clientId: string };
}

t.test('a cluster of three shards behind HAProxy', { skip: missing && !inCI() ? missing : false }, async (t) => {
  const cluster = await startTestCluster(t);
  const base = cluster.url;
  const call = routerCall(base);

  // ------------------------------------------------------------ sandboxes on every shard
  const sandboxes: Sandbox[] = [];
  for (let i = 0; i < 30 && new Set(sandboxes.map((s) => s.shard)).size < 3; i++) {
    const r = await call('POST', '/_sandbox/sandboxes', {}, { clock: { frozen: true } });
    t.equal(r.status, 200, r.text);
    const { sandboxId, shard, credentials } = r.json as {
      sandboxId: string;
      shard: string;
      credentials: { clientId: string; clientSecret: string };
    };
    t.equal(r.shard, shard, 'the answer says which shard made it');
    t.match(sandboxId, new RegExp(`^sbx_${shard}_[0-9a-f]{20}$`), 'the id carries its shard');
    const headers = { 'x-partner-client-id': credentials.clientId, 'x-partner-client-secret': credentials.clientSecret };
    const m = await call('POST', '/v1/partner/merchants/test', headers, { companyName: `Shop on ${shard}` });
    t.equal(m.status, 200, m.text);
    t.equal(m.shard, shard, 'partner calls reach the shard in the client id');
    sandboxes.push({ sandboxId, shard, headers, merchant: m.json });
  }
  const shards = [...new Set(sandboxes.map((s) => s.shard))].sort();
  t.same(shards, ['s1', 's2', 's3'], 'every shard owns a sandbox');
  const on = (shard: string) => sandboxes.find((s) => s.shard === shard)!;
  const [a, b, c] = [on('s1'), on('s2'), on('s3')];

  await t.test('the admin list covers every shard', async (t) => {
    const list = await call('GET', '/_sandbox/sandboxes');
    t.equal(list.status, 200);
    t.equal(list.json.total, sandboxes.length);
    t.same(new Set(list.json.items.map((i: { shard: string }) => i.shard)), new Set(shards));
    t.notOk(list.json.unreachable);
    const one = await call('GET', `/_sandbox/sandboxes/${b.sandboxId}`);
    t.equal(one.shard, 's2', "an admin read by path goes to the sandbox's shard");
  });

  await t.test('a forged shard prefix reaches another shard, which does not know it: 401', async (t) => {
    const forged = { ...b.headers, 'x-partner-client-id': b.sandboxId.replace('_s2_', '_s1_') };
    const r = await call('GET', '/v1/partner/merchants', forged);
    t.equal(r.status, 401);
    t.equal(r.shard, 's1');
    t.equal(r.json.code, 'partner_credentials_invalid');
    const unknown = await call('GET', '/v1/partner/merchants', {
      ...b.headers,
      'x-partner-client-id': b.sandboxId.replace('_s2_', '_zz_'),
    });
    t.equal(unknown.status, 401, 'an unknown shard name: some shard answers 401');
  });

  await t.test('webhooks leave from the owning shard; a clock advance fires nothing elsewhere', async (t) => {
    const receiver = await startReceiver(t);
    const hooks = new Map<string, string>();
    const payments = new Map<string, number>();
    for (const s of [a, b]) {
      const wh = await call('POST', '/v1/partner/webhooks', s.headers, { url: receiver.url, events: ['payment.completed'] });
      t.equal(wh.status, 200, wh.text);
      t.match(wh.json.id, new RegExp(`^wh_${s.shard}_`), 'webhook ids carry the shard');
      hooks.set(s.shard, wh.json.secret);
      const p = await call('POST', '/v1/partner/payments', s.headers, {
        merchantClientId: s.merchant.clientId,
        amount: 12.5,
        referenceNumber: 'C-1',
      });
      t.equal(p.status, 200, p.text);
      t.match(p.json.paymentUrl, new RegExp(`^${base}/pay/pay_${s.shard}_`), 'paymentUrl points at the router and names the shard');
      payments.set(s.shard, p.json.paymentId);
    }
    const adv = await call('POST', '/_sandbox/clock/advance', a.headers, { duration: '10s' });
    t.equal(adv.status, 200, adv.text);
    const [delivery] = await receiver.waitFor(1);
    t.equal(delivery.json.data.paymentId, payments.get('s1'));
    t.equal(
      delivery.headers['x-webhook-signature'],
      expectedSignature(hooks.get('s1')!, delivery.raw),
      'signature recomputed from the raw body',
    );
    const paid = await call('GET', `/v1/partner/payments/${payments.get('s1')}/status`, a.headers);
    t.equal(paid.json.status, 'paid');
    const other = await call('GET', `/v1/partner/payments/${payments.get('s2')}/status`, b.headers);
    t.equal(other.json.status, 'pending', 'the other sandbox (another shard, frozen clock) did not move');
    t.equal(receiver.received.length, 1, 'one delivery only');
  });

  await t.test('AIS: token, consent and reads with the bearer token reach the issuing shard', async (t) => {
    const tok = await call('POST', '/v1/auth/generate-token', c.headers, {
      userId: 'user-typical',
      merchantId: c.merchant.merchantId,
      permissions: ['ais:accounts:read', 'ais:balance:read', 'ais:transactions:read'],
    });
    t.equal(tok.status, 200, tok.text);
    const header = JSON.parse(Buffer.from(tok.json.token.split('.')[0], 'base64url').toString('utf8'));
    t.equal(header.kid, 's3', 'the token header names its shard');
    const bearer = { authorization: `Bearer ${tok.json.token}` };
    const consent = await call('POST', '/v1/ais/consents', bearer, {
      merchantId: c.merchant.merchantId,
      userId: 'user-typical',
      permissions: ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail'],
      expirationDateTime: '2099-01-01T00:00:00Z',
      transactionFromDateTime: '2020-01-01T00:00:00Z',
    });
    t.equal(consent.status, 200, consent.text);
    t.equal(consent.shard, 's3');
    t.match(consent.json.authorizationUrl, new RegExp(`^${base}/consent/ctk_s3_`));
    const page = await call('GET', new URL(consent.json.authorizationUrl).pathname);
    t.equal(page.status, 200);
    t.equal(page.shard, 's3', 'the consent page is served by the shard that owns it');
    const authorize = await call('POST', `/_sandbox/consents/${consent.json.requestId}/authorize`, c.headers);
    t.equal(authorize.status, 200, authorize.text);
    const accounts = await call('POST', '/v1/ais/accounts', bearer, { userId: 'user-typical', merchantId: c.merchant.merchantId });
    t.equal(accounts.status, 200, accounts.text);
    t.equal(accounts.shard, 's3');
    t.ok(accounts.json.accounts?.length ?? accounts.json.data?.length, 'accounts listed');
  });

  await t.test('the console: sign in through the router with a sandbox on s2; its pages come from s2', async (t) => {
    const signInPage = await fetch(`${base}/console/sign-in`);
    const html = await signInPage.text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1];
    const cookie = /obsim_console_sign_in=([^;]+)/.exec(signInPage.headers.get('set-cookie') ?? '')![1];
    const form = new URLSearchParams({
      _csrf: csrf,
      clientId: b.headers['x-partner-client-id'],
      clientSecret: b.headers['x-partner-client-secret'],
      next: '/console',
    });
    const res = await fetch(`${base}/console/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `obsim_console_sign_in=${cookie}` },
      body: form.toString(),
      redirect: 'manual',
    });
    // the sign-in page may have come from any shard: its CSRF cookie is the form's own, checked where the form lands
    t.equal(res.status, 303, `signed in (${res.status})`);
    t.equal(res.headers.get('x-obsim-shard'), 's2', 'the form went to the shard of the credentials typed in');
    const session = /obsim_console=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1];
    const kid = JSON.parse(Buffer.from(session.split('.')[0], 'base64url').toString('utf8')).kid;
    t.equal(kid, 's2', 'the session cookie names its shard');
    const overview = await fetch(`${base}/console`, { headers: { cookie: `obsim_console=${session}` } });
    t.equal(overview.status, 200);
    t.equal(overview.headers.get('x-obsim-shard'), 's2');
    t.match(await overview.text(), b.sandboxId);
  });

  await t.test('obsim logs tail through the router', async (t) => {
    const { argv } = runnable(['node', 'dist/src/bin.js']);
    const child = spawn(
      process.execPath,
      [...argv, 'logs', 'tail', '--base-url', base, '--max', '1', '--json', '--filter', 'path~/merchants'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          OBSIM_PARTNER_CLIENT_ID: c.headers['x-partner-client-id'],
          OBSIM_PARTNER_CLIENT_SECRET: c.headers['x-partner-client-secret'],
        },
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    t.teardown(() => child.kill('SIGKILL'));
    // once the stream is open, a request of that sandbox appears on it
    for (let i = 0; i < 50 && child.exitCode === null; i++) {
      await call('GET', '/v1/partner/merchants', c.headers);
      await new Promise((r) => setTimeout(r, 200));
    }
    t.equal(await exited, 0, 'exits after --max lines');
    const line = JSON.parse(out.trim().split('\n')[0]);
    t.equal(line.type, 'request');
    t.equal(line.path, '/v1/partner/merchants');
  });

  await t.test('the typed client and obsim trigger work through the router unchanged', async (t) => {
    const client = createObsimClient({ baseUrl: base });
    const created = await client.createSandbox({ clock: { frozen: true } });
    t.match(created.sandboxId, /^sbx_s[123]_/);
    const receiver = await startReceiver(t);
    const creds = { 'x-partner-client-id': created.credentials.clientId, 'x-partner-client-secret': created.credentials.clientSecret };
    const hook = await call('POST', '/v1/partner/webhooks', creds, { url: receiver.url, events: ['payment.completed'] });
    t.equal(hook.status, 200);
    const paid = await created.client.payAndSettle({ amount: 42 });
    t.equal(paid.status, 'paid', 'a payment settled through the typed client');
    const delivery = await created.client.waitForDelivery({ event: 'payment.completed', match: { amount: 42 } });
    t.equal(delivery.outcome, 'delivered');

    const { argv } = runnable(['node', 'dist/src/bin.js']);
    const trigger = spawn(process.execPath, [...argv, 'trigger', 'payment.completed', '--base-url', base], {
      cwd: ROOT,
      env: {
        ...process.env,
        OBSIM_PARTNER_CLIENT_ID: created.credentials.clientId,
        OBSIM_PARTNER_CLIENT_SECRET: created.credentials.clientSecret,
      },
    });
    let out = '';
    trigger.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    trigger.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => trigger.on('exit', resolve));
    t.equal(code, 0, out);
    await receiver.waitFor(2);
    t.equal(receiver.received.length, 2, "the triggered event was delivered from the sandbox's shard");
    await created.delete();
  });

  await t.test(
    'the hosted payment page, paid in Chromium through the router',
    { skip: browserMissing() && !inCI() ? browserMissing() : false },
    async (t) => {
      const p = await call('POST', '/v1/partner/payments', b.headers, {
        merchantClientId: b.merchant.clientId,
        amount: 99.5,
        referenceNumber: 'BROWSER-1',
      });
      const browser = await launchBrowser();
      t.teardown(() => browser.close());
      const page = await browser.newPage();
      const answer = await page.goto(p.json.paymentUrl);
      t.equal(answer?.headers()['x-obsim-shard'], 's2');
      await page.getByLabel('Nordlys Bank').check();
      await page.getByRole('button', { name: 'Approve payment' }).click();
      await page.locator('h1', { hasText: 'Payment completed' }).waitFor();
      const status = await call('GET', `/v1/partner/payments/${p.json.paymentId}/status`, b.headers);
      t.equal(status.json.status, 'paid');

      // the onboarding form of a fast-track merchant, on another shard
      const m = await call('POST', '/v1/partner/merchants/fast-track', c.headers, {
        companyName: 'Cluster Bikes ApS',
        contactEmail: 'ops@cluster.test',
        registrationNumber: '12345678',
        website: 'https://cluster.test',
        iban: 'DK5000400440116243',
      });
      t.match(m.json.onboardingUrl, new RegExp(`^${base}/onboarding/onb_s3_`));
      const form = await page.goto(m.json.onboardingUrl);
      t.equal(form?.headers()['x-obsim-shard'], 's3');
      await page.locator('#f-bankId').selectOption('fjord-sparekasse');
      await page.getByLabel('I accept the billing agreement on behalf of the company').check();
      await page.getByRole('button', { name: 'Complete onboarding' }).click();
      await page.locator('h1', { hasText: 'Onboarding submitted' }).waitFor();
      const status2 = await call('GET', `/v1/partner/merchants/${m.json.merchantId}/onboarding-status`, c.headers);
      t.equal(status2.json.onboardingStatus, 'awaiting_approval');
    },
  );

  await t.test('a shard killed: only its sandboxes answer 503 (within a second); back with its data', async (t) => {
    const victim = cluster.shards.find((s) => s.name === 's2')!;
    const before = await call('GET', '/v1/partner/merchants', b.headers);
    t.equal(before.status, 200);
    // a payment whose settlement timer is pending (the sandbox's clock is frozen) when the shard dies
    const pending = await call('POST', '/v1/partner/payments', b.headers, {
      merchantClientId: b.merchant.clientId,
      amount: 7,
      referenceNumber: 'KILL-1',
    });
    t.equal(pending.status, 200);
    const restarts = victim.restarts;
    victim.child!.kill('SIGKILL');
    const killedAt = Date.now();
    let first503 = -1;
    let body503: any;
    let othersFailed = 0;
    let othersServed = 0;
    // a connection the dying shard held may break under a request: that request failed, it was not answered
    const attempt = (headers: Record<string, string>) =>
      call('GET', '/v1/partner/merchants', headers).catch(() => ({ status: 0, json: undefined, headers: new Headers() }));
    let lastBroken = -1;
    const seen: string[] = [];
    while (Date.now() - killedAt < 1500) {
      const [mine, x, y] = await Promise.all([attempt(b.headers), attempt(a.headers), attempt(c.headers)]);
      if (mine.status === 0) lastBroken = Date.now() - killedAt;
      seen.push(`${Date.now() - killedAt}:${mine.status}`);
      if (mine.status === 503 && first503 < 0) {
        first503 = Date.now() - killedAt;
        body503 = { json: mine.json, retryAfter: mine.headers.get('retry-after') };
      }
      for (const r of [x, y]) {
        if (r.status === 200) othersServed++;
        else othersFailed++;
      }
    }
    t.ok(first503 >= 0 && first503 <= 1000, `503 within a second (${first503} ms; ${seen.slice(0, 8).join(' ')})`);
    t.match(body503?.json, { status: 503, code: 'shard_unavailable', requestId: /^req_[0-9a-f]{32}$/ });
    t.equal(body503?.retryAfter, '2');
    t.equal(othersFailed, 0, `the other shards served every request (${othersServed})`);
    // a request sent on a connection the router held open to the shard breaks with it; once the
    // router has seen the shard go, every answer is the 503
    t.ok(lastBroken < first503, `no request broke after the first 503 (last broken at ${lastBroken} ms)`);
    const created = await call('POST', '/_sandbox/sandboxes', {}, {});
    t.equal(created.status, 200, 'new sandboxes are still created');
    t.not(created.json.shard, 's2', 'on a live shard');
    // back after the back-off
    let after = before;
    for (let i = 0; i < 200; i++) {
      after = await call('GET', '/v1/partner/merchants', b.headers);
      if (after.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    t.equal(after.status, 200, 'back');
    t.equal(victim.restarts, restarts + 1, 'restarted by the supervisor');
    t.same(after.json, before.json, 'its merchants are there, unchanged');
    const clock = await call('GET', '/_sandbox/clock', b.headers);
    t.equal(clock.json.frozen, true, 'its clock is still frozen');
    t.equal((await call('GET', `/v1/partner/payments/${pending.json.paymentId}/status`, b.headers)).json.status, 'pending');
    await call('POST', '/_sandbox/clock/advance', b.headers, { duration: '10s' });
    const settled = await call('GET', `/v1/partner/payments/${pending.json.paymentId}/status`, b.headers);
    t.equal(settled.json.status, 'paid', 'its pending settlement timer survived the kill and fired');
  });
});
