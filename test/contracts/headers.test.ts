/**
 * A version's answer headers (`x-obsim.operations.<operationId>.headers`, docs/contract-versions.md):
 * - a malformed one is refused at load, naming the file and the pointer;
 * - the version's served document declares each in the operation's successful answers;
 * - the answers of the operation under the version carry it, made by its maker from the answer as
 *   the version sends it; under the base, and on other operations, nothing changes;
 * - a value that cannot be made, or cannot be a header's, is not sent (never a 500).
 * Expectations come from the version file written here and the sandbox clock set here; the UUID is
 * checked for its RFC 9562 layout and for being the same for the same payment, not recomputed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { stringify } from 'yaml';
import { VirtualClock } from '../../src/clock.js';
import { ContractFileError } from '../../src/contracts/errors.js';
import { loadVersions } from '../../src/contracts/load.js';
import { committedProviderDocument } from '../../src/plugins/contract-versions.js';
import { build, json, PARTNER } from '../helpers/app.js';

const base = committedProviderDocument();
const JSON_HEADERS = { ...PARTNER, 'content-type': 'application/json' };

const version = (name: string, operations: Record<string, unknown>) => ({
  overlay: '1.0.0',
  info: { title: `headers ${name}`, version: name },
  // an overlay has an action: one that changes nothing a test here reads
  actions: [{ target: '$.info', update: { 'x-test': name } }],
  'x-obsim': { operations },
});

function folderWith(files: Record<string, object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-headers-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), stringify(content));
  return dir;
}

const HEADERS = {
  createPayment: {
    headers: {
      'Retry-After': { const: 2 },
      'X-Payment-Reference': { template: 'PAY-{paymentId}' },
      'X-Payment-Status': { copy: '/status' },
      'X-Payment-Token': { generate: 'uuid', from: '/paymentId' },
      'X-Answered-At': { generate: 'now' },
      // the answer's failureReason is null for a new payment: nothing to send
      'X-Failure': { copy: '/failureReason' },
    },
  },
};

t.test('a malformed answer header is refused at load with the file and the pointer', async (t) => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['a name that is not a header name', { createPayment: { headers: { 'Bad Name': { const: 'x' } } } }, '/Bad Name', /not a valid name/],
    ['no maker', { createPayment: { headers: { 'X-A': {} } } }, '/X-A', /not one value maker/],
    ['an unknown maker', { createPayment: { headers: { 'X-A': { random: true } } } }, '/X-A', /not one value maker/],
    ['a constant that is an object', { createPayment: { headers: { 'X-A': { const: { a: 1 } } } } }, '/X-A/const', /string,number,boolean/],
    ['a header obsim frames', { createPayment: { headers: { 'Content-Type': { const: 'text/plain' } } } }, '/Content-Type', /sets itself/],
    [
      'the version header',
      { createPayment: { headers: { 'Obsim-Contract-Version': { const: 'x' } } } },
      '/Obsim-Contract-Version',
      /sets itself/,
    ],
    ['a deprecation header', { createPayment: { headers: { Sunset: { const: 'x' } } } }, '/Sunset', /sets itself/],
    [
      'a header the document already gives',
      { createPayment: { headers: { 'X-Request-Id': { const: 'x' } } } },
      '/X-Request-Id',
      /already sends x-request-id/,
    ],
    [
      'one name twice',
      { createPayment: { headers: { 'X-A': { const: 'a' }, 'x-a': { const: 'b' } } } },
      '/x-a',
      /names the header X-A again/,
    ],
    ['a copy of no field', { createPayment: { headers: { 'X-A': { copy: '/nowhere' } } } }, '/X-A/copy', /not a field of createPayment/],
    ['an unknown operation', { payNow: { headers: { 'X-A': { const: 'a' } } } }, '', /names no operation/],
  ];
  for (const [what, operations, at, problem] of cases) {
    const dir = folderWith({ 'v.yaml': version('v1', operations) });
    const err = await loadVersions(dir, base).then(
      () => undefined,
      (e: unknown) => e,
    );
    t.ok(err instanceof ContractFileError, `${what}: refused`);
    if (!(err instanceof ContractFileError)) continue;
    t.equal(err.file, join(dir, 'v.yaml'), `${what}: names the file`);
    const op = Object.keys(operations)[0];
    t.equal(err.pointer, `/x-obsim/operations/${op}${at === '' ? '' : `/headers${at}`}`, `${what}: names the pointer`);
    t.match(err.problem, problem, what);
    t.notMatch(err.message, /\n/, `${what}: one line`);
  }
});

t.test('the served document declares the headers; the answers carry them, made from the answer; the base does not', async (t) => {
  const start = '2027-04-01T10:00:00.000Z';
  const a = await build(t, {
    clock: VirtualClock.create({ start, frozen: true }),
    config: { contracts: folderWith({ 'h.yaml': version('headers', HEADERS) }) },
  });
  const doc = json<{ paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, object> }> }>> }>(
    await a.inject({ method: 'GET', url: '/openapi.json?version=headers' }),
  );
  const declared = doc.paths['/v1/partner/payments'].post.responses['200'].headers ?? {};
  t.same(Object.keys(declared).sort(), [
    'Retry-After',
    'X-Answered-At',
    'X-Failure',
    'X-Payment-Reference',
    'X-Payment-Status',
    'X-Payment-Token',
    'x-request-id',
  ]);
  t.match(declared['Retry-After'], { schema: { type: 'string', examples: ['2'] } });
  t.notOk(doc.paths['/v1/partner/payments'].post.responses['4XX'].headers?.['Retry-After'], 'not on an error answer');
  const baseDoc = json<typeof doc>(await a.inject({ method: 'GET', url: '/openapi.json' }));
  t.same(Object.keys(baseDoc.paths['/v1/partner/payments'].post.responses['200'].headers ?? {}), ['x-request-id'], 'the base is the base');

  const merchant = json<{ clientId: string }>(
    await a.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: JSON_HEADERS, payload: { companyName: 'Headers ApS' } }),
  );
  const pay = (ref: string, headers: Record<string, string> = {}) =>
    a.inject({
      method: 'POST',
      url: '/v1/partner/payments',
      headers: { ...JSON_HEADERS, ...headers },
      payload: { merchantClientId: merchant.clientId, amount: 10, referenceNumber: ref },
    });
  const res = await pay('h-1', { 'obsim-contract-version': 'headers' });
  t.equal(res.statusCode, 200);
  const body = json<{ paymentId: string | number; status: string }>(res);
  t.equal(res.headers['retry-after'], '2', 'a constant, as text');
  t.equal(res.headers['x-payment-reference'], `PAY-${body.paymentId}`, 'a template of the answer');
  t.equal(res.headers['x-payment-status'], body.status, 'a copy of a field');
  t.equal(res.headers['x-answered-at'], start, 'the sandbox clock');
  t.match(res.headers['x-payment-token'], /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a UUID');
  t.notOk('x-failure' in res.headers, 'a copy of null is not sent');
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8', 'the answer is still JSON');

  const again = await a.inject({
    method: 'GET',
    url: `/v1/partner/payments/${body.paymentId}/status`,
    headers: { ...PARTNER, 'obsim-contract-version': 'headers' },
  });
  t.equal(again.statusCode, 200);
  t.notOk('retry-after' in again.headers, 'another operation: none of them');

  const underBase = await pay('h-2');
  t.equal(underBase.statusCode, 200);
  for (const name of ['retry-after', 'x-payment-reference', 'x-payment-status', 'x-payment-token', 'x-answered-at'])
    t.notOk(name in underBase.headers, `the base sends no ${name}`);

  const refused = await pay('h-1', { 'obsim-contract-version': 'headers', 'content-type': 'text/plain' });
  t.equal(refused.statusCode >= 400 && refused.statusCode < 500, true, 'a refused request: 4xx');
  t.notOk('retry-after' in refused.headers, 'an error answer carries none of them');
});

t.test('a value that cannot be a header is not sent, the answer is; another merchant, another UUID', async (t) => {
  const a = await build(t, {
    config: {
      contracts: folderWith({
        'h.yaml': version('headers', {
          createTestMerchant: {
            headers: { 'X-Company': { copy: '/companyName' }, 'X-Merchant-Token': { generate: 'uuid', from: '/merchantId' } },
          },
        }),
      }),
    },
  });
  const create = (companyName: string) =>
    a.inject({
      method: 'POST',
      url: '/v1/partner/merchants/test',
      headers: { ...JSON_HEADERS, 'obsim-contract-version': 'headers' },
      payload: { companyName },
    });
  const plain = await create('Plain ApS');
  t.equal(plain.statusCode, 200);
  t.equal(plain.headers['x-company'], 'Plain ApS');
  const broken = await create('Line\r\nBreak ApS');
  t.equal(broken.statusCode, 200, 'not a 500');
  t.notOk('x-company' in broken.headers, 'a value with a line break is not sent');
  t.equal(json<{ companyName: string }>(broken).companyName, 'Line\r\nBreak ApS');
  const unicode = await create('Æblegrød ApS');
  t.equal(unicode.statusCode, 200);
  t.notOk('x-company' in unicode.headers, 'nor one outside printable ASCII');
  t.not(plain.headers['x-merchant-token'], broken.headers['x-merchant-token'], 'another merchant, another UUID');
});
