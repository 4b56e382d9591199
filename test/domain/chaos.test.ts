/**
 * The seeded fault decisions (src/domain/chaos.ts) as properties: the same seed and sequence give
 * the same faults; a rule's faults depend only on its own matches (not on other operations or
 * rules, not on anything a request carries); a rate lands within a binomial tolerance; sampled
 * latencies stay in their bounds. And the shipped profiles are valid profiles.
 */
import fc from 'fast-check';
import t from 'tap';
import { createFaultDecider, MAX_FAULT_DELAY_MS, type ApiRule, type FaultProfile } from '../../src/domain/chaos.js';
import { profileToApply, SHIPPED_PROFILES } from '../../src/domain/chaos-profiles.js';
import type { ApiError } from '../../src/domain/errors.js';
import { schemaErrors } from '../helpers/app.js';

const OPS = ['createPayment', 'getPaymentStatus', 'listMerchants', 'generateToken'].map((operationId) => ({
  operationId,
  route: `POST /v1/${operationId}`,
}));
const opArb = fc.constantFrom(...OPS);
const seedArb = fc.integer({ min: 0, max: 2 ** 32 - 1 });
const rateArb = fc.double({ min: 0, max: 1, noNaN: true });
const ruleArb: fc.Arbitrary<ApiRule> = fc.oneof(
  fc.record({
    kind: fc.constant('error' as const),
    rate: rateArb,
    status: fc.constantFrom(429, 500, 502, 503, 504),
    operation: fc.option(fc.constantFrom(...OPS.map((o) => o.operationId)), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('drop' as const), rate: rateArb, when: fc.constantFrom('instead' as const, 'after' as const) }),
  fc.record({
    kind: fc.constant('latency' as const),
    rate: rateArb,
    latency: fc.oneof(
      fc.record({ distribution: fc.constant('fixed' as const), ms: fc.nat(MAX_FAULT_DELAY_MS) }),
      fc.record({ distribution: fc.constant('normal' as const), meanMs: fc.nat(5000), stddevMs: fc.nat(5000) }),
    ),
  }),
);
const strip = (rule: ApiRule): ApiRule => JSON.parse(JSON.stringify(rule)) as ApiRule;
const run = (profile: FaultProfile, ops: typeof OPS) => {
  const d = createFaultDecider(profile);
  return ops.map((op, i) => d.api(op, i * 1000) ?? null);
};

t.test('the same seed and the same sequence of requests: the same faults', async () => {
  fc.assert(
    fc.property(seedArb, fc.array(ruleArb, { minLength: 1, maxLength: 10 }), fc.array(opArb, { maxLength: 200 }), (seed, rules, ops) => {
      const profile = { seed, rules: rules.map(strip) };
      return JSON.stringify(run(profile, ops)) === JSON.stringify(run(profile, ops));
    }),
    { seed: 29, numRuns: 200 },
  );
});

t.test("a rule's faults depend only on the requests it matches: other operations interleaved change nothing", async () => {
  const rule: ApiRule = { kind: 'error', operation: 'createPayment', rate: 0.3, status: 503 };
  fc.assert(
    fc.property(seedArb, fc.nat(300), fc.array(fc.constantFrom(...OPS.slice(1)), { maxLength: 300 }), (seed, n, noise) => {
      const payments = Array.from({ length: n }, () => OPS[0]);
      const alone = run({ seed, rules: [rule] }, payments).map((f) => f?.kind ?? '-');
      // the same payments with other operations (and another rule for them) between them
      const mixed = payments.flatMap((p, i) => [p, ...noise.slice(i, i + 1)]);
      const other: ApiRule = { kind: 'latency', operation: 'listMerchants', rate: 0.5, latency: { distribution: 'fixed', ms: 1 } };
      const d = createFaultDecider({ seed, rules: [rule, other] });
      const seen = mixed
        .map((op) => ({ op, f: d.api(op, 0) }))
        .filter((x) => x.op === OPS[0])
        .map((x) => x.f?.kind ?? '-');
      return JSON.stringify(seen) === JSON.stringify(alone);
    }),
    { seed: 31, numRuns: 100 },
  );
});

t.test('a rate r over 10,000 requests lands within a binomial tolerance', async () => {
  fc.assert(
    fc.property(seedArb, fc.constantFrom(0.001, 0.01, 0.1, 0.5, 0.9, 0.999), (seed, rate) => {
      const d = createFaultDecider({ seed, rules: [{ kind: 'error', rate, status: 503 }] });
      const n = 10_000;
      let fired = 0;
      for (let i = 0; i < n; i++) if (d.api(OPS[0], 0)) fired++;
      const sd = Math.sqrt(n * rate * (1 - rate));
      return Math.abs(fired - n * rate) <= 5 * sd + 1;
    }),
    { seed: 37, numRuns: 30 },
  );
  const never = createFaultDecider({ seed: 1, rules: [{ kind: 'error', rate: 0, status: 503 }] });
  const always = createFaultDecider({ seed: 1, rules: [{ kind: 'error', rate: 1, status: 503 }] });
  t.notOk(Array.from({ length: 1000 }, () => never.api(OPS[0], 0)).some(Boolean), 'rate 0: never');
  t.ok(Array.from({ length: 1000 }, () => always.api(OPS[0], 0)).every(Boolean), 'rate 1: always');
});

t.test('sampled latencies stay within their bounds', async () => {
  fc.assert(
    fc.property(seedArb, fc.nat(MAX_FAULT_DELAY_MS), fc.nat(MAX_FAULT_DELAY_MS), (seed, a, b) => {
      const [minMs, maxMs] = a <= b ? [a, b] : [b, a];
      const d = createFaultDecider({
        seed,
        rules: [
          { kind: 'latency', operation: 'createPayment', rate: 1, latency: { distribution: 'uniform', minMs, maxMs } },
          { kind: 'latency', operation: 'listMerchants', rate: 1, latency: { distribution: 'normal', meanMs: a, stddevMs: b } },
        ],
      });
      for (let i = 0; i < 50; i++) {
        const u = d.api(OPS[0], 0);
        const n = d.api(OPS[2], 0);
        if (u?.kind !== 'latency' || u.delayMs < minMs || u.delayMs > maxMs) return false;
        if (n?.kind !== 'latency' || n.delayMs < 0 || n.delayMs > MAX_FAULT_DELAY_MS) return false;
      }
      return true;
    }),
    { seed: 41, numRuns: 100 },
  );
});

t.test('webhook decisions: the same seed and events, the same faults; each kind from its first firing rule', async (t) => {
  const rules = [
    { kind: 'webhook_duplicate' as const, rate: 0.5, copies: 2 },
    { kind: 'webhook_reorder' as const, rate: 0.5, withinMs: 1000 },
    { kind: 'webhook_drop' as const, event: 'payment.failed', rate: 0.5 },
  ];
  fc.assert(
    fc.property(seedArb, fc.array(fc.constantFrom('payment.completed', 'payment.failed'), { maxLength: 100 }), (seed, events) => {
      const once = () => {
        const d = createFaultDecider({ seed, rules });
        return JSON.stringify(events.map((e) => d.webhook(e, 0) ?? null));
      };
      return once() === once();
    }),
    { seed: 43, numRuns: 100 },
  );
  const d = createFaultDecider({ seed: 5, rules: [{ kind: 'webhook_drop', event: 'payment.failed', rate: 1 }] });
  t.equal(d.webhook('payment.completed', 0), undefined, 'another event is not matched');
  t.same(d.webhook('payment.failed', 0), { drop: { rule: 0, kind: 'webhook_drop' } });
});

t.test('a window: only requests on the sandbox clock inside it are matched (and draw)', async (t) => {
  const window = { from: '2026-01-01T10:00:00Z', to: '2026-01-01T10:05:00Z' };
  const d = createFaultDecider({ seed: 1, rules: [{ kind: 'error', rate: 1, status: 503, window }] });
  t.equal(d.api(OPS[0], Date.parse('2026-01-01T09:59:59.999Z')), undefined);
  t.ok(d.api(OPS[0], Date.parse('2026-01-01T10:00:00Z')));
  t.equal(d.api(OPS[0], Date.parse('2026-01-01T10:05:00Z')), undefined, 'the end is not in it');
});

t.test('the shipped profiles are valid profiles; a named one is expanded where the sandbox clock stands', async (t) => {
  const known = { operations: OPS };
  for (const name of Object.keys(SHIPPED_PROFILES)) {
    const p = profileToApply({ profile: name, seed: 3 }, known, Date.parse('2026-03-01T12:00:00Z'));
    t.same(schemaErrors('FaultProfileRequest', { seed: p.seed, rules: p.rules }), [], name);
    t.equal(p.profile, name);
  }
  const outage = profileToApply({ profile: 'provider-outage', seed: 3 }, known, Date.parse('2026-03-01T12:00:00Z'));
  t.same(outage.rules[0].window, { from: '2026-03-01T12:00:00.000Z', to: '2026-03-01T12:05:00.000Z' });
  const both = profileToApply({ profile: 'slow-webhooks', rules: [{ kind: 'error', rate: 0.1, status: 429 }] }, known, 0);
  t.equal(both.rules.length, SHIPPED_PROFILES['slow-webhooks'].rules(0).length + 1, "the named profile's rules, then the own");
  t.ok(Number.isInteger(both.seed), 'a seed chosen');
  t.throws(() => profileToApply({ profile: 'nope' }, known, 0, '/faults'), { code: 'validation_failed', field: '/faults/profile' });
  try {
    profileToApply({ rules: [{ kind: 'drop', rate: 1, operation: 'nope' }] }, known, 0, '/faults');
  } catch (err) {
    t.equal((err as ApiError).field, '/faults/rules/0/operation', 'pointers under where the profile sits');
  }
});
