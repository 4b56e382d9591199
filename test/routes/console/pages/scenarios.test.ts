/**
 * The console's scenarios page (src/routes/console/pages/scenarios.ts): the shipped scenarios,
 * running one (in the sandbox or a fresh one) and its result.
 */
import t from 'tap';
import { build } from '../../../helpers/app.js';
import { act, signIn, view } from '../../../helpers/console.js';
import { call } from '../../../helpers/partner.js';

t.test('scenarios: listed with a run button; a run shows its steps; isolated runs leave the sandbox alone', async (t) => {
  const app = await build(t);
  const s = await signIn(app);
  const page = await view(app, s, '/console/scenarios');
  t.equal(page.status, 200);
  const shipped = (await call(app, 'GET', '/_sandbox/scenarios')).body.items as { name: string }[];
  t.ok(shipped.length > 0);
  for (const { name } of shipped) t.match(page.body, new RegExp(`id="run-${name}"`), `${name} has its run button`);

  const isolated = await act(app, s, '/console/scenarios/run', { name: 'payment-paid', isolate: 'true' });
  t.equal(isolated.status, 200);
  t.match(isolated.page, /data-testid="scenario-result"/);
  t.match(isolated.page, /payment-paid: <span[^>]*>passed<\/span>/);
  t.equal((await call(app, 'GET', '/_sandbox/payments')).body.items.length, 0, 'an isolated run created nothing here');

  const here = await act(app, s, '/console/scenarios/run', { name: 'payment-paid' });
  t.match(here.page, /passed/);
  t.ok((await call(app, 'GET', '/_sandbox/payments')).body.items.length > 0, 'a run in the sandbox leaves its payment');

  const unknown = await act(app, s, '/console/scenarios/run', { name: 'no-such-scenario' });
  t.match(unknown.page, /404 /, 'an unknown scenario shows the refusal');
});
