import t from 'tap';
import { formatMismatches, partialMatch } from '../../src/domain/match.js';
import { getPath, render, TemplateError, type TemplateContext } from '../../src/scenarios/template.js';

function ctx(vars: Record<string, unknown> = {}): TemplateContext {
  return { vars, runId: 'abc123', nowMs: () => Date.parse('2026-01-15T09:00:00.000Z'), counter: { n: 0 } };
}

t.test('variables keep their type when the string is one ${…}, and are stringified inside text', async (t) => {
  const c = ctx({ 'merchant.id': 100001, 'merchant.clientId': 'c-1', obj: { list: [{ a: 'x' }] } });
  t.equal(render('${merchant.id}', c), 100001);
  t.equal(render('id ${merchant.id} of ${merchant.clientId}', c), 'id 100001 of c-1');
  t.equal(render('${obj.list[0].a}', c), 'x', 'paths into captured objects');
  t.same(
    render({ k: ['${merchant.id}', { '${merchant.clientId}': true }] }, c),
    { k: [100001, { 'c-1': true }] },
    'objects, arrays and keys',
  );
  t.equal(render('literal $${merchant.id}', c), 'literal ${merchant.id}', '$${ escapes');
  t.equal(render(42, c), 42);
});

t.test('generated values are fresh at each use and unique within the run', async (t) => {
  const c = ctx();
  const [u1, u2] = [render<unknown>('${uuid}', c), render<unknown>('${uuid}', c)] as string[];
  t.match(u1, /^[0-9a-f-]{36}$/);
  t.not(u1, u2);
  t.equal(render('${unique}', c), 'abc123-1');
  t.equal(render('${unique}', c), 'abc123-2');
  t.equal(render('${run.id}', c), 'abc123');
  const n = render<unknown>('${random.int}', c) as number;
  t.ok(Number.isInteger(n) && n >= 1);
  t.match(render('${random.digits(8)}', c), /^\d{8}$/);
  for (let i = 0; i < 50; i++) {
    const a = render<unknown>('${random.amount}', c) as number;
    t.ok(a >= 1 && a < 1000 && ![666.66, 777.77, 888.88, 999.99].includes(a));
  }
});

t.test('virtual now and time arithmetic', async (t) => {
  const c = ctx({ 'payment.expiresAt': '2026-01-15T09:30:00.000Z' });
  t.equal(render('${now}', c), '2026-01-15T09:00:00.000Z');
  t.equal(render('${now+90d}', c), '2026-04-15T09:00:00.000Z');
  t.equal(render('${now - 30m}', c), '2026-01-15T08:30:00.000Z');
  t.equal(render('${payment.expiresAt+1s}', c), '2026-01-15T09:30:01.000Z');
  t.throws(() => render('${merchant.id+1s}', ctx({ 'merchant.id': 5 })), /not an ISO 8601 instant/);
});

t.test('unknown variables and bad expressions are clear errors', async (t) => {
  t.throws(() => render('${nope}', ctx({ a: 1, b: 2 })), new TemplateError('unknown variable ${nope} (defined: a, b)'));
  t.throws(() => render('x ${nope.deeper}', ctx()), /unknown variable \$\{nope\.deeper\} \(no variables defined yet\)/);
  t.throws(() => render('${a b}', ctx()), /is not a valid expression/);
});

t.test('getPath', async (t) => {
  const body = { accounts: [{ accountId: 'a1' }], n: 0 };
  t.same(getPath(body, 'accounts[0].accountId'), { ok: true, value: 'a1' });
  t.same(getPath(body, '$'), { ok: true, value: body });
  t.same(getPath(body, '$.n'), { ok: true, value: 0 });
  t.same(getPath(body, 'accounts[3]'), { ok: false });
  t.same(getPath(null, 'x'), { ok: false });
});

t.test('partial match: objects, arrays, scalars and matchers, with the path of each mismatch', async (t) => {
  const actual = { status: 'paid', amount: 12.5, nested: { a: 1, b: [1, 2] }, n: null, s: 'order-42' };
  t.same(partialMatch({ status: 'paid', nested: { b: [1, 2] } }, actual), []);
  t.same(
    partialMatch({ amount: '12.5' }, actual).map((m) => [m.path, m.reason]),
    [['amount', 'differs']],
    'no coercion',
  );
  t.same(
    partialMatch({ nested: { b: [1, 3] } }, actual).map((m) => m.path),
    ['nested.b[1]'],
  );
  t.same(
    partialMatch({ nested: { b: [1] } }, actual).map((m) => m.reason),
    ['length differs'],
  );
  t.same(
    partialMatch({ missing: 1 }, actual).map((m) => m.reason),
    ['is missing'],
  );
  t.same(partialMatch({ status: '$any', n: '$type:null', amount: '$type:number', s: '$regex:^order-\\d+$', gone: '$absent' }, actual), []);
  t.same(
    partialMatch({ status: '$absent', gone: '$any', s: '$regex:^x', amount: '$type:integer' }, actual).map((m) => m.path),
    ['status', 'gone', 's', 'amount'],
  );
  t.same(
    partialMatch({ nested: 'x' }, actual).map((m) => m.reason),
    ['differs'],
  );
  t.same(
    partialMatch([{ a: 1 }], { a: 1 }).map((m) => m.reason),
    ['expected an array, got object'],
  );
  t.same(
    partialMatch({ a: 1 }, [1]).map((m) => m.reason),
    ['expected an object, got array'],
  );
  const text = formatMismatches('response body', partialMatch({ status: 'paid' }, { status: 'failed' }), { status: 'failed' });
  t.equal(
    text,
    [
      'response body does not match:',
      '  at status: differs',
      '    expected: "paid"',
      '    actual:   "failed"',
      '  actual response body:',
      '    {',
      '      "status": "failed"',
      '    }',
    ].join('\n'),
  );
});
