/**
 * The console's requests page: the request journal with filters, one entry with its request and answer.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../domain/errors.js';
import { html, type RawHtml } from '../../hosted/layout.js';
import { isError, withQuery } from '../api.js';
import { TOKEN_ID, type ConsoleKit } from '../kit.js';
import { live } from '../layout.js';
import { recordForm } from './recording.js';
import { faultBadge, input, pager, type S, select, statusBadge, table } from '../views.js';

export function requestsBody(
  list: S['JournalList'] | undefined,
  q: { method?: string; status?: string; code?: string; pathPrefix?: string },
  selfUrl: string,
  off: boolean,
): RawHtml {
  if (off) return html`<p class="notice">The request journal is off (<code>--journal off</code>): nothing is recorded.</p>`;
  const base = withQuery('/console/requests', q);
  return html`<form method="get" action="/console/requests" class="filters" role="search">
${select('method', 'Method', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], q.method)}
${input('status', 'Status', q.status, ' inputmode="numeric" pattern="[1-5][0-9]{2}" size="5"')}
${input('code', 'Error code', q.code, ' maxlength="100"')}
${input('pathPrefix', 'Path starts with', q.pathPrefix, ' maxlength="2048" placeholder="/v1/partner/payments"')}
<button type="submit">Filter</button>
</form>
<p class="muted">Every request obsim answered for this sandbox, newest first (the console's own reads are not recorded; its actions are).</p>
${recordForm()}
${live(
  'requests',
  selfUrl,
  html`${table(
    'Requests',
    ['When', 'Method', 'Path', 'Status', 'Code', 'ms'],
    (list?.items ?? []).map((e) => [
      html`<a href="/console/requests/${e.id}">${e.wallAt}</a>`,
      e.method,
      html`<code>${e.path}</code>`,
      html`${statusBadge(e.status)}${faultBadge(e.fault)}`,
      e.code ?? '',
      e.durationMs.toFixed(1),
    ]),
    'No requests match.',
  )}${pager(base, list?.nextCursor)}`,
)}`;
}

export function requestBody(e: S['JournalEntry']): RawHtml {
  return html`<section class="card"><dl>
<dt>Request</dt><dd><code>${e.method} ${e.path}</code></dd>
<dt>Status</dt><dd>${statusBadge(e.status)} ${e.code ?? ''}${e.field ? html` (field <code>${e.field}</code>)` : ''}${faultBadge(e.fault)}</dd>
<dt>At</dt><dd>${e.wallAt} (virtual ${e.at})</dd>
<dt>Request id</dt><dd><code>${e.requestId}</code></dd>
<dt>Duration</dt><dd>${e.durationMs.toFixed(2)} ms</dd>
</dl></section>
<h2>Entry</h2><pre>${JSON.stringify(e, null, 2)}</pre>`;
}

export function requestRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { hide, api, show, refused, query, pick } = kit;
  app.get('/console/requests', hide, async (request, reply) => {
    const q = pick(query(request), 'method', 'status', 'code', 'pathPrefix', 'cursor');
    const answer = await api(request).get<S['JournalList']>(withQuery('/_sandbox/requests', q));
    const off = isError(answer) && answer.body.code === 'journal_off';
    if (isError(answer) && !off) return refused(request, reply, '/console/requests', answer);
    const body = requestsBody(isError(answer) ? undefined : answer.body, q, request.url, off);
    return show(request, reply, 'Requests', '/console/requests', body);
  });

  app.get<{ Params: { id: string } }>('/console/requests/:id', hide, async (request, reply) => {
    if (!TOKEN_ID.test(request.params.id)) throw new ApiError('route_not_found');
    const answer = await api(request).get<S['JournalEntry']>(`/_sandbox/requests/${request.params.id}`);
    if (isError(answer)) return refused(request, reply, '/console/requests', answer);
    return show(request, reply, `Request ${answer.body.method} ${answer.body.path}`, '/console/requests', requestBody(answer.body));
  });
}
