/**
 * The console's merchants pages (src/routes/console/pages/merchants.ts): the list with its
 * filters, one merchant with the actions its state allows, and an action's outcome.
 */
import t from 'tap';
import { build } from '../../../helpers/app.js';
import { act, signIn, view } from '../../../helpers/console.js';
import { call, standardMerchant, testMerchant } from '../../../helpers/partner.js';

t.test('merchants: list and filters; one merchant; its actions, and a refused one', async (t) => {
  const app = await build(t);
  const s = await signIn(app);
  const pending = await standardMerchant(app);
  const active = await testMerchant(app);

  const all = await view(app, s, '/console/merchants');
  t.equal(all.status, 200);
  t.match(all.body, new RegExp(`/console/merchants/${pending.merchantId}"`), 'the pending merchant is listed');
  t.match(all.body, new RegExp(`/console/merchants/${active.merchantId}"`), 'the active one too');
  const filtered = await view(app, s, '/console/merchants?status=activated');
  t.notMatch(filtered.body, new RegExp(`/console/merchants/${pending.merchantId}"`), 'a status filter leaves the others out');
  t.match(filtered.body, /<option value="activated" selected>/, 'and shows itself');

  const one = await view(app, s, `/console/merchants/${pending.merchantId}`);
  t.equal(one.status, 200);
  t.match(one.body, /pending_onboarding/);
  t.match(one.body, new RegExp(`action="/console/merchants/${pending.merchantId}/activate"`), 'activate is offered');

  const done = await act(app, s, `/console/merchants/${pending.merchantId}/activate`);
  t.equal(done.to, `/console/merchants/${pending.merchantId}`);
  t.match(done.page, /activate: done for merchant/);
  const after = await call(app, 'GET', `/_sandbox/merchants/${pending.merchantId}`);
  t.equal(after.body.merchant.status, 'activated', 'the API agrees');

  const refused = await act(app, s, `/console/merchants/${pending.merchantId}/approve`);
  t.match(refused.page, /409 illegal_transition/, "an action the state does not allow shows the API's refusal");
  t.equal((await view(app, s, '/console/merchants/99999999')).status, 404, 'an unknown merchant');
});
