/**
 * The comparison rules of drift (src/domain/drift.ts): what is normalised (ids through the map,
 * instants, links, tokens and messages by shape) and what each kind of difference is reported as.
 */
import t from 'tap';
import { compareAnswers, compareHeaders, compareJson, formatOf, type CompareContext } from '../../src/domain/drift.js';

const map = new Map([
  ['100002', '100007'],
  ['cli-up', 'cli-obs'],
]);
const ctx: CompareContext = {
  mapped: (_key, u) => map.get(u),
  knownObsim: (_key, o) => [...map.values()].includes(o),
  enumKeys: new Set(['status', 'currency']),
};

t.test('formats', async (t) => {
  t.same(
    [
      '2026-11-27T18:10:10.421Z',
      '2026-11-27',
      '6fd441e9-517a-42e0-81ba-f5bb4cfca5de',
      'https://x.example/a',
      'a@b.dk',
      'eyJ.eyJ.sig',
      '42',
      '7204.90',
      'Nordlys',
    ].map(formatOf),
    ['date-time', 'date', 'uuid', 'url', 'email', 'jwt', 'integer-string', 'decimal-string', 'text'],
  );
});

t.test('normalised: ids through the map, instants, links, tokens, secrets and messages by shape', async (t) => {
  const upstream = {
    merchantId: 100002,
    clientId: 'cli-up',
    createdAt: '2026-11-27T18:10:10.421Z',
    paymentUrl: 'https://provider.example/pay/abc',
    secret: 'whsec_up',
    token: 'eyJ.eyJ.up',
    message: 'Merchant created',
    amount: 12.5,
  };
  const obsim = {
    ...upstream,
    merchantId: 100007,
    clientId: 'cli-obs',
    createdAt: '2026-01-15T09:00:00.000Z',
    paymentUrl: 'http://127.0.0.1:4010/pay/def',
    secret: 'whsec_obs',
    token: 'eyJ.eyJ.obs',
    message: 'Test merchant created',
  };
  t.same(compareJson(upstream, obsim, ctx), []);
});

t.test('each kind of difference, at its pointer', async (t) => {
  const upstream = {
    a: { b: 1, c: 'x', d: 'DKK', when: '2026-11-27T18:10:10.421Z', added: true },
    status: 'paid',
    list: [1, 2, 3],
    id: 100002,
  };
  const obsim = { a: { b: '1', c: 'y', d: 'EUR', when: '2026-11-27', missing: 1 }, status: 'pending', list: [1, 2], id: 100009 };
  const ctx2: CompareContext = { ...ctx, enumKeys: new Set(['status', 'd']) };
  t.same(compareJson(upstream, obsim, ctx2), [
    { kind: 'type', pointer: '/a/b', upstream: 1, obsim: '1' },
    { kind: 'value', pointer: '/a/c', upstream: 'x', obsim: 'y' },
    { kind: 'enum_value', pointer: '/a/d', upstream: 'DKK', obsim: 'EUR' },
    { kind: 'format', pointer: '/a/when', upstream: '2026-11-27T18:10:10.421Z', obsim: '2026-11-27' },
    { kind: 'field_added', pointer: '/a/added', upstream: true },
    { kind: 'field_missing', pointer: '/a/missing', obsim: 1 },
    { kind: 'enum_value', pointer: '/status', upstream: 'paid', obsim: 'pending' },
    { kind: 'field_added', pointer: '/list/2', upstream: 3 },
    { kind: 'value', pointer: '/id', upstream: 100002, obsim: 100009 },
  ]);
  t.same(
    compareJson({ 'a/b': { '~': 1 } }, { 'a/b': {} }, ctx),
    [{ kind: 'field_added', pointer: '/a~1b/~0', upstream: 1 }],
    'RFC 6901 escapes',
  );
});

