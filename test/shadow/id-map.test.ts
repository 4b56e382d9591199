/**
 * The shadow's id map (src/shadow/id-map.ts, src/shadow/contract.ts): learned only where the
 * contract places an id, per kind, one-to-one, checked before it is learned; lists paired by id,
 * never by position; a hosted link's token learned wherever the upstream puts it; requests
 * translated only where the contract places an id, with the type obsim's schema wants.
 */
import t from 'tap';
import { contract, learnFromAnswers, translateRequest } from '../../src/shadow/contract.js';
import { IdMap } from '../../src/shadow/id-map.js';

const doc = contract();
const op = (method: string, path: string) => {
  const found = doc.match(method, path);
  if (!found) throw new Error(`no operation ${method} ${path}`);
  return found;
};

t.test('pairs per kind, one-to-one, checked before learned', async (t) => {
  const ids = new IdMap();
  t.same(ids.learn('merchant', '5', '100002'), { ok: true, fresh: true });
  t.same(ids.learn('payment', '5', '5000001'), { ok: true, fresh: true }, 'a payment 5 is not the merchant 5');
  t.equal(ids.mapped('merchant', '5'), '100002');
  t.equal(ids.mapped('payment', '5'), '5000001');
  t.same(ids.learn('merchant', '5', '100002'), { ok: true, fresh: false }, 'the same pair again');
  t.match(ids.learn('merchant', '5', '100003'), {
    ok: false,
    conflict: /merchant 5 stands for obsim's 100002, this answer pairs it with 100003/,
  });
  t.match(ids.learn('merchant', '6', '100002'), { ok: false, conflict: /obsim's merchant 100002 stands for the upstream's 5/ });
  t.equal(ids.mapped('merchant', '5'), '100002', 'a conflict is not learned: neither kept twice nor overwritten');
  t.equal(ids.mapped('merchant', '6'), undefined);
});

t.test("only the contract's id fields are learned: a registration's url teaches nothing, nor does a link's layout", async (t) => {
  const ids = new IdMap();
  const register = op('POST', '/v1/partner/webhooks');
  const a = learnFromAnswers(
    register,
    200,
    { id: 'hook-aaaa-1', url: 'http://127.0.0.1:9100/webhooks', events: ['payment.completed'], secret: 's1' },
    { id: 'wh_0123456789abcdef01234567', url: 'http://127.0.0.1:9200/obsim-hooks/1', events: ['payment.completed'], secret: 's2' },
    ids,
  );
  t.same(a.conflicts, []);
  t.equal(ids.mapped('webhook', 'hook-aaaa-1'), 'wh_0123456789abcdef01234567');
  t.equal(ids.size, 1, 'nothing learned from the urls');
  // a second registration (the old map learned "webhooks -> 1" from these two urls and rewrote every later path)
  const next = translateRequest(
    register,
    '/v1/partner/webhooks',
    { url: 'http://127.0.0.1:9100/webhooks', events: ['payment.failed'] },
    ids,
  );
  t.equal(next.path, '/v1/partner/webhooks', 'the path keeps its segments');

  const create = op('POST', '/v1/partner/payments');
  learnFromAnswers(
    create,
    200,
    { paymentId: 9000001, paymentUrl: 'https://sandbox.provider.example/payments/tok_9f8e7d6c5b4a39281706', status: 'pending' },
    { paymentId: 5000001, paymentUrl: 'http://127.0.0.1:4010/pay/pay_5000001_aaaaaaaaaaaaaaaaaaaaaa', status: 'pending' },
    ids,
  );
  t.equal(ids.mapped('payment', '9000001'), '5000001');
  t.equal(ids.mapped('paymentLink', 'tok_9f8e7d6c5b4a39281706'), 'pay_5000001_aaaaaaaaaaaaaaaaaaaaaa', "the link's token");
  const status = translateRequest(op('GET', '/v1/partner/payments/9000001/status'), '/v1/partner/payments/9000001/status', undefined, ids);
  t.equal(status.path, '/v1/partner/payments/5000001/status', "no `payments -> pay`: only the template's {paymentId} is translated");
});

t.test('a link of another layout: the token in a query parameter, on another host; its page reached in obsim', async (t) => {
  const ids = new IdMap();
  ids.learnLink(
    'paymentLink',
    'https://hosted.double.test/checkout?session=ses_1f2e3d4c5b6a&lang=da',
    'http://127.0.0.1:4010/pay/pay_5000001_x9',
  );
  t.equal(ids.mapped('paymentLink', 'ses_1f2e3d4c5b6a'), 'pay_5000001_x9');
  t.same(ids.hostedPath('/checkout?session=ses_1f2e3d4c5b6a&lang=da'), {
    path: '/pay/pay_5000001_x9',
    kind: 'paymentLink',
    token: 'ses_1f2e3d4c5b6a',
    mapped: 'pay_5000001_x9',
  });
  t.equal(ids.hostedPath('/somewhere/else?session=ses_1f2e3d4c5b6a'), undefined, 'another path is no learned layout');
  t.equal(
    ids.learnLink('paymentLink', 'https://h.test/a1b2c3d4e5/f6g7h8i9j0', 'http://o/pay/p_1'),
    undefined,
    'two parts that could be the token: nothing learned rather than a guess',
  );
});

