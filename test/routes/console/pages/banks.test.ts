/**
 * The console's banks page (src/routes/console/pages/banks.ts): every bank with its health and
 * profile; a shipped profile set with a seed, a refusal shown, a reset — each the API's doing.
 */
import t from 'tap';
import { build } from '../../../helpers/app.js';
import { act, signIn, view } from '../../../helpers/console.js';
import { call } from '../../../helpers/partner.js';
import { aisApp } from '../../../helpers/ais.js';
import { newPayment, postForm } from '../../../helpers/hosted.js';

t.test('banks: listed with health and profile; set, refused, reset', async (t) => {
  const app = await build(t);
  const s = await signIn(app);
  const page = await view(app, s, '/console/banks');
  t.equal(page.status, 200);
  t.match(page.body, /<a href="\/console\/banks"[^>]*aria-current="page"/);
  for (const bankId of ['nordlys-bank', 'fjord-sparekasse', 'baltic-credit', 'rhein-direktbank', 'thames-mutual']) {
    t.match(page.body, `id="set-${bankId}"`, `${bankId} has its form`);
    t.match(page.body, new RegExp(`data-testid="profile-${bankId}">none<`));
  }
  t.match(page.body, '<code>weekend-settlement</code>');

  const set = await act(app, s, '/console/banks/fjord-sparekasse', { profile: 'degraded', seed: '42' });
  t.equal(set.status, 303);
  t.match(set.page, 'fjord-sparekasse: profile set');
  t.match(set.page, /data-testid="profile-fjord-sparekasse">profile degraded; degraded; failureRate 0.25, seed 42</);
  t.match(set.page, /data-testid="health-fjord-sparekasse"><span class="badge [a-z]+">degraded</);
  const inForce = (await call(app, 'GET', '/_sandbox/banks/fjord-sparekasse')).body;
  t.match(inForce.profile, { profile: 'degraded', seed: 42 }, 'put in force through the API');

  const refused = await act(app, s, '/console/banks/fjord-sparekasse', { profile: 'sleepy' });
  t.match(refused.page, /400 .*profile must be one of/, 'the refusal is shown');
  t.match((await call(app, 'GET', '/_sandbox/banks/fjord-sparekasse')).body.profile, { profile: 'degraded' }, 'nothing changed');

  const reset = await act(app, s, '/console/banks/fjord-sparekasse/reset', {});
  t.match(reset.page, 'fjord-sparekasse: profile reset');
  t.equal((await call(app, 'GET', '/_sandbox/banks/fjord-sparekasse')).body.profile, null);
});

t.test("a payment's timeline and a consent's transitions show the bank and rule behind a change", async (t) => {
  const app = await build(t);
  const s = await signIn(app);
  await call(app, 'PUT', '/_sandbox/banks/rhein-direktbank', { profile: 'slow-app-approval' });
  const p = await newPayment(app);
  await app.inject({ method: 'GET', url: p.path });
  await postForm(app, p.path, { decision: 'approve', bankId: 'rhein-direktbank' });
  const waiting = await view(app, s, `/console/payments/${p.id}`);
  t.match(waiting.body, /payer sent to approve in the bank app <span class="badge [a-z]+">waiting<\/span>/);
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10m' });
  const paid = await view(app, s, `/console/payments/${p.id}`);
  t.match(paid.body, /status changed to <span class="badge ok">paid<\/span>.*data-testid="bank-rule">· rhein-direktbank: app approval</);

  const ais = await aisApp(t);
  await call(ais.app, 'PUT', '/_sandbox/banks/nordlys-bank', { ais: { consentMaxDays: 30 } });
  const consent = await ais.createConsent('user-typical', { expirationDateTime: ais.app.clock.iso(180 * 86_400_000) });
  ais.app.engine.consent(consent.requestId, 'authorize', { bankId: 'nordlys-bank', cause: { kind: 'control', name: 'test' } });
  const page = await view(ais.app, await signIn(ais.app), `/console/consents/${consent.requestId}`);
  t.match(page.body, /data-testid="bank-rule">· nordlys-bank: consent max days</);
});
