/**
 * The console's consents page: the list with filters and the actions each consent's state allows;
 * one consent's timeline (its transitions).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../domain/errors.js';
import { html, type RawHtml } from '../../hosted/layout.js';
import { isError, withQuery } from '../api.js';
import { ACTION, TOKEN_ID, type ConsoleKit } from '../kit.js';
import { actionButton, live } from '../layout.js';
import type { ConsoleSession } from '../session.js';
import { badge, input, pager, type S, select, table, transitionsList } from '../views.js';

export function consentsBody(
  list: S['SandboxConsentList'],
  q: { userId?: string; status?: string },
  session: ConsoleSession,
  selfUrl: string,
): RawHtml {
  const base = withQuery('/console/consents', q);
  const back = base;
  return html`<form method="get" action="/console/consents" class="filters" role="search">
${input('userId', 'Bank user', q.userId, ' maxlength="200"')}
${select('status', 'Status', ['pending', 'authorized', 'expired', 'revoked', 'failed'], q.status)}
<button type="submit">Filter</button>
</form>
${live(
  'consents',
  selfUrl,
  html`${table(
    'Consents',
    ['Request id', 'Bank user', 'Merchant', 'Permissions', 'Status', 'Expires', 'Actions'],
    list.items.map(({ consent: c, actions }) => [
      html`<a href="/console/consents/${encodeURIComponent(c.requestId)}"><code>${c.requestId}</code></a>`,
      c.userId,
      c.merchantId,
      c.permissions.join(', '),
      badge(c.status),
      c.expirationDateTime,
      html`${actions.map((a) => actionButton(session, `/console/consents/${c.requestId}/${a}`, a, { back, tone: a === 'authorize' ? undefined : 'danger' }))}`,
    ]),
    'No consents match.',
  )}${pager(base, list.nextCursor)}`,
)}`;
}

export function consentBody(requestId: string, transitions: S['SandboxTransitionList'], selfUrl: string): RawHtml {
  return live(
    'consent',
    selfUrl,
    html`<section class="card"><h2>Timeline of <code>${requestId}</code></h2>${transitionsList(transitions)}
<p><a href="/console/consents">All consents</a></p></section>`,
  );
}

export function consentRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { hide, api, show, refused, act, query, pick } = kit;
  app.get('/console/consents', hide, async (request, reply) => {
    const q = pick(query(request), 'userId', 'status', 'cursor');
    const answer = await api(request).get<S['SandboxConsentList']>(withQuery('/_sandbox/consents', q));
    if (isError(answer)) return refused(request, reply, '/console/consents', answer);
    const body = consentsBody(answer.body, { userId: q.userId, status: q.status }, request.consoleSession!, request.url);
    return show(request, reply, 'Consents', '/console/consents', body);
  });

  app.get<{ Params: { id: string } }>('/console/consents/:id', hide, async (request, reply) => {
    const { id } = request.params;
    if (!TOKEN_ID.test(id)) throw new ApiError('route_not_found');
    const answer = await api(request).get<S['SandboxTransitionList']>(`/_sandbox/consents/${encodeURIComponent(id)}/transitions`);
    if (isError(answer)) return refused(request, reply, '/console/consents', answer);
    return show(request, reply, `Consent ${id}`, '/console/consents', consentBody(id, answer.body, request.url));
  });

  app.post<{ Params: { id: string; action: string } }>('/console/consents/:id/:action', hide, async (request, reply) => {
    const { id, action } = request.params;
    if (!TOKEN_ID.test(id) || !ACTION.test(action)) throw new ApiError('route_not_found');
    return act(
      request,
      reply,
      () => api(request).post(`/_sandbox/consents/${id}/${action}`),
      `${action}: done for consent ${id}.`,
      '/console/consents',
    );
  });
}
