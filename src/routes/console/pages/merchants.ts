/**
 * The console's merchants page: the list with filters, one merchant with its state diagram and the actions its state allows.
 */
import type { FastifyInstance } from 'fastify';
import { MERCHANT_TRIGGER } from '../../../domain/controls.js';
import { ApiError } from '../../../domain/errors.js';
import { merchantMachine } from '../../../domain/merchant.js';
import { html, raw, type RawHtml } from '../../hosted/layout.js';
import { isError, withQuery } from '../api.js';
import { ACTION, first, type Form, ID, type ConsoleKit } from '../kit.js';
import { actionButton, live } from '../layout.js';
import type { ConsoleSession } from '../session.js';
import { badge, input, pager, type S, select, table, transitionsList } from '../views.js';

export function merchantsBody(list: S['SandboxMerchantList'], q: { status?: string; q?: string }, selfUrl: string): RawHtml {
  const base = withQuery('/console/merchants', q);
  return html`<form method="get" action="/console/merchants" class="filters" role="search">
${select('status', 'Status', ['pending_onboarding', 'pending_completion', 'awaiting_approval', 'activated', 'rejected', 'inactive'], q.status)}
${input('q', 'Name or partnerRefId', q.q, ' type="search" maxlength="200"')}
<button type="submit">Filter</button>
</form>
${live(
  'merchants',
  selfUrl,
  html`${table(
    'Merchants',
    ['Id', 'Company', 'partnerRefId', 'Type', 'Status', 'Created'],
    list.items.map(({ merchant: m }) => [
      html`<a href="/console/merchants/${m.merchantId}">${m.merchantId}</a>`,
      m.companyName,
      m.partnerRefId ?? '',
      m.type,
      badge(m.status),
      m.createdAt,
    ]),
    'No merchants match.',
  )}${pager(base, list.nextCursor)}`,
)}`;
}

const ACTION_OF_TRIGGER = Object.fromEntries(Object.entries(MERCHANT_TRIGGER).map(([action, trigger]) => [trigger, action]));

/** The transition table as a diagram: every state (the current one marked) and every move, legal ones highlighted. */
export function merchantDiagram(state: string): RawHtml {
  return html`<figure aria-labelledby="diagram-h">
<figcaption id="diagram-h">Lifecycle: the current state is highlighted; a transition whose From is in bold is legal now</figcaption>
<ol class="states">${merchantMachine.states.map((s) => html`<li${s === state ? raw(' aria-current="true"') : ''}>${s}${s === state ? html`<span class="visually-hidden"> (current)</span>` : ''}</li>`)}</ol>
${table(
  'Transitions',
  ['From', 'Action', 'To', 'Events'],
  merchantMachine.rows.map((r) => [
    r.from.includes(state as never) ? html`<strong>${r.from.join(', ')}</strong>` : r.from.join(', '),
    ACTION_OF_TRIGGER[r.trigger] ?? r.trigger,
    r.to,
    r.events.join(', ') || '—',
  ]),
)}
</figure>`;
}

export function merchantBody(
  m: S['SandboxMerchant'],
  transitions: S['SandboxTransitionList'],
  session: ConsoleSession,
  selfUrl: string,
): RawHtml {
  const v = m.merchant;
  const back = `/console/merchants/${v.merchantId}`;
  return live(
    'merchant',
    selfUrl,
    html`<div class="grid">
<section class="card"><h2>Fields</h2><dl>
<dt>merchantId</dt><dd>${v.merchantId}</dd>
<dt>clientId</dt><dd><code>${v.clientId}</code></dd>
<dt>Company</dt><dd data-testid="company">${v.companyName}</dd>
<dt>Contact</dt><dd>${v.contactEmail ?? '—'}</dd>
<dt>partnerRefId</dt><dd>${v.partnerRefId ?? '—'}</dd>
<dt>Type</dt><dd>${v.type}</dd>
<dt>Status</dt><dd data-testid="merchant-status">${badge(v.status)}</dd>
<dt>Stored state</dt><dd>${m.state}</dd>
<dt>Sub-TPP</dt><dd>${v.subTppId ?? '—'} (${v.subTppStatus})</dd>
<dt>Created</dt><dd>${v.createdAt}</dd>
<dt>Updated</dt><dd>${v.updatedAt}</dd>
<dt>Onboarding</dt><dd>${m.onboardingUrl ? html`<a href="${m.onboardingUrl}" rel="noreferrer">Hosted onboarding page</a> (expires ${m.onboardingExpiresAt})` : 'closed'}</dd>
</dl></section>
<section class="card"><h2>Actions</h2>
${m.actions.length === 0 ? html`<p class="muted">No control action is legal from ${m.state}.</p>` : ''}
${m.actions.map((a) => actionButton(session, `/console/merchants/${v.merchantId}/${a}`, a, { back, id: `action-${a}`, tone: a === 'reject' || a === 'deactivate' ? 'danger' : undefined }))}
${merchantDiagram(m.state)}
</section>
</div>
<section class="card"><h2>Stores</h2>${table(
      'Stores',
      ['Id', 'Name', 'MCC', 'partnerRefId', 'Created'],
      m.stores.map((s) => [s.storeId, s.name, s.mccCode ?? '', s.partnerRefId ?? '', s.createdAt]),
      'No stores.',
    )}</section>
<section class="card"><h2>Timeline</h2>${transitionsList(transitions)}</section>`,
  );
}

export function merchantRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { hide, api, show, refused, act, query, pick } = kit;
  app.post('/console/merchants/test', hide, async (request, reply) => {
    const companyName = first((request.body as Form).companyName) ?? '';
    return act(
      request,
      reply,
      () => api(request).post<{ merchantId: number }>('/v1/partner/merchants/test', { companyName }),
      (m) => ({ text: `Created test merchant ${m.merchantId}.`, to: `/console/merchants/${m.merchantId}` }),
      '/console',
    );
  });

  app.get('/console/merchants', hide, async (request, reply) => {
    const q = pick(query(request), 'status', 'q', 'cursor');
    const answer = await api(request).get<S['SandboxMerchantList']>(withQuery('/_sandbox/merchants', q));
    if (isError(answer)) return refused(request, reply, '/console/merchants', answer);
    return show(request, reply, 'Merchants', '/console/merchants', merchantsBody(answer.body, { status: q.status, q: q.q }, request.url));
  });

  app.get<{ Params: { id: string } }>('/console/merchants/:id', hide, async (request, reply) => {
    if (!ID.test(request.params.id)) throw new ApiError('route_not_found');
    const [answer, transitions] = await Promise.all([
      api(request).get<S['SandboxMerchant']>(`/_sandbox/merchants/${request.params.id}`),
      api(request).get<S['SandboxTransitionList']>(`/_sandbox/merchants/${request.params.id}/transitions`),
    ]);
    if (isError(answer)) return refused(request, reply, '/console/merchants', answer);
    if (isError(transitions)) return refused(request, reply, '/console/merchants', transitions);
    const m = answer.body;
    return show(
      request,
      reply,
      `Merchant ${m.merchant.companyName}`,
      '/console/merchants',
      merchantBody(m, transitions.body, request.consoleSession!, request.url),
    );
  });

  app.post<{ Params: { id: string; action: string } }>('/console/merchants/:id/:action', hide, async (request, reply) => {
    const { id, action } = request.params;
    if (!ID.test(id) || !ACTION.test(action)) throw new ApiError('route_not_found');
    return act(
      request,
      reply,
      () => api(request).post(`/_sandbox/merchants/${id}/${action}`),
      `${action}: done for merchant ${id}.`,
      `/console/merchants/${id}`,
    );
  });
}
