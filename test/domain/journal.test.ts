/**
 * The journal's rules without a database: redaction, body capping, path patterns, JSON paths,
 * matching, counts and the ranking of near misses.
 */
import t from 'tap';
import {
  changedResources,
  countMet,
  describeExpectation,
  differences,
  journalBody,
  journalHeaders,
  jsonPathValue,
  matcherProblem,
  nearMisses,
  pathPattern,
  redactJson,
  REDACTED,
  refusal,
  type MatchableEntry,
} from '../../src/domain/journal.js';

t.test('credential headers are kept as present with the value redacted; other headers are left out', async (t) => {
  const h = journalHeaders({
    'x-partner-client-id': 'p1',
    'x-partner-client-secret': 's3cret',
    authorization: 'Bearer eyJhbGciOi.x.y',
    cookie: 'obsim=abc',
    'x-obsim-admin-key': 'adm',
    'content-type': 'application/json',
    'x-forwarded-for': '10.0.0.1',
  });
  t.same(h, {
    'content-type': 'application/json',
    'x-partner-client-id': 'p1',
    authorization: `Bearer ${REDACTED}`,
    cookie: REDACTED,
    'x-obsim-admin-key': REDACTED,
    'x-partner-client-secret': REDACTED,
  });
  t.notMatch(JSON.stringify(h), /s3cret|eyJhbGciOi|obsim=abc|"adm"/);
});

t.test('credential properties are redacted at any depth; other values stay', async (t) => {
  const v = redactJson({
    token: 'jwt',
    webhook: { secret: 'whsec_1', url: 'u' },
    items: [{ clientSecret: 'x', id: 1 }],
    tokenType: 'Bearer',
  });
  t.same(v, { token: REDACTED, webhook: { secret: REDACTED, url: 'u' }, items: [{ clientSecret: REDACTED, id: 1 }], tokenType: 'Bearer' });
});

t.test('nesting deeper than 32 levels is cut (found by the fuzz suite: it overflowed the stack)', async (t) => {
  let deep: unknown = { token: 'x' };
  for (let i = 0; i < 5000; i++) deep = [deep];
  const text = journalBody(deep, 1_000_000).text ?? '';
  t.match(text, /nested deeper than 32/);
  t.notMatch(text, /"x"/);
  t.same(redactJson({ a: { token: 't' } }), { a: { token: REDACTED } }, 'shallow values are redacted as before');
});

t.test('bodies: JSON re-serialized after redaction, others kept, cut at the limit with a flag', async (t) => {
  t.same(journalBody(undefined, 100), { text: null, truncated: false });
  t.same(journalBody({ secret: 'x', a: 1 }, 100), { text: `{"secret":"${REDACTED}","a":1}`, truncated: false });
  t.same(journalBody('{"token":"abc"}', 100), { text: `{"token":"${REDACTED}"}`, truncated: false });
  t.same(journalBody('<html>', 100), { text: '<html>', truncated: false });
  const cut = journalBody('x'.repeat(300), 256);
  t.equal(cut.text?.length, 256);
  t.equal(cut.truncated, true);
  const multibyte = journalBody('æ'.repeat(200), 257); // 2 bytes each: the cut never splits a character
  t.equal(multibyte.truncated, true);
  t.notMatch(multibyte.text ?? '', /\uFFFD/);
  // at the limit in bytes, whatever the characters' width (3 bytes for '€', 4 for '😀' in two UTF-16 units)
  t.same(journalBody('€'.repeat(100), 300), { text: '€'.repeat(100), truncated: false });
  t.equal(journalBody('€'.repeat(101), 300).truncated, true);
  t.same(journalBody('😀'.repeat(75), 300), { text: '😀'.repeat(75), truncated: false });
  const emoji = journalBody('😀'.repeat(76), 300);
  t.same(emoji, { text: '😀'.repeat(75), truncated: true }, 'cut at 300 bytes, between two characters');
});

t.test('a refusal is read from the ErrorBody', async (t) => {
  t.same(refusal(400, '{"code":"validation_failed","field":"amount"}'), { code: 'validation_failed', field: 'amount' });
  t.same(refusal(404, '{"code":"merchant_not_found"}'), { code: 'merchant_not_found', field: null });
  t.same(refusal(200, '{"code":"x"}'), { code: null, field: null });
  t.same(refusal(410, '<html>'), { code: null, field: null });
});

t.test('changed resources: from the path and the answer of successful writes only', async (t) => {
  t.same(changedResources('POST', '/v1/partner/payments', {}, { paymentId: 5000001, merchantId: 100001 }, 200), {
    paymentId: 5000001,
    merchantId: 100001,
  });
  t.same(changedResources('POST', '/v1/partner/merchants/100001/stores', { merchantId: '100001' }, { storeId: 's' }, 200), {
    merchantId: 100001,
  });
  t.same(changedResources('POST', '/v1/partner/webhooks', {}, { id: 'wh_1' }, 200), { webhookId: 'wh_1' });
  t.same(changedResources('GET', '/v1/partner/payments/1/status', { paymentId: '1' }, { paymentId: 1 }, 200), {});
  t.same(changedResources('POST', '/v1/partner/payments', {}, undefined, 400), {});
});