t.test('lists of resources are paired by id; items made before the shadow watched are compared by shape, and counted', async (t) => {
  const upstream = [
    { merchantId: 99, companyName: 'made before the shadow watched', status: 'inactive' },
    { merchantId: 100002, companyName: 'Shop', status: 'activated' },
  ];
  // obsim's own earlier merchant (its seeded one) is not the upstream's to list either
  const obsim = [
    { merchantId: 100001, companyName: 'obsim default', status: 'activated' },
    { merchantId: 100007, companyName: 'Shop', status: 'activated' },
  ];
  const stats = { preExisting: 0 };
  t.same(compareJson(upstream, obsim, ctx, '', '', stats), [], 'no value drift on an item never seen made');
  t.equal(stats.preExisting, 2, 'one on each side, counted');
  t.same(
    compareJson([{ merchantId: 99, companyName: 'x', region: 'eu' }], [{ merchantId: 100001, companyName: 'y' }], ctx),
    [{ kind: 'field_added', pointer: '/0/region', upstream: 'eu' }],
    'its shape is still compared',
  );
  t.same(
    compareJson({ items: upstream, total: 2 }, { items: obsim.slice(1), total: 1 }, ctx),
    [],
    'a count beside a list with unknown items is compared by type only',
  );
  t.same(
    compareJson({ items: upstream.slice(1), total: 1 }, { items: obsim.slice(1), total: 2 }, ctx),
    [{ kind: 'value', pointer: '/total', upstream: 1, obsim: 2 }],
    'and by value when every item is known',
  );
  t.same(compareJson([{ merchantId: 100002, companyName: 'Shop' }], [], ctx), [
    { kind: 'field_added', pointer: '/0', upstream: { merchantId: 100002, companyName: 'Shop' } },
  ]);
});

t.test('headers: the media type of content-type, and whether retry-after and x-request-id are there', async (t) => {
  t.same(
    compareHeaders(
      { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'a' },
      { 'content-type': 'application/json', 'x-request-id': 'b' },
    ),
    [],
  );
  t.same(compareHeaders({ 'content-type': 'text/plain', 'retry-after': '1' }, { 'content-type': 'application/json' }), [
    { kind: 'header', pointer: 'content-type', upstream: 'text/plain', obsim: 'application/json' },
    { kind: 'header', pointer: 'retry-after', upstream: '1' },
  ]);
});

t.test('verdicts: match, drift, and why an exchange is uncomparable', async (t) => {
  const answer = (status: number, json: unknown, text = JSON.stringify(json) ?? '') => ({
    status,
    headers: { 'content-type': 'application/json' },
    json,
    text,
  });
  t.same(compareAnswers({ upstream: answer(200, { a: 1 }), obsim: answer(200, { a: 1 }) }, ctx), {
    verdict: 'match',
    drifts: [],
    preExisting: 0,
  });
  t.match(compareAnswers({ upstream: answer(201, { a: 1 }), obsim: answer(200, { a: 1 }) }, ctx), {
    verdict: 'drift',
    drifts: [{ kind: 'status', upstream: 201, obsim: 200 }],
  });
  t.match(
    compareAnswers({ upstream: answer(400, { code: 'x' }), obsim: answer(200, { a: 1 }) }, ctx),
    { verdict: 'drift', drifts: [{ kind: 'status' }] },
    'the upstream refused what obsim took: a drift',
  );
  t.match(compareAnswers({ upstream: answer(503, {}), obsim: answer(200, {}) }, ctx), {
    verdict: 'uncomparable',
    reason: 'the upstream answered 503',
  });
  t.match(compareAnswers({ upstream: answer(200, {}), obsim: answer(404, { code: 'merchant_not_found' }) }, ctx), {
    verdict: 'uncomparable',
    reason: 'obsim refused (404 merchant_not_found) a step the upstream accepted (200)',
  });
  t.match(compareAnswers({ upstream: { status: 200, headers: {}, json: undefined, text: '<html>' }, obsim: answer(200, {}) }, ctx), {
    verdict: 'uncomparable',
    reason: /not JSON/,
  });
});

