/**
 * The one capture rule for ids (src/contracts/ids.ts), against the provider's document: an answer
 * hands out the id fields its documented schema places (and the hosted links), a request uses the
 * ids of its template's path, its id-named query parameters and its body's id fields; values the
 * document does not make ids (amounts, references, user ids the partner chooses) never are.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { idsHandedOut, idsUsed, operations } from '../../src/contracts/ids.js';

const ops = operations();
const doc = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

t.test('operations are matched by method and path, the provider’s document and obsim’s controls', async (t) => {
  t.match(ops.match('GET', '/v1/partner/payments/9100001/status'), {
    operationId: 'getPaymentStatus',
    template: '/v1/partner/payments/{paymentId}/status',
    kind: 'provider',
    params: { paymentId: '9100001' },
  });
  t.match(ops.match('POST', '/_sandbox/clock/advance'), { kind: 'control' });
  t.equal(ops.match('DELETE', '/v1/partner/payments/1/status'), undefined, 'a method the path does not take');
  t.equal(ops.match('GET', '/v1/partner/refunds'), undefined, 'a path the document does not have');
});

t.test('what a payment’s answer hands out: the fields its schema names as ids, and its link', async (t) => {
  const op = ops.match('POST', '/v1/partner/payments')!;
  const answer = {
    paymentId: 9100001,
    status: 'pending',
    amount: 49.5,
    referenceNumber: 'KB-1001',
    merchantClientId: 'c0ffee00-0000-4000-8000-000000000001',
    paymentUrl: 'https://hosted.example/checkout?session=abcdefghijklmnopqrstuv',
  };
  const handed = idsHandedOut(op, 200, answer);
  t.same(
    handed.map((h) => [h.pointer, h.kind, h.value, h.link]),
    [
      ['/paymentId', 'payment', 9100001, false],
      ['/merchantClientId', 'merchantClient', 'c0ffee00-0000-4000-8000-000000000001', false],
      ['/paymentUrl', 'paymentLink', answer.paymentUrl, true],
    ].filter(([pointer]) => (pointer as string).slice(1) in (doc.components.schemas.Payment.properties ?? {})),
    'the document’s Payment places these; amount and referenceNumber are not ids',
  );
  t.equal(idsHandedOut(op, 418, answer).length, 0, 'an answer of an undocumented status hands out nothing');
});

t.test('ids in a list, and a token by the schema it stands in', async (t) => {
  const consents = ops.match('GET', '/v1/ais/users/u1/consents')!;
  const list = [{ requestId: 'req-1', merchantId: 5, userId: 'u1', status: 'pending' }];
  t.same(
    idsHandedOut(consents, 200, list).map((h) => [h.pointer, h.kind]),
    [
      ['/0/merchantId', 'merchant'],
      ['/0/requestId', 'consentRequest'],
    ],
  );
  const token = ops.match('POST', '/v1/auth/generate-token')!;
  t.match(idsHandedOut(token, 200, { token: 'eyJ.a.b' }), [{ pointer: '/token', kind: 'aisToken' }]);
});

t.test('what a request uses: path parameters, id-named query parameters, body id fields', async (t) => {
  const consents = ops.match('GET', '/v1/ais/users/u1/consents')!;
  t.same(
    idsUsed(consents, { merchantId: '700001' }, undefined),
    [{ where: 'query', at: 'merchantId', kind: 'merchant', value: '700001' }],
    'userId is the partner’s, not an id handed out',
  );
  const status = ops.match('GET', '/v1/partner/payments/9100001/status')!;
  t.same(idsUsed(status, {}, undefined), [{ where: 'path', at: 'paymentId', kind: 'payment', value: '9100001' }]);
  const token = ops.match('POST', '/v1/auth/generate-token')!;
  t.same(idsUsed(token, {}, { userId: 'u1', merchantId: 700001, permissions: ['ais:accounts:read'] }), [
    { where: 'body', at: '/merchantId', kind: 'merchant', value: '700001' },
  ]);
});
