/**
 * The console's sign-in page (src/routes/console/pages/sign-in.ts): the form, where it leads,
 * and signing out. Sessions and CSRF in depth: test/routes/console/console.test.ts.
 */
import t from 'tap';
import { build } from '../../../helpers/app.js';
import { act, csrfIn, signIn, view } from '../../../helpers/console.js';

t.test('sign-in: the form; a page asked for signed out leads back to it; signing out ends the session', async (t) => {
  const app = await build(t);
  const form = await app.inject({ method: 'GET', url: '/console/sign-in?next=/console/payments' });
  t.equal(form.statusCode, 200);
  t.match(form.body, /name="clientId"/);
  t.match(form.body, /name="clientSecret" type="password"|type="password" name="clientSecret"/);
  t.match(form.body, /name="next" value="\/console\/payments"/, 'where to go after');
  t.ok(csrfIn(form.body), 'with its CSRF token');

  const signedOut = await app.inject({ method: 'GET', url: '/console/merchants' });
  t.equal(signedOut.statusCode, 401, 'a page asked for signed out answers the sign-in page');
  t.match(signedOut.body, /name="next" value="\/console\/merchants"/);

  const s = await signIn(app);
  t.equal((await view(app, s, '/console/merchants')).status, 200);
  const out = await act(app, s, '/console/sign-out');
  t.equal(out.status, 200);
  t.match(out.page, /name="clientSecret"/, 'back at the form');
  t.equal((await view(app, { ...s, cookie: 'obsim_console=' }, '/console/merchants')).status, 401, 'the cleared cookie signs nobody in');
});
