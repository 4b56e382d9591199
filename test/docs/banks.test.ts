/**
 * docs/banks.md: every example runs as written — the "Try it" block (bash, curl, jq) prints what
 * the page says, the profile example is accepted and filled in as the page says — and every
 * shipped profile has its row, every rule its row, every documented refusal is the server's.
 */
import t from 'tap';
import { parse } from 'yaml';
import { SHIPPED_BANK_PROFILES } from '../../src/domain/bank-profiles.js';
import { BANK_RULES } from '../../src/domain/bank-rules.js';
import { validateScenario } from '../../src/scenarios/loader.js';
import { build } from '../helpers/app.js';
import { docsPage, runTryIt, tryItSkip } from '../helpers/docs.js';
import { call } from '../helpers/partner.js';
import { failure, runSteps } from '../helpers/scenarios.js';

const { page, block, printed } = docsPage('docs/banks.md');

t.test('the Try it block prints what the page says', { skip: tryItSkip() }, async (t) => {
  t.equal(await runTryIt(t, block('banks-example', 'sh')), printed('banks-example'));
});

t.test('the profile example is accepted and filled in as the page describes it', async (t) => {
  const app = await build(t);
  const r = await call(app, 'PUT', '/_sandbox/banks/rhein-direktbank', parse(block('banks-profile', 'yaml')));
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.same(r.body.profile, {
    profile: 'weekend-settlement',
    health: { status: 'degraded', delaySeconds: 90, from: '2026-01-15T09:00:00.000Z', until: '2026-01-15T11:00:00.000Z' },
    authorization: { mode: 'decoupled', approvalDelaySeconds: 300 },
    settlement: { mode: 'business_days', cutOff: '14:30' },
    ais: { historyDays: 90, pageSize: 50, pendingTransactions: false, consentMaxDays: 90 },
    failureRate: 0.2,
    seed: 20261127,
  });
  t.equal(r.body.health, 'degraded');
});

t.test('the scenario example is valid and passes', async (t) => {
  const doc = parse(block('banks-scenario', 'yaml')) as { name: string; steps: never[] };
  validateScenario(doc, 'app-approval-that-arrives.yaml');
  const result = await runSteps(await build(t), doc.steps);
  t.equal(failure(result), '');
});

t.test('every shipped profile and every rule has its row', async (t) => {
  for (const [name, p] of Object.entries(SHIPPED_BANK_PROFILES)) {
    t.match(page, `| \`${name}\` | ${p.summary.charAt(0).toLowerCase()}${p.summary.slice(1).replace('’', "'")} |`, name);
  }
  for (const rule of BANK_RULES) t.match(page, `| \`${rule}\` |`, rule);
});

t.test('the refusals in the table are the server’s', async (t) => {
  const app = await build(t);
  const cases: [string, unknown, string][] = [
    ['/profile', { profile: 'nope' }, '/profile'],
    ['window', { health: { status: 'down', from: '2026-01-15T10:00:00Z', until: '2026-01-15T09:00:00Z' } }, '/health/until'],
    ['forSeconds', { health: { until: '2026-01-15T10:00:00Z', forSeconds: 5 } }, '/health/forSeconds'],
    ['rate', { failureRate: 3 }, '/failureRate'],
    ['cutOff', { settlement: { cutOff: '3pm' } }, '/settlement/cutOff'],
    ['delay', { authorization: { approvalDelaySeconds: -1 } }, '/authorization/approvalDelaySeconds'],
    ['history', { ais: { historyDays: 0 } }, '/ais/historyDays'],
    ['a typo', { authorisation: { mode: 'decoupled' } }, '/authorisation'],
    ['an unknown nested property', { authorization: { mode: 'decoupled', delay: '3m' } }, '/authorization/delay'],
    ['30 February', { health: { status: 'down', from: '2027-02-30T09:00:00Z' } }, '/health/from'],
    ['ten years and more', { health: { status: 'down', forSeconds: 1e13 } }, '/health/forSeconds'],
    ['an approval never that late', { authorization: { approvalDelaySeconds: 1e13 } }, '/authorization/approvalDelaySeconds'],
  ];
  t.equal((await call(app, 'PUT', '/_sandbox/banks/nordlys-bank', { profile: 'strict-ais' })).status, 200);
  for (const [what, body, field] of cases) {
    const r = await call(app, 'PUT', '/_sandbox/banks/nordlys-bank', body);
    t.equal(r.status, 400, what);
    t.equal(r.body.field, field, what);
    t.match(page, `\`${field}\``, `${field} is in the table`);
  }
  t.equal(
    (await call(app, 'GET', '/_sandbox/banks/nordlys-bank')).body.profile.profile,
    'strict-ais',
    'nothing was applied: the profile in force stays',
  );
});