t.test("the bank's data: values by shape, enums against the document's list, ids through the map", async (t) => {
  // the document's lists, as a reader of openapi.json would write them down
  const enumValues = new Map([
    ['accountType', new Set(['current', 'savings', 'credit_card'])],
    ['type', new Set(['debit', 'credit'])],
  ]);
  const bank: CompareContext = { ...ctx, enumKeys: new Set(enumValues.keys()), enumValues, bankData: true };
  const upstream = {
    accountId: 'acc-up',
    iban: 'DK5030004440116243',
    balance: '18.20',
    accountType: 'savings',
    totalAccounts: 1,
    holder: 'A',
  };
  const obsim = {
    accountId: 'acc-obs',
    iban: 'DK6824703628921513',
    balance: '7204.90',
    accountType: 'current',
    totalAccounts: 3,
    holder: 'B',
  };
  t.same(compareJson(upstream, obsim, bank), [], "another bank's holder, IBAN, balance, type and count: no drift");
  t.same(
    compareJson({ ...upstream, accountType: 'CACC', balance: 18.2 }, obsim, bank),
    [
      { kind: 'type', pointer: '/balance', upstream: 18.2, obsim: '7204.90' },
      { kind: 'enum_value', pointer: '/accountType', upstream: 'CACC' },
    ],
    'a value of another type, and an enum value the document does not list',
  );
  t.same(compareJson({ ...upstream, balance: '18,20' }, obsim, bank), [
    { kind: 'format', pointer: '/balance', upstream: '18,20', obsim: '7204.90' },
  ]);
  const known: CompareContext = { ...bank, mapped: (_k, u) => (u === 'acc-up' ? 'acc-other' : undefined) };
  t.same(
    compareJson(upstream, obsim, known),
    [{ kind: 'value', pointer: '/accountId', upstream: 'acc-up', obsim: 'acc-obs' }],
    'ids still through the map',
  );
  t.same(
    compareJson(upstream, obsim, { ...ctx, enumKeys: new Set(['accountType']), enumValues }),
    [
      { kind: 'value', pointer: '/iban', upstream: 'DK5030004440116243', obsim: 'DK6824703628921513' },
      { kind: 'value', pointer: '/balance', upstream: '18.20', obsim: '7204.90' },
      { kind: 'enum_value', pointer: '/accountType', upstream: 'savings', obsim: 'current' },
      { kind: 'value', pointer: '/totalAccounts', upstream: 1, obsim: 3 },
      { kind: 'value', pointer: '/holder', upstream: 'A', obsim: 'B' },
    ],
    'outside the bank data the same values are drifts',
  );
});

t.test('items made before the shadow watched: an unlisted enum value is reported; the nearest obsim item gives the shape', async (t) => {
  const enumValues = new Map([['status', new Set(['pending', 'paid'])]]);
  const c: CompareContext = { ...ctx, enumValues };
  const drifts = compareJson(
    {
      items: [
        { paymentId: 1, status: 'PAID', note: 'a' },
        { paymentId: 2, status: 'paid', note: 'x', extra: false },
      ],
    },
    {
      items: [
        { paymentId: 200001, status: 'paid', note: 'y', extra: true },
        { paymentId: 200002, status: 'paid', note: 'z' },
      ],
    },
    c,
  );
  t.same(
    drifts,
    [{ kind: 'enum_value', pointer: '/items/0/status', upstream: 'PAID' }],
    'one unlisted value; each item shaped like the obsim item with its fields',
  );
});

t.test("a failure's prose (errorMessage, subTppMessage) is compared by shape", async (t) => {
  t.same(
    compareJson({ errorMessage: 'Declined by the account holder' }, { errorMessage: 'The user denied the consent at the bank' }, ctx),
    [],
  );
  t.same(compareJson({ subTppMessage: 'x' }, { subTppMessage: null }, ctx), [
    { kind: 'type', pointer: '/subTppMessage', upstream: 'x', obsim: null },
  ]);
});