t.test('path patterns: {name} and * one segment, ** the rest, the rest literal', async (t) => {
  t.ok(pathPattern('/v1/partner/merchants/{id}/onboarding-status').test('/v1/partner/merchants/100001/onboarding-status'));
  t.notOk(pathPattern('/v1/partner/merchants/{id}/onboarding-status').test('/v1/partner/merchants/1/2/onboarding-status'));
  t.ok(pathPattern('/v1/partner/*').test('/v1/partner/payments'));
  t.notOk(pathPattern('/v1/partner/*').test('/v1/partner/payments/1/status'));
  t.ok(pathPattern('/_sandbox/**').test('/_sandbox/clock/advance'));
  t.ok(pathPattern('/_sandbox/**').test('/_sandbox'));
  t.notOk(pathPattern('/v1.partner').test('/v1/partner'), 'a dot is a dot');
  t.ok(pathPattern('/v1/partner/payments').test('/v1/partner/payments'));
});

t.test('JSON paths: dots, indexes and quoted names from the root; anything else refused', async (t) => {
  const v = { a: { b: [{ c: 1 }] }, 'x-y': 2 };
  t.equal(jsonPathValue(v, '$.a.b[0].c'), 1);
  t.equal(jsonPathValue(v, "$['x-y']"), 2);
  t.equal(jsonPathValue(v, '$.a.z.q'), undefined);
  t.same(jsonPathValue(v, '$'), v);
  t.throws(() => jsonPathValue(v, 'a.b'), /not a supported JSON path/);
  t.throws(() => jsonPathValue(v, '$..c'), /not a supported JSON path/);
  t.same(matcherProblem({ jsonPath: { '$[?(@.a)]': 1 } })?.field, '/jsonPath/$[?(@.a)]');
  t.equal(matcherProblem({ jsonPath: { '$.amount': 1 } }), null);
});

const entry = (over: Partial<MatchableEntry>): MatchableEntry => ({
  id: 1,
  method: 'POST',
  path: '/v1/partner/payments',
  query: {},
  headers: { 'content-type': 'application/json' },
  requestBody: { merchantClientId: 'm', amount: 10, referenceNumber: 'order-17' },
  status: 200,
  ...over,
});

t.test('differences: every criterion that is not met, named', async (t) => {
  const e = entry({});
  t.same(differences({ method: 'post', path: '/v1/partner/payments', status: '2xx', body: { referenceNumber: 'order-17' } }, e), []);
  t.same(differences({ jsonPath: { '$.amount': 10 }, headerPresent: ['Content-Type'], headerAbsent: ['x-obsim-scenario'] }, e), []);
  t.same(
    differences(
      {
        method: 'GET',
        status: 201,
        code: 'x',
        body: { referenceNumber: 'order-18' },
        jsonPath: { '$.amount': 11 },
        headerPresent: ['prefer'],
      },
      e,
    ).map((d) => d.field),
    ['method', 'status', 'code', 'body.referenceNumber', 'jsonPath.$.amount', 'headers.prefer'],
  );
  t.same(differences({ query: { page: '2' } }, entry({ query: { page: 2 } })), [], 'query values compare as strings');
});

t.test('counts: exactly, at least, at most; none given means at least one', async (t) => {
  t.ok(countMet({}, 1));
  t.notOk(countMet({}, 0));
  t.ok(countMet({ count: 0 }, 0));
  t.notOk(countMet({ count: 1 }, 2));
  t.ok(countMet({ atLeast: 1, atMost: 3 }, 3));
  t.notOk(countMet({ atMost: 3 }, 4));
  t.equal(describeExpectation({}), 'at least 1');
  t.equal(describeExpectation({ count: 2 }), 'exactly 2');
  t.equal(describeExpectation({ atLeast: 1, atMost: 3 }), 'between 1 and 3');
});

t.test('near misses: closest first (weighted), then newest; entries that miss everything are not near', async (t) => {
  const entries = [
    entry({ id: 1, requestBody: { referenceNumber: 'order-16' } }), // body differs (1)
    entry({ id: 2, method: 'GET', path: '/v1/partner/payments/1/status', requestBody: undefined }), // method+path+body
    entry({ id: 3, requestBody: { referenceNumber: 'order-18' } }), // body differs (1), newer
    entry({ id: 4, path: '/v1/partner/paymentz' }), // path differs (3 + a little)
    entry({ id: 5 }), // matches: not a miss
  ];
  const misses = nearMisses({ method: 'POST', path: '/v1/partner/payments', body: { referenceNumber: 'order-17' } }, entries);
  t.same(
    misses.map((m) => m.entry.id),
    [3, 1, 4],
  );
  t.same(misses[0].differences, [{ field: 'body.referenceNumber', expected: 'order-17', actual: 'order-18' }]);
  t.ok(misses[2].distance > 3 && misses[2].distance < 4, 'a path that differs late is closer than one that differs early');
});

t.test('differences: a body value the entry lacks is null, never left out (the document requires actual)', async (t) => {
  const found = differences({ body: { note: 'x', nested: { a: 1 } } }, entry({ requestBody: undefined }));
  t.ok(found.length > 0);
  for (const d of found) t.ok('actual' in d && d.actual !== undefined, `${d.field}: actual ${JSON.stringify(d.actual)}`);
  t.same(JSON.parse(JSON.stringify(found)), found, 'the same once serialized');
});