t.test('lists are paired by id, never by position: a misaligned list does not confirm itself', async (t) => {
  const ids = new IdMap();
  ids.learn('merchant', '700002', '100003');
  const list = op('GET', '/v1/partner/merchants');
  const learned = learnFromAnswers(
    list,
    200,
    {
      items: [
        { merchantId: 700001, clientId: 'up-old', companyName: 'made before' },
        { merchantId: 700002, clientId: 'up-new', companyName: 'Shop' },
      ],
      page: 1,
      limit: 20,
      total: 2,
    },
    {
      items: [
        { merchantId: 100002, clientId: 'obs-seeded', companyName: 'obsim default' },
        { merchantId: 100003, clientId: 'obs-new', companyName: 'Shop' },
      ],
      page: 1,
      limit: 20,
      total: 2,
    },
    ids,
  );
  t.same(learned.conflicts, []);
  t.equal(ids.mapped('merchantClient', 'up-new'), 'obs-new', 'the item paired by its known merchantId teaches its clientId');
  t.equal(ids.mapped('merchant', '700001'), undefined, 'the first items are not paired by position');
  t.equal(ids.mapped('merchantClient', 'up-old'), undefined);
});

t.test("a bank user's accounts, made by neither side, pair by position the first time both list as many", async (t) => {
  const ids = new IdMap();
  const accounts = op('POST', '/v1/ais/accounts');
  const envelope = (ids: string[]) => ({
    userId: 'u',
    merchantId: 1,
    clientId: 'c',
    consentId: 'k',
    accounts: ids.map((accountId) => ({ accountId })),
    totalAccounts: ids.length,
  });
  learnFromAnswers(accounts, 200, envelope(['a-up', 'b-up']), envelope(['a-obs', 'b-obs']), ids);
  t.equal(ids.mapped('account', 'a-up'), 'a-obs');
  t.equal(ids.mapped('account', 'b-up'), 'b-obs');
  learnFromAnswers(accounts, 200, envelope(['c-up']), envelope(['c-obs', 'd-obs']), ids);
  t.equal(ids.mapped('account', 'c-up'), undefined, 'not as many on each side: nothing learned');
  const conflict = learnFromAnswers(accounts, 200, envelope(['b-up', 'a-up']), envelope(['a-obs', 'b-obs']), ids);
  t.equal(ids.mapped('account', 'b-up'), 'b-obs', 'known accounts pair by id, in whatever order they are listed');
  t.same(conflict.conflicts, []);
  const merchants = op('GET', '/v1/partner/merchants');
  learnFromAnswers(merchants, 200, { items: [{ merchantId: 9 }], total: 1 }, { items: [{ merchantId: 5 }], total: 1 }, ids);
  t.equal(ids.mapped('merchant', '9'), undefined, 'no other list pairs by position');
});

t.test("a translated id takes the type obsim's request schema wants; an unknown one is named", async (t) => {
  const ids = new IdMap();
  ids.learn('merchant', 'm-77', '100002');
  ids.learn('merchantClient', 'c-77', '1f0e4f39-7f5a-4c0a-9e1e-6b9d5f0d8a11');
  const token = op('POST', '/v1/auth/generate-token');
  const t1 = translateRequest(
    token,
    '/v1/auth/generate-token',
    { userId: 'u', merchantId: 'm-77', permissions: ['ais:accounts:read'] },
    ids,
  );
  t.same(t1.body, { userId: 'u', merchantId: 100002, permissions: ['ais:accounts:read'] }, 'a number where obsim wants an integer');
  const pay = op('POST', '/v1/partner/payments');
  const t2 = translateRequest(pay, '/v1/partner/payments', { merchantClientId: 'c-77', amount: 100002, referenceNumber: 'c-77' }, ids);
  t.same(
    t2.body,
    { merchantClientId: '1f0e4f39-7f5a-4c0a-9e1e-6b9d5f0d8a11', amount: 100002, referenceNumber: 'c-77' },
    'only the id field',
  );
  const t3 = translateRequest(
    op('GET', '/v1/partner/merchants/5/onboarding-status'),
    '/v1/partner/merchants/5/onboarding-status',
    undefined,
    ids,
  );
  t.same(t3.unknown, ['merchant 5']);
});
