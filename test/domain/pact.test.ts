/**
 * The pure Pact rules: which files are pacts (the metadata forms of the Pact Specification's
 * versions: none in v1, `pact-specification` in v2, `pactSpecification` from v3 on), how a state
 * name or pattern matches and its params are checked, and how an exported answer field is matched.
 */
import t from 'tap';
import { checkPactFile, INSTANT_REGEX, matcherFor, statePattern, stateParams } from '../../src/domain/pact.js';
import { ApiError } from '../../src/domain/errors.js';

const parties = { consumer: { name: 'c' }, provider: { name: 'p' }, interactions: [] };

t.test('pact files: each specification version as it writes its metadata, and what is not a pact', async (t) => {
  t.match(checkPactFile(parties), { ok: true, specVersion: '1.0.0' }, 'v1: no metadata');
  t.match(checkPactFile({ ...parties, metadata: { 'pact-specification': { version: '2.0.0' } } }), { ok: true, specVersion: '2.0.0' });
  t.match(checkPactFile({ ...parties, metadata: { pactSpecification: { version: '3.0.0' } } }), { ok: true, specVersion: '3.0.0' });
  t.match(checkPactFile({ ...parties, metadata: { pactSpecification: { version: '4.0' } } }), { ok: true, specVersion: '4.0' });
  t.match(checkPactFile({ consumer: { name: 'c' }, provider: { name: 'p' }, messages: [] }), { ok: true }, 'a message pact');
  t.same(checkPactFile({ ...parties, metadata: { pactSpecification: { version: '5.0.0' } } }), {
    ok: false,
    problem: 'Pact Specification version "5.0.0" is not supported (obsim takes 1.x, 2.x, 3.x, 4.x)',
  });
  t.same(checkPactFile([]), { ok: false, problem: 'not a pact: a pact is a JSON object' });
  t.same(checkPactFile({ provider: { name: 'p' }, interactions: [] }), { ok: false, problem: 'not a pact: no consumer.name' });
  t.same(checkPactFile({ consumer: { name: 'c' }, provider: { name: 'p' } }), { ok: false, problem: 'not a pact: no interactions' });
});

t.test('state names and patterns', async (t) => {
  t.same(statePattern('a payment').match('a payment'), {});
  t.equal(statePattern('a payment').match('a payment!'), undefined);
  const pattern = statePattern('a shop with a paid order {reference} of {amount} DKK');
  t.same(pattern.placeholders, ['reference', 'amount']);
  t.same(pattern.match('a shop with a paid order ord-7 of 12.5 DKK'), { reference: 'ord-7', amount: '12.5' });
  t.same(statePattern('a (special) [state] {x}').match('a (special) [state] y.z'), { x: 'y.z' }, 'the name is not a regex');
});

t.test('params: from the name in their type, sent ones checked, defaults', async (t) => {
  const declared = {
    amount: { type: 'number' as const, default: 25 },
    status: { type: 'string' as const, enum: ['paid', 'failed'] },
    tags: { type: 'array' as const },
    events: { type: 'array' as const, items: { type: 'string' as const, enum: ['payment.completed', 'payment.failed'] } },
  };
  t.same(stateParams(declared, { amount: '12.5' }, { status: 'paid' }), { amount: 12.5, status: 'paid' });
  t.same(stateParams(declared, {}, {}), { amount: 25 });
  const refused = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return err instanceof ApiError ? { code: err.code, field: err.field, message: err.message } : err;
    }
    return undefined;
  };
  t.match(
    refused(() => stateParams(declared, { amount: 'lots' }, {})),
    { code: 'validation_failed', field: '/state' },
  );
  t.match(
    refused(() => stateParams(declared, {}, { amount: '12' })),
    { code: 'validation_failed', field: '/params/amount', message: 'params.amount must be a number; got "12"' },
  );
  t.match(
    refused(() => stateParams(declared, {}, { status: 'refunded' })),
    { field: '/params/status', message: /one of "paid", "failed"/ },
  );
  t.match(
    refused(() => stateParams(declared, {}, { tags: 'x' })),
    { field: '/params/tags' },
  );
  t.same(stateParams(declared, {}, { events: ['payment.failed'] }), { amount: 25, events: ['payment.failed'] });
  t.match(
    refused(() => stateParams(declared, {}, { events: ['payment.refunded'] })),
    { field: '/params/events', message: /a list, each one of "payment.completed", "payment.failed"/ },
  );
  t.match(
    refused(() => stateParams(declared, {}, { events: [7] })),
    { field: '/params/events' },
  );
  t.match(
    refused(() => stateParams(declared, {}, { colour: 'red' })),
    { code: 'unknown_field', field: '/params/colour' },
  );
  t.match(
    refused(() => stateParams(declared, {}, { toString: 'x' })),
    { code: 'unknown_field', field: '/params/toString' },
    "a name every object has is not a state's param",
  );
});

t.test('matchers of an exported answer field', async (t) => {
  t.same(matcherFor('paid', { id: false, enum: ['pending', 'paid'] }), { match: 'equality' }, 'an enum value identifies the answer');
  t.same(matcherFor('payment_not_found', { id: false, errorCode: true }), { match: 'equality' });
  t.same(matcherFor(null, { id: false }), { match: 'equality' });
  t.same(matcherFor(true, { id: false }), { match: 'equality' });
  t.same(matcherFor(5000001, { id: true }), { match: 'integer' }, 'an id, by type');
  t.same(matcherFor(49.95, { id: false }), { match: 'number' });
  t.same(
    matcherFor('wh_1a', { id: true, pattern: '^wh_[0-9a-f]+$' }),
    { match: 'regex', regex: '^wh_[0-9a-f]+$' },
    "an id by the document's pattern",
  );
  t.same(matcherFor('x', { id: true, pattern: '^wh_[0-9a-f]+$' }), { match: 'type' }, 'not by a pattern its example does not meet');
  t.same(matcherFor('2026-03-02T09:30:00.000Z', { id: false, format: 'date-time' }), { match: 'regex', regex: INSTANT_REGEX });
  t.same(matcherFor('Shop ApS', { id: false }), { match: 'type' });
  for (const instant of ['2026-03-02T09:30:00Z', '2026-03-02T09:30:00.123+01:00']) t.match(instant, new RegExp(INSTANT_REGEX));
  t.notMatch('2026-03-02', new RegExp(INSTANT_REGEX));
});
