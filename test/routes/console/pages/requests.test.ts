/**
 * The console's requests pages (src/routes/console/pages/requests.ts): the journal with its
 * filters, one entry, and the page of a server whose journal is off.
 */
import t from 'tap';
import { build } from '../../../helpers/app.js';
import { signIn, view } from '../../../helpers/console.js';
import { call } from '../../../helpers/partner.js';

t.test('requests: the journal newest first, filtered, one entry; journal off says so', async (t) => {
  const app = await build(t);
  const s = await signIn(app);
  await call(app, 'GET', '/v1/partner/merchants/77777777/onboarding-status');
  await call(app, 'POST', '/v1/partner/merchants/test', { companyName: 'Journal Shop' });

  const page = await view(app, s, '/console/requests');
  t.equal(page.status, 200);
  const newest = page.body.indexOf('/v1/partner/merchants/test');
  const older = page.body.indexOf('/v1/partner/merchants/77777777/onboarding-status');
  t.ok(newest > 0 && older > newest, 'both, newest first');
  const refused = await view(app, s, '/console/requests?status=404');
  t.match(refused.body, /merchant_not_found/);
  t.notMatch(refused.body, /\/v1\/partner\/merchants\/test/, 'the status filter leaves others out');

  const entries = (await call(app, 'GET', '/_sandbox/requests?status=404')).body.items;
  const one = await view(app, s, `/console/requests/${entries[0].id}`);
  t.equal(one.status, 200);
  t.match(one.body, /GET \/v1\/partner\/merchants\/77777777\/onboarding-status/);
  t.match(one.body, new RegExp(entries[0].requestId));
  t.equal((await view(app, s, '/console/requests/99999999')).status, 404, 'an entry that is not there');
  t.equal(
    (await call(app, 'GET', '/_sandbox/requests?pathPrefix=/console')).body.items.length,
    0,
    "the console's own reads are not in the journal",
  );

  const off = await build(t, { config: { journal: false } });
  const offPage = await view(off, await signIn(off), '/console/requests');
  t.equal(offPage.status, 200);
  t.match(offPage.body, /The request journal is off/);
});
