/**
 * The console's readiness page (src/routes/console/pages/readiness.ts): the report's verdict,
 * checklist, smells, coverage grid and lifecycle picture (inline SVG), every link a journal
 * entry; the check-receiver button records a run; the page's own reads add nothing to the journal.
 */
import t from 'tap';
import { build } from '../../../helpers/app.js';
import { act, signIn, view } from '../../../helpers/console.js';
import { hook } from '../../../helpers/deliveries.js';
import { call, testMerchant } from '../../../helpers/partner.js';
import { startReceiver } from '../../../helpers/receiver.js';

t.test('readiness: verdict, checklist, smells, grid and picture with links to the journal; check-receiver from a button', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  const s = await signIn(app);
  const m = await testMerchant(app);
  await hook(app, rx.url, ['payment.completed']);
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'dup' });
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'dup' });
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: -1, referenceNumber: 'bad' });
  const before = (await call(app, 'GET', '/_sandbox/requests?limit=1')).body.items[0].id;

  const page = await view(app, s, '/console/readiness');
  t.equal(page.status, 200);
  t.match(page.body, /<a href="\/console\/readiness" aria-current="page">Readiness<\/a>/, 'in the navigation, current');
  t.match(page.body, /data-testid="verdict"><span class="badge bad">failed<\/span><\/span> unmet/);
  t.match(page.body, /Verifies webhook signatures/);
  t.match(page.body, /<code>duplicate_reference_number<\/code>/);
  t.match(page.body, /<svg role="img" aria-labelledby="coverage-title"/);
  t.match(page.body, /<svg role="img" aria-labelledby="lifecycle-title"/);
  t.notMatch(page.body, /<script(?![^>]*src="\/console\/assets\/)/, 'no inline or external script');
  const links = [...page.body.matchAll(/href="(\/console\/requests\/\d+)"/g)].map((x) => x[1]);
  t.ok(links.length >= 4, 'evidence and grid cells link to journal entries');
  t.match(page.body, /data-testid="cell-createPayment-2xx"/, 'the 2xx cell of createPayment links');
  t.match(page.body, /data-testid="cell-createPayment-4xx"/, 'the 4xx cell of createPayment links');
  t.notMatch(page.body, /data-testid="cell-createPayment-5xx"/, 'no 5xx was met: no link');
  for (const link of new Set(links)) t.equal((await view(app, s, link)).status, 200, `${link} resolves`);
  t.equal((await call(app, 'GET', '/_sandbox/requests?limit=1')).body.items[0].id, before, "the page's reads are not journaled");

  const run = await act(app, s, '/console/readiness/receiver-check', { back: '/console/readiness' });
  t.equal(run.status, 303);
  t.equal(run.to, '/console/readiness');
  t.match(
    run.page,
    /check-receiver against http:\/\/127\.0\.0\.1:\d+\/hook: failed \(\d+ passed, \d+ failed\)\./,
    'the flash says how it went',
  );
  const runs = (await call(app, 'GET', '/_sandbox/receiver-checks')).body.items;
  t.equal(runs.length, 1, 'the run is recorded');
  t.equal(runs[0].url, rx.url);
});
