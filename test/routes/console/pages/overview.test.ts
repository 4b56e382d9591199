/**
 * The console's overview page (src/routes/console/pages/overview.ts): the clock and the counts
 * as the API reports them, moving time, freezing and resuming, creating a test merchant.
 */
import t from 'tap';
import { build } from '../../../helpers/app.js';
import { act, signIn, view } from '../../../helpers/console.js';
import { call, testMerchant } from '../../../helpers/partner.js';

t.test('overview: the clock and the counts; advance, freeze, resume; a test merchant', async (t) => {
  const app = await build(t);
  const s = await signIn(app);
  const shop = await testMerchant(app);
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: shop.clientId, amount: 5, referenceNumber: 'o-1' });

  const page = await view(app, s, '/console');
  t.equal(page.status, 200);
  const clock = (await call(app, 'GET', '/_sandbox/clock')).body;
  t.match(page.body, new RegExp(`data-testid="clock-now">${clock.now}<`), 'the clock as the API has it');
  t.match(page.body, /<h2>Payments<\/h2>[\s\S]*pending[\s\S]*<td>1<\/td>/, 'one pending payment counted');
  t.match(page.body, /0 registered webhooks/);

  const advanced = await act(app, s, '/console/clock/advance', { duration: '1h' });
  t.equal(advanced.to, '/console');
  t.match(advanced.page, /Advanced the clock by 1h/);
  t.equal(Date.parse((await call(app, 'GET', '/_sandbox/clock')).body.now) - Date.parse(clock.now), 3_600_000, 'by an hour');
  const settled = await call(app, 'GET', '/_sandbox/payments');
  t.equal(settled.body.items[0].payment.status, 'paid', 'what fell due fired');

  const bad = await act(app, s, '/console/clock/advance', { duration: 'soon' });
  t.match(bad.page, /400 validation_failed/, "a bad duration shows the API's refusal");

  t.match((await act(app, s, '/console/clock/freeze')).page, /data-testid="clock-state">frozen</);
  t.equal((await call(app, 'GET', '/_sandbox/clock')).body.frozen, true);
  t.match((await act(app, s, '/console/clock/resume')).page, /data-testid="clock-state">running</);

  const created = await act(app, s, '/console/merchants/test', { companyName: 'Overview Shop ApS' });
  t.match(created.to, /^\/console\/merchants\/\d+$/, 'leads to the new merchant');
  t.match(created.page, /Created test merchant \d+/);
  const merchants = await call(app, 'GET', '/_sandbox/merchants?q=Overview');
  t.equal(merchants.body.items[0].merchant.status, 'activated', 'created, activated at once');
});
