/**
 * Personas: every shipped one builds the world it declares in a fresh sandbox (states read back
 * through the partner and AIS APIs, no webhook sent while building, fixed webhook secrets kept);
 * an invalid persona is refused with its file, path and reason and creates nothing; obsim serve
 * --persona builds it once per database; the shipped JSON Schema is the schema in use.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { PersonaSchema } from '../../schemas/persona.js';
import { defaultConfig } from '../../src/config.js';
import { loadPersona, PersonaError, shippedPersonasDir } from '../../src/personas/load.js';
import { startServer } from '../../src/server.js';
import { build, schemaErrors } from '../helpers/app.js';
import { call, count } from '../helpers/partner.js';

type App = Awaited<ReturnType<typeof build>>;

async function withPersona(app: App, persona: unknown) {
  const res = await call(app, 'POST', '/_sandbox/sandboxes', { persona, clock: { frozen: true } });
  const headers: Record<string, string> = res.body.credentials
    ? { 'x-partner-client-id': res.body.credentials.clientId, 'x-partner-client-secret': res.body.credentials.clientSecret }
    : {};
  return { res, headers };
}

t.test('the shipped JSON Schema is the schema in use; every shipped persona is valid', async (t) => {
  const dir = shippedPersonasDir();
  t.same(
    JSON.parse(readFileSync(join(dir, 'persona.schema.json'), 'utf8')),
    PersonaSchema,
    'else: obsim persona schema --out personas/persona.schema.json',
  );
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  t.ok(files.length >= 4);
  for (const f of files) t.doesNotThrow(() => loadPersona(join(dir, f)), f);
});

t.test('shop-with-history: an activated shop, its store and its payment history', async (t) => {
  const app = await build(t);
  const { res, headers } = await withPersona(app, 'shop-with-history');
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.same(schemaErrors('SandboxCreated', res.body), []);
  t.match(res.body.persona, {
    name: 'shop-with-history',
    payments: 7,
    consents: 0,
    merchants: [{ companyName: 'Nordic Goods ApS', state: 'activated' }],
  });
  const shop = res.body.persona.merchants[0];
  const statuses = app.db
    .prepare('SELECT reference_number, status, failure_reason FROM payments WHERE merchant_id = ? ORDER BY id')
    .all(shop.merchantId) as { reference_number: string; status: string; failure_reason: string | null }[];
  t.same(
    statuses.map((p) => `${p.reference_number}:${p.status}${p.failure_reason ? `:${p.failure_reason}` : ''}`),
    [
      'order-1001:paid',
      'order-1002:paid',
      'order-1003:paid',
      'order-1004:failed:bank_rejected',
      'order-1005:failed:payer_abandoned',
      'order-1006:paid',
      'order-1007:pending',
    ],
  );
  const status = await call(app, 'GET', `/v1/partner/merchants/${shop.merchantId}/onboarding-status`, undefined, headers);
  t.equal(status.status, 200, 'its credentials read it');
  t.equal(app.db.prepare('SELECT status FROM merchants WHERE id = ?').pluck().get(shop.merchantId), 'activated');
  t.equal(count(app, 'stores', 'merchant_id = ?', shop.merchantId), 1);
  t.equal(count(app, 'deliveries', 'partner_id = ?', res.body.sandboxId), 0, 'building it sent no webhook');
});

t.test('mid-onboarding and expired-consent read back as declared', async (t) => {
  const app = await build(t);
  const mid = await withPersona(app, 'mid-onboarding');
  t.equal(mid.res.status, 200, JSON.stringify(mid.res.body));
  const states = [];
  for (const m of mid.res.body.persona.merchants) {
    states.push(
      (await call(app, 'GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`, undefined, mid.headers)).body.onboardingStatus,
    );
  }
  t.same(states, ['pending_onboarding', 'awaiting_approval', 'rejected'], 'as the onboarding status reads them');

  const consent = await withPersona(app, 'expired-consent');
  t.equal(consent.res.status, 200, JSON.stringify(consent.res.body));
  const merchantId = consent.res.body.persona.merchants[0].merchantId;
  const rows = app.db.prepare('SELECT user_id, status FROM consents WHERE merchant_id = ? ORDER BY id').all(merchantId);
  t.same(rows, [
    { user_id: 'user-typical', status: 'expired' },
    { user_id: 'user-multi-currency', status: 'authorized' },
  ]);
});

t.test('an inline persona with a fixed webhook secret', async (t) => {
  const app = await build(t);
  const { res } = await withPersona(app, {
    name: 'inline',
    merchants: [{ companyName: 'Inline ApS', state: 'inactive' }],
    webhooks: [{ url: 'http://127.0.0.1:9/hooks', events: ['payment.completed'], secret: 'whsec_fixed_for_my_receiver' }],
  });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.match(res.body.persona.webhooks, [{ url: 'http://127.0.0.1:9/hooks', secret: 'whsec_fixed_for_my_receiver' }]);
  t.equal(
    app.db.prepare('SELECT secret FROM webhooks WHERE partner_id = ?').pluck().get(res.body.sandboxId),
    'whsec_fixed_for_my_receiver',
  );
  t.equal(app.db.prepare('SELECT status FROM merchants WHERE id = ?').pluck().get(res.body.persona.merchants[0].merchantId), 'inactive');
});

t.test('a persona with bank profiles: in force in its sandbox from the start', async (t) => {
  const app = await build(t);
  const { res } = await withPersona(app, {
    name: 'banks',
    banks: { 'nordlys-bank': { profile: 'down' }, 'thames-mutual': { profile: 'strict-ais', ais: { pageSize: 20 } } },
    merchants: [{ companyName: 'Banked ApS', state: 'activated', payments: [{ amount: 10, referenceNumber: 'r-1' }] }],
  });
  t.equal(res.status, 200, JSON.stringify(res.body));
  const banks = app.engine.banks.list(res.body.sandboxId);
  t.same([...banks.keys()].sort(), ['nordlys-bank', 'thames-mutual']);
  t.equal(banks.get('thames-mutual')!.profile.ais.pageSize, 20);
  t.equal(app.engine.banks.list('default').size, 0, 'only its own sandbox');
});

t.test('invalid personas: refused naming the path and the reason, nothing created', async (t) => {
  const app = await build(t);
  const cases: [unknown, string, RegExp][] = [
    ['no-such-persona', '/persona', /no such file, and not the name of a shipped persona/],
    [{ name: 'x', merchants: [{ companyName: 'A', state: 'dormant' }] }, '/persona/merchants/0/state', /must be one of: activated/],
    [
      { name: 'x', merchants: [{ companyName: 'A', state: 'pending_onboarding', payments: [{ amount: 1, referenceNumber: 'r' }] }] },
      '/persona/merchants/0/payments',
      /only an activated merchant can have payments/,
    ],
    [
      { name: 'x', merchants: [{ companyName: 'A', state: 'activated', payments: [{ amount: 1, referenceNumber: 'r', colour: 'red' }] }] },
      '/persona/merchants/0/payments/0/colour',
      /merchants\[0\]\.payments\[0\]\.colour: is not a known property/,
    ],
    [{ name: 'x', webhooks: [{ url: 'ftp://nope', events: ['payment.completed'] }] }, '/persona/webhooks/0/url', /must match pattern/],
    [{ name: 'x', banks: { 'nordlys-bank': { failureRate: 2 } } }, '/persona/banks/nordlys-bank/failureRate', /must be <= 1/],
    [{ name: 'x', banks: { 'no-bank': { profile: 'down' } } }, '/persona/banks/no-bank', /not a sandbox bank/],
    // valid by the schema, refused by the API while building: the half-built sandbox is deleted
    [
      { name: 'x', merchants: [{ companyName: 'A', state: 'activated', consents: [{ userId: '' + 'x'.repeat(300) }] }] },
      '/persona/merchants/0/consents/0/userId',
      /answered 400/,
    ],
  ];
  for (const [persona, field, message] of cases) {
    const { res } = await withPersona(app, persona);
    t.equal(res.status, 400, JSON.stringify(persona));
    t.equal(res.body.field, field);
    t.match(res.body.message, message);
  }
  t.equal(count(app, 'sandboxes', 'deleted_at IS NULL'), 0, 'no sandbox is left');
  t.equal(count(app, 'merchants', "partner_id LIKE 'sbx_%'"), 0, 'no row of one either');
  t.throws(() => loadPersona('/nonexistent/file.yaml'), { name: 'Error', source: '/nonexistent/file.yaml' });
  t.equal(
    new PersonaError('f.yaml', '/merchants/0/state', 'is required').message,
    'f.yaml: merchants[0].state: is required',
    'names the place readably',
  );
});

t.test('obsim serve --persona builds it for the default partner, once per database', async (t) => {
  const dir = t.testdir({});
  const db = join(dir, 'obsim.sqlite');
  const file = join(dir, 'mine.yaml');
  writeFileSync(
    file,
    'name: mine\nmerchants:\n  - { companyName: Mine ApS, state: activated, payments: [{ amount: 10, referenceNumber: m-1 }] }\n',
  );
  const lines: string[] = [];
  const first = await startServer({ ...defaultConfig(), port: 0, db, logLevel: 'silent', persona: file }, (l) => lines.push(l));
  t.match(lines.join('\n'), /persona: {3}mine: 1 merchants, 1 payments, 0 consents, 0 webhooks/);
  t.equal(count(first.app, 'payments', "reference_number = 'm-1' AND partner_id = 'sandbox-partner'"), 1);
  await first.close();
  const again: string[] = [];
  const second = await startServer({ ...defaultConfig(), port: 0, db, logLevel: 'silent', persona: file }, (l) => again.push(l));
  t.match(again.join('\n'), /persona: {3}mine \(built at an earlier start of this database\)/);
  t.equal(count(second.app, 'payments', "reference_number = 'm-1'"), 1, 'not built twice');
  await second.close();
  writeFileSync(file, 'name: broken\nmerchants: [{ companyName: B }]\n');
  await t.rejects(
    startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent', persona: file }, () => undefined),
    {
      message: /invalid configuration: persona: .*mine\.yaml: merchants\[0\]\.state: is required/,
    },
  );
});

t.test('the persona example of docs/sandbox-controls.md builds as written', async (t) => {
  const { parse } = await import('yaml');
  const doc = readFileSync(new URL('../../docs/sandbox-controls.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('**Personas**'));
  const block = /```yaml\n([\s\S]*?)\n```/.exec(section)![1];
  const app = await build(t);
  const { res } = await withPersona(app, parse(block));
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.match(res.body.persona, { name: 'my-shop', payments: 2, consents: 1, webhooks: [{ secret: 'whsec_my_fixed_secret_1' }] });
});
