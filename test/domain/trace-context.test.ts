/**
 * W3C Trace Context headers (src/domain/trace-context.ts): what a `traceparent` and a `tracestate`
 * obsim continues look like, and what it ignores as the specification says.
 */
import t from 'tap';
import {
  childContext,
  formatTraceparent,
  parseTraceContext,
  parseTraceparent,
  parseTracestate,
  traceHeaders,
} from '../../src/domain/trace-context.js';

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

t.test('traceparent: version 00 exactly, no zero ids, later versions may append fields', async (t) => {
  t.same(parseTraceparent(PARENT), { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', flags: 1 });
  t.equal(formatTraceparent(parseTraceparent(PARENT)!), PARENT);
  t.ok(parseTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later'), 'a later version with more fields');
  for (const bad of [
    `${PARENT}-extra`,
    'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
    '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
    '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01',
    'garbage',
  ]) {
    t.equal(parseTraceparent(bad), undefined, bad);
  }
});

t.test('tracestate: valid lists kept (normalised), invalid ones discarded whole', async (t) => {
  t.equal(parseTracestate('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE'), 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE');
  t.equal(parseTracestate(' rojo=1 ,\t, congo=2 '), 'rojo=1,congo=2', 'spaces and empty members dropped');
  t.equal(parseTracestate(['rojo=1', 'congo=2']), 'rojo=1,congo=2', 'several headers are one list, in order');
  t.equal(parseTracestate('tenant1@vendor=x y'), 'tenant1@vendor=x y', 'a multi-tenant key; a value may hold a space');
  const many = Array.from({ length: 32 }, (_, i) => `k${i}=v`).join(',');
  t.equal(parseTracestate(many), many, '32 members');
  for (const [bad, why] of [
    [`${many},k32=v`, '33 members'],
    ['rojo=1,rojo=2', 'a key twice'],
    ['Rojo=1', 'an upper-case key'],
    ['rojo', 'no value'],
    ['rojo=a,b', 'a comma in a value'],
    ['rojo=a=b', 'an equals sign in a value'],
    [`k=${'v'.repeat(257)}`, 'a value over 256 characters'],
    ['', 'nothing'],
  ] as const) {
    t.equal(parseTracestate(bad), undefined, why);
  }
  const long = Array.from({ length: 20 }, (_, i) => `k${i}=${'v'.repeat(30)}`).join(',');
  t.ok(long.length > 512);
  t.equal(parseTracestate(long), undefined, 'over 512 characters: not passed on in part');
  t.equal(parseTracestate(undefined), undefined);
});

t.test('the context: tracestate only with a valid traceparent; children and stored headers keep it', async (t) => {
  t.equal(parseTraceContext('garbage', 'rojo=1'), undefined, 'no traceparent, no context: the tracestate goes too');
  t.same(parseTraceContext(PARENT, 'Bad=1'), parseTraceparent(PARENT), 'an invalid tracestate is dropped, the parent kept');
  const ctx = parseTraceContext(PARENT, 'rojo=1')!;
  t.equal(ctx.state, 'rojo=1');
  const child = childContext(ctx);
  t.equal(child.traceId, ctx.traceId);
  t.not(child.spanId, ctx.spanId);
  t.equal(child.state, 'rojo=1', 'passed on unchanged');
  t.same(traceHeaders(child), { traceparent: formatTraceparent(child), tracestate: 'rojo=1' });
  t.same(parseTraceContext(traceHeaders(child).traceparent, traceHeaders(child).tracestate), child, 'stored and read back');
  t.equal(childContext(undefined).state, undefined, 'a new trace has no tracestate');
  t.equal(traceHeaders(childContext(undefined)).tracestate, null);
});
