/**
 * The console's banks page (docs/banks.md): every sandbox bank with its health now and what its
 * profile changes; put a shipped profile in force (optionally with a seed) or reset it.
 */
import type { FastifyInstance } from 'fastify';
import { bankProfileSummary, type BankProfile } from '../../../domain/bank-profiles.js';
import { html, type RawHtml } from '../../hosted/layout.js';
import { isError } from '../api.js';
import { first, type Form, type ConsoleKit } from '../kit.js';
import { actionButton, csrfField } from '../layout.js';
import type { ConsoleSession } from '../session.js';
import { badge, type S, select, table } from '../views.js';

const BANK_ID = '[a-z0-9-]{1,40}';

export function banksBody(list: S['SandboxBankList'], session: ConsoleSession): RawHtml {
  const names = list.profiles.map((p) => p.name);
  return html`<p>How each sandbox bank behaves in this sandbox: down or degraded, approval in the bank app, business-day settlement, account-data limits. A bank without a profile behaves as always.</p>
${table(
  'Banks',
  ['Bank', 'Country', 'Health now', 'Profile', 'Set a profile', ''],
  list.items.map((b) => [
    html`<strong>${b.name}</strong> <code>${b.bankId}</code>`,
    b.country,
    html`<span data-testid="health-${b.bankId}">${badge(b.health === 'healthy' ? 'healthy' : b.health)}</span>`,
    html`<span data-testid="profile-${b.bankId}">${b.profile ? bankProfileSummary(b.profile as BankProfile) : 'none'}</span>${
      b.setAt ? html` <small class="muted">set ${b.setAt}</small>` : ''
    }`,
    html`<form method="post" action="/console/banks/${b.bankId}" class="inline">${csrfField(session)}
${select('profile', 'Profile', names, b.profile?.profile, 'choose')}
<label>Seed<input name="seed" inputmode="numeric" pattern="\\d*" size="10"></label>
<button type="submit" id="set-${b.bankId}">Set</button></form>`,
    b.profile
      ? actionButton(session, `/console/banks/${b.bankId}/reset`, 'Reset', {
          back: '/console/banks',
          tone: 'secondary',
          id: `reset-${b.bankId}`,
        })
      : '',
  ]),
)}
<details><summary>The shipped profiles</summary>
${table(
  'Shipped bank profiles',
  ['Profile', 'What the bank does'],
  list.profiles.map((p) => [html`<code>${p.name}</code>`, p.summary]),
)}</details>`;
}

export function bankRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { hide, api, show, refused, act } = kit;
  app.get('/console/banks', hide, async (request, reply) => {
    const answer = await api(request).get<S['SandboxBankList']>('/_sandbox/banks');
    if (isError(answer)) return refused(request, reply, '/console/banks', answer);
    return show(request, reply, 'Banks', '/console/banks', banksBody(answer.body, request.consoleSession!));
  });

  app.post<{ Params: { bankId: string } }>(`/console/banks/:bankId(^${BANK_ID}$)`, hide, async (request, reply) => {
    const form = request.body as Form;
    const seed = first(form.seed);
    const body = { profile: first(form.profile) || undefined, ...(seed ? { seed: Number(seed) } : {}) };
    const { bankId } = request.params;
    return act(request, reply, () => api(request).put(`/_sandbox/banks/${bankId}`, body), `${bankId}: profile set`, '/console/banks');
  });

  app.post<{ Params: { bankId: string } }>(`/console/banks/:bankId(^${BANK_ID}$)/reset`, hide, async (request, reply) => {
    const { bankId } = request.params;
    return act(request, reply, () => api(request).delete(`/_sandbox/banks/${bankId}`), `${bankId}: profile reset`, '/console/banks');
  });
}
