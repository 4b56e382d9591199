/**
 * Every shipped scenario runs in-process (npm test), on one simulator: they create uniquely named
 * data and watch their own webhooks, so they do not interfere. A few also run against a real
 * listening server over HTTP (the way `obsim scenario run --base-url` does), one with --receiver.
 *
 * Coverage is OBSERVED, not taken on trust: a transport wrapper records every merchant, payment
 * and consent status the simulator actually answered, and every event it actually emitted for the
 * scenario's own webhooks (read from the delivery log) that a passing expectWebhook step matched.
 * Each scenario's `covers:` must be a subset of what it was seen to reach, and together they must
 * reach every state and event of the contract (provider-api.md) and of the lifecycle machines.
 */
import { existsSync, readFileSync } from 'node:fs';
import t from 'tap';
import { build, PARTNER } from '../helpers/app.js';
import { CONSENT_STATUSES } from '../../src/domain/consent.js';
import { EVENT_NAMES } from '../../src/domain/machine.js';
import { MERCHANT_STATUSES } from '../../src/domain/merchant.js';
import { PAYMENT_STATUSES } from '../../src/domain/payment.js';
import { expandPaths, loadScenarioFile, shippedScenariosDir } from '../../src/scenarios/loader.js';
import { startReceiver } from '../../src/scenarios/receiver.js';
import { runScenario, type ScenarioResult } from '../../src/scenarios/runner.js';
import {
  httpTransport,
  injectTransport,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from '../../src/scenarios/transport.js';
import type { Scenario } from '../../src/scenarios/types.js';
import { servedDocument, unnamedInAnswer, unnamedInDelivery } from '../helpers/document-values.js';
import { failure } from '../helpers/scenarios.js';
import { transitionProblems } from '../helpers/transitions.js';
import { scaled } from '../helpers/speed.js';

// generous: CI runs many test files at once on few cores (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

const files = expandPaths([shippedScenariosDir()]);
const PARTNER_ID = PARTNER['x-partner-client-id'];

/**
 * The contract's states and events (provider-api.md: "Consent status values", "Merchant onboarding
 * status values", the payment webhook payload, "Events"), and the statuses the contract names only
 * inside webhook payloads (merchant `active`/`inactive`, payment `paid`).
 */
const CONTRACT = {
  consent: ['pending', 'authorized', 'expired', 'revoked', 'failed'],
  merchant: ['pending_onboarding', 'pending_completion', 'pending_partner_ais', 'awaiting_approval', 'activated', 'rejected', 'inactive'],
  payment: ['paid'],
  events: ['payment.completed', 'payment.failed', 'merchant.activated', 'merchant.deactivated', 'merchant.onboarding.completed'],
  payload: ['merchant.activated:active', 'merchant.deactivated:inactive', 'payment.completed:paid', 'payment.failed:failed'],
};

/** Every 2xx JSON answer a scenario got, for the documents' check. */
const answers: { method: string; path: string; status: number; json: unknown }[] = [];

interface Observed {
  /** `merchant:activated`, `payment:paid`, `consent:expired`, … as answered by the simulator. */
  states: Set<string>;
  /** Events emitted for this run's webhooks, as listed in the delivery log. */
  logged: Set<string>;
  /** `merchant.activated:active`: event name and data.status of the delivered bodies. */
  payload: Set<string>;
}

const AGGREGATES: [RegExp, 'merchant' | 'payment' | 'consent'][] = [
  [/^\/v1\/partner\/merchants(\/(test|fast-track|\d+\/(onboarding-status|resend-onboarding)))?$/, 'merchant'],
  [/^\/_sandbox\/merchants\/\d+\/[a-z-]+$/, 'merchant'],
  [/^\/v1\/partner\/payments(\/\d+\/status)?$/, 'payment'],
  [/^\/_sandbox\/payments\/\d+\/[a-z]+$/, 'payment'],
  [/^\/v1\/ais\/(consents|users\/[^/]+\/consents)$/, 'consent'],
  [/^\/_sandbox\/consents\/[^/]+\/[a-z]+$/, 'consent'],
];

function objectsOf(body: unknown): Record<string, unknown>[] {
  if (Array.isArray(body)) return body.filter((x): x is Record<string, unknown> => x !== null && typeof x === 'object');
  if (body === null || typeof body !== 'object') return [];
  const o = body as Record<string, unknown>;
  return Array.isArray(o.items) ? objectsOf(o.items) : [o];
}

function observe(req: TransportRequest, res: TransportResponse, seen: Observed): void {
  if (res.status < 200 || res.status >= 300) return; // error bodies carry a numeric status
  const path = req.path.split('?')[0];
  if (res.json !== undefined) answers.push({ method: req.method, path, status: res.status, json: res.json });
  const aggregate = AGGREGATES.find(([re]) => re.test(path))?.[1];
  if (aggregate) {
    for (const o of objectsOf(res.json)) {
      for (const key of ['status', 'onboardingStatus']) if (typeof o[key] === 'string') seen.states.add(`${aggregate}:${o[key]}`);
    }
  }
  if (/^\/_sandbox\/deliveries(\/\d+)?$/.test(path)) {
    for (const d of objectsOf(res.json)) {
      if (typeof d.event !== 'string') continue;
      seen.logged.add(d.event);
      try {
        const body = JSON.parse(String(d.body)) as { event?: string; data?: { status?: unknown } };
        if (body.event === d.event && typeof body.data?.status === 'string') seen.payload.add(`${d.event}:${body.data.status}`);
      } catch {
        /* not JSON: nothing to record */
      }
    }
  }
}

/** A transport that records what the simulator answered. */
function observing(inner: Transport, seen: Observed): Transport {
  return {
    description: inner.description,
    async request(req) {
      const res = await inner.request(req);
      observe(req, res, seen);
      return res;
    },
  };
}

/** Events a passing expectWebhook step of the run matched (that the log also showed). */
function expectedEvents(scenario: Scenario, result: ScenarioResult, seen: Observed): Set<string> {
  const out = new Set<string>();
  for (const [i, step] of scenario.steps.entries()) {
    const event = step.expectWebhook?.event;
    if (event !== undefined && result.steps[i]?.status === 'passed' && seen.logged.has(event)) out.add(event);
  }
  return out;
}

/** The `### Consent status values` etc. of provider-api.md, when ../shared is beside the checkout (CI, the dev box). */
function contractDoc(): string | undefined {
  const file = new URL('../../../shared/provider-api.md', import.meta.url);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

t.test('every shipped scenario passes in-process and reaches what its covers: says', async (t) => {
  const app = await build(t);
  const transport = injectTransport(app);
  const union = { states: new Set<string>(), events: new Set<string>(), payload: new Set<string>(), declared: new Set<string>() };
  for (const file of files) {
    const scenario = loadScenarioFile(file);
    const seen: Observed = { states: new Set(), logged: new Set(), payload: new Set() };
    const result = await runScenario(scenario, { transport: observing(transport, seen) });
    t.ok(result.passed, `${scenario.name}${result.passed ? '' : `: ${failure(result)}`}`);
    t.ok(
      result.steps.every((s) => s.status === 'passed'),
      `${scenario.name}: all ${result.steps.length} steps passed`,
    );
    const events = expectedEvents(scenario, result, seen);
    const reached = new Set([...seen.states, ...[...events].map((e) => `event:${e}`)]);
    const unobserved = (scenario.covers ?? []).filter((c) => !reached.has(c));
    t.same(unobserved, [], `${scenario.name}: covers ⊆ observed (${[...reached].sort().join(' ')})`);
    for (const s of seen.states) union.states.add(s);
    for (const e of events) union.events.add(e);
    for (const p of seen.payload) union.payload.add(p);
    for (const c of scenario.covers ?? []) union.declared.add(c);
  }

  // everything obsim answered and delivered in them, its documents name (test/helpers/document-values.ts)
  const provider = servedDocument((await app.inject({ url: '/openapi.json' })).json());
  const controls = servedDocument((await app.inject({ url: '/_sandbox/openapi.json' })).json());
  const unnamed = answers.flatMap((a) =>
    unnamedInAnswer(a.path.startsWith('/v1/') ? provider : controls, a.method, a.path, a.status, a.json),
  );
  const delivered = (app.db.prepare('SELECT body FROM events').pluck().all() as string[]).map((b) => JSON.parse(b) as { event?: string });
  unnamed.push(...delivered.flatMap((body) => unnamedInDelivery(provider.doc, body)));
  t.same(
    [...new Set(unnamed)],
    [],
    `every value of ${answers.length} answers and ${delivered.length} events is named by the served documents`,
  );
  t.ok(
    answers.some((a) => JSON.stringify(a.json).includes('"bankPaymentStatus":"AcceptedCustomerProfile"')),
    'a payment held for a business day was among them',
  );

  // what the scenarios changed is on record, consistent with the states reached, and caused by their steps
  t.same(transitionProblems(app, PARTNER_ID), [], 'every resource: a chain of transitions from its creation to its state');
  const names = new Set(files.map((f) => loadScenarioFile(f).name));
  const causes = app.store.transitions.ofPartner(PARTNER_ID).map((r) => ({ kind: r.cause_kind, name: r.cause_name }));
  const kinds = new Set(causes.map((c) => c.kind));
  t.same(
    [...kinds].sort(),
    ['scenario_step', 'seed', 'timer'],
    'changed by scenario steps and the timers they set (and the seeded merchant)',
  );
  const stepCauses = causes.filter((c) => c.kind === 'scenario_step');
  t.same(
    stepCauses.filter((c) => !names.has(/^(.+) #\d+ [a-zA-Z]+$/.exec(c.name)?.[1] ?? '')),
    [],
    'each step cause names its scenario, the step and its kind',
  );

  const wantedStates = [
    ...new Set([
      ...CONTRACT.merchant.map((s) => `merchant:${s}`),
      ...CONTRACT.payment.map((s) => `payment:${s}`),
      ...CONTRACT.consent.map((s) => `consent:${s}`),
      ...MERCHANT_STATUSES.map((s) => `merchant:${s}`),
      ...PAYMENT_STATUSES.map((s) => `payment:${s}`),
      ...CONSENT_STATUSES.map((s) => `consent:${s}`),
    ]),
  ];
  const wantedEvents = [...new Set([...CONTRACT.events, ...EVENT_NAMES, 'webhook.test'])];
  for (const s of wantedStates) {
    t.ok(union.states.has(s), `${s} observed in a response`);
    t.ok(union.declared.has(s), `${s} declared in a covers: (README list)`);
  }
  for (const e of wantedEvents) {
    t.ok(union.events.has(e), `event ${e} emitted, logged and matched by an expectWebhook`);
    t.ok(union.declared.has(`event:${e}`), `event:${e} declared in a covers: (README list)`);
  }
  for (const p of CONTRACT.payload) t.ok(union.payload.has(p), `a delivered ${p.split(':')[0]} body carries status ${p.split(':')[1]}`);
  t.same(
    [...union.states].filter((s) => !wantedStates.includes(s)).sort(),
    [],
    'no status outside the contract and the state machines was ever answered',
  );

  // the lists above are the contract's: check them against provider-api.md when it is at hand
  const doc = contractDoc();
  if (doc === undefined) {
    t.comment('../shared/provider-api.md not found: contract lists not re-read from the document');
    return;
  }
  const consentLine = /### Consent status values\s+([a-z_, ]+)\./.exec(doc)?.[1];
  t.same(consentLine?.split(/,\s*/).sort(), [...CONTRACT.consent].sort(), 'consent states = provider-api.md');
  const merchantTable = doc.slice(doc.indexOf('### Merchant onboarding status values'), doc.indexOf('### Moves that are shown'));
  t.same(
    [...merchantTable.matchAll(/^\| ([a-z_]+) \|/gm)].map((m) => m[1]).sort(),
    [...CONTRACT.merchant].sort(),
    'merchant states = provider-api.md',
  );
  const eventsTable = doc.slice(doc.indexOf('## Events'), doc.indexOf('### Envelope'));
  t.same(
    [...eventsTable.matchAll(/^\| ([a-z]+\.[a-z.]+) \|/gm)].map((m) => m[1]).sort(),
    [...CONTRACT.events].sort(),
    'events = provider-api.md',
  );
});

t.test('scenarios run twice against the same simulator (unique data, own webhooks)', async (t) => {
  const app = await build(t);
  const transport = injectTransport(app);
  for (const name of ['payment-paid', 'merchant-standard-onboarding', 'consent-authorized-read']) {
    const scenario = loadScenarioFile(files.find((f) => f.includes(name))!);
    for (const round of [1, 2]) {
      const r = await runScenario(scenario, { transport });
      t.ok(r.passed, `${name} round ${round} ${failure(r)}`);
    }
  }
});

t.test('a few scenarios against a real listening server over HTTP', async (t) => {
  const app = await build(t);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const transport = httpTransport(address);
  for (const name of [
    'payment-paid',
    'payment-failed-bank-rejected',
    'merchant-fast-track',
    'consent-expired-by-clock',
    'webhook-test-delivery',
  ]) {
    const r = await runScenario(loadScenarioFile(files.find((f) => f.endsWith(`${name}.yaml`))!), { transport });
    t.ok(r.passed, `${name} over HTTP ${failure(r)}`);
  }

  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const r = await runScenario(loadScenarioFile(files.find((f) => f.endsWith('merchant-deactivated-reactivated.yaml'))!), {
    transport,
    receiver,
  });
  t.ok(r.passed, `with a real receiver ${failure(r)}`);
  t.ok(receiver.deliveries.length >= 2, `the receiver got ${receiver.deliveries.length} signed deliveries`);
});
