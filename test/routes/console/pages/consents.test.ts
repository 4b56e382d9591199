/**
 * The console's consents page (src/routes/console/pages/consents.ts): the list with its filters
 * and the actions each consent's state allows.
 */
import t from 'tap';
import { aisApp } from '../../../helpers/ais.js';
import { act, signIn, view } from '../../../helpers/console.js';
import { call } from '../../../helpers/partner.js';

t.test('consents: list, filter by user and status, authorize and revoke', async (t) => {
  const ctx = await aisApp(t);
  const { app } = ctx;
  const s = await signIn(app);
  const a = await ctx.createConsent('user-a');
  const b = await ctx.createConsent('user-b');

  const page = await view(app, s, '/console/consents');
  t.equal(page.status, 200);
  t.match(page.body, new RegExp(a.requestId));
  t.match(page.body, new RegExp(b.requestId));
  const byUser = await view(app, s, '/console/consents?userId=user-a');
  t.match(byUser.body, new RegExp(a.requestId));
  t.notMatch(byUser.body, new RegExp(b.requestId), 'the user filter leaves others out');

  const authorized = await act(app, s, `/console/consents/${a.requestId}/authorize`);
  t.match(authorized.page, /authorize: done for consent/);
  const listed = await call(app, 'GET', '/_sandbox/consents?status=authorized');
  t.same(
    listed.body.items.map((i: any) => i.consent.requestId),
    [a.requestId],
    'the API agrees',
  );
  const filtered = await view(app, s, '/console/consents?status=authorized');
  t.match(filtered.body, new RegExp(`action="/console/consents/${a.requestId}/revoke"`), 'an authorized consent can be revoked');

  await act(app, s, `/console/consents/${a.requestId}/revoke`);
  t.equal((await call(app, 'GET', '/_sandbox/consents?status=revoked')).body.items.length, 1);
  const refused = await act(app, s, `/console/consents/${a.requestId}/authorize`);
  t.match(refused.page, /409 /, 'a revoked consent cannot be authorized: the refusal is shown');
});

t.test("a consent's page: its transitions, each with its cause; the console's own actions named as such", async (t) => {
  const ctx = await aisApp(t);
  const { app } = ctx;
  const s = await signIn(app);
  const c = await ctx.createConsent('user-a');
  await act(app, s, `/console/consents/${c.requestId}/authorize`);
  const page = await view(app, s, `/console/consents/${encodeURIComponent(c.requestId)}`);
  t.equal(page.status, 200);
  const items = [...page.body.matchAll(/<li><time[^>]*>[^<]*<\/time> · ([\s\S]*?)<\/li>/g)].map((m) => m[1].replace(/<[^>]+>/g, ''));
  t.equal(items.length, 2, 'created, then authorized');
  t.match(items[0], /^created pending by the API call createConsent \(request req_[0-9a-f]+\)$/);
  t.match(items[1], /^pending → authorized from the console authorize \(request [^)]+\)$/);
  const other = await view(app, s, '/console/consents/cns_unknown');
  t.equal(other.status, 404, 'an unknown consent');
});
