/**
 * The console's webhooks page: registered webhooks, the delivery log with filters, one delivery (its request, response and signature) and redelivery.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../domain/errors.js';
import { DELIVERY_OUTCOMES } from '../../../../schemas/sandbox.js';
import { webhookHeaders } from '../../../webhooks/post.js';
import { html, type RawHtml } from '../../hosted/layout.js';
import { isError, withQuery } from '../api.js';
import { first, type Form, ID, TOKEN_ID, type ConsoleKit } from '../kit.js';
import { actionButton, csrfField, live } from '../layout.js';
import type { ConsoleSession } from '../session.js';
import { badge, faultBadge, type S, select, table } from '../views.js';

const EVENTS = ['payment.completed', 'payment.failed', 'merchant.activated', 'merchant.deactivated', 'merchant.onboarding.completed'];

export function webhooksBody(
  hooks: S['SandboxWebhookList'],
  deliveries: S['SandboxDeliveryList'],
  q: { event?: string; state?: string; outcome?: string },
  session: ConsoleSession,
  selfUrl: string,
): RawHtml {
  return html`<section class="card"><h2>Registered webhooks</h2>
${table(
  'Registered webhooks',
  ['Id', 'URL', 'Events', 'Secret', ''],
  hooks.items.map((w) => [
    html`<code>${w.id}</code>`,
    w.url,
    w.events.join(', '),
    html`<details><summary>Reveal secret</summary><code data-testid="secret-${w.id}">${w.secret}</code></details>`,
    actionButton(session, `/console/webhooks/${w.id}/test`, 'Send test', { back: '/console/webhooks', tone: 'secondary' }),
  ]),
  'No webhooks registered.',
)}
<details><summary>Register a webhook</summary>
<form method="post" action="/console/webhooks" class="stack">
${csrfField(session)}
<label>URL<input name="url" type="url" required placeholder="http://127.0.0.1:3000/webhooks"></label>
<fieldset><legend>Events</legend>${EVENTS.map((e) => html`<label class="choice"><input type="checkbox" name="events" value="${e}" checked> ${e}</label>`)}</fieldset>
<div><button type="submit">Register</button></div>
</form></details>
</section>
<h2>Deliveries</h2>
<form method="get" action="/console/webhooks" class="filters" role="search">
${select('event', 'Event', [...EVENTS, 'webhook.test'], q.event)}
${select('state', 'State', ['pending', 'delivering', 'delivered', 'failed'], q.state)}
${select('outcome', 'Outcome', DELIVERY_OUTCOMES, q.outcome)}
<button type="submit">Filter</button>
</form>
${live(
  'deliveries',
  selfUrl,
  html`<p class="muted">${deliveries.total}${deliveries.totalCapped ? '+' : ''} matching, newest first.</p>${table(
    'Deliveries',
    ['Id', 'Event', 'URL', 'Outcome', 'HTTP', 'Attempted', ''],
    deliveries.items.map((d) => [
      html`<a href="/console/deliveries/${d.id}">${d.id}</a>`,
      d.event,
      d.url,
      html`<span data-testid="delivery-${d.id}">${badge(d.outcome ?? d.state)}</span>${faultBadge(d.fault)}`,
      d.statusCode ?? '',
      d.attemptedAt ?? '',
      d.state === 'failed'
        ? actionButton(session, `/console/deliveries/${d.id}/redeliver`, 'Redeliver', { back: '/console/webhooks', tone: 'secondary' })
        : '',
    ]),
    'No deliveries match.',
  )}`,
)}`;
}

export function deliveryBody(d: S['SandboxDelivery'], session: ConsoleSession, selfUrl: string): RawHtml {
  const headers = webhookHeaders(d.eventId, d.state === 'pending' ? null : d.signature, d.traceparent, d.tracestate);
  return live(
    'delivery',
    selfUrl,
    html`<div class="grid"><section class="card"><h2>Attempt</h2><dl>
<dt>Event</dt><dd>${d.event} <code>${d.eventId}</code></dd>
<dt>Webhook</dt><dd><code>${d.webhookId}</code> → ${d.url}</dd>
<dt>State</dt><dd data-testid="delivery-state">${badge(d.state)}</dd>
<dt>Outcome</dt><dd>${badge(d.outcome)}${d.statusCode ? html` HTTP ${d.statusCode}` : ''}${d.error ? html` — ${d.error}` : ''}${faultBadge(d.fault)}</dd>
<dt>Duration</dt><dd>${d.durationMs === null ? '—' : `${d.durationMs} ms`}</dd>
<dt>Attempted</dt><dd>${d.attemptedAt ?? '—'}</dd>
<dt>Redelivery of</dt><dd>${d.redeliveryOf === null ? '—' : html`<a href="/console/deliveries/${d.redeliveryOf}">${d.redeliveryOf}</a>`}</dd>
</dl>
${actionButton(session, `/console/deliveries/${d.id}/redeliver`, 'Redeliver', { back: '/console/webhooks', id: 'redeliver' })}
</section>
<section class="card"><h2>Headers</h2>${table(
      'Headers sent',
      ['Header', 'Value'],
      Object.entries(headers).map(([k, v]) => [html`<code>${k}</code>`, html`<code>${v}</code>`]),
    )}
<p class="muted">X-Webhook-Signature is the hex HMAC-SHA256 of the exact body with the webhook's secret.</p></section></div>
<section class="card"><h2>Body (exact bytes)</h2><pre data-testid="delivery-body">${d.body}</pre></section>`,
  );
}

export function webhookRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { hide, api, show, refused, act, query, pick } = kit;
  app.get('/console/webhooks', hide, async (request, reply) => {
    const q = pick(query(request), 'event', 'state', 'outcome');
    const [hooks, deliveries] = await Promise.all([
      api(request).get<S['SandboxWebhookList']>('/_sandbox/webhooks'),
      api(request).get<S['SandboxDeliveryList']>(withQuery('/_sandbox/deliveries', q)),
    ]);
    if (isError(hooks)) return refused(request, reply, '/console/webhooks', hooks);
    if (isError(deliveries)) return refused(request, reply, '/console/webhooks', deliveries);
    return show(
      request,
      reply,
      'Webhooks and deliveries',
      '/console/webhooks',
      webhooksBody(hooks.body, deliveries.body, q, request.consoleSession!, request.url),
    );
  });

  app.post('/console/webhooks', hide, async (request, reply) => {
    const form = request.body as Form;
    const events = Array.isArray(form.events) ? form.events : form.events === undefined ? [] : [form.events];
    return act(
      request,
      reply,
      () => api(request).post('/v1/partner/webhooks', { url: first(form.url), events }),
      'Webhook registered.',
      '/console/webhooks',
    );
  });

  app.post<{ Params: { id: string } }>('/console/webhooks/:id/test', hide, async (request, reply) => {
    if (!TOKEN_ID.test(request.params.id)) throw new ApiError('route_not_found');
    return act(
      request,
      reply,
      () => api(request).post(`/v1/partner/webhooks/${request.params.id}/test`),
      'Test delivery queued.',
      '/console/webhooks',
    );
  });

  app.get<{ Params: { id: string } }>('/console/deliveries/:id', hide, async (request, reply) => {
    if (!ID.test(request.params.id)) throw new ApiError('route_not_found');
    const answer = await api(request).get<S['SandboxDelivery']>(`/_sandbox/deliveries/${request.params.id}`);
    if (isError(answer)) return refused(request, reply, '/console/webhooks', answer);
    return show(
      request,
      reply,
      `Delivery ${request.params.id}`,
      '/console/webhooks',
      deliveryBody(answer.body, request.consoleSession!, request.url),
    );
  });

  app.post<{ Params: { id: string } }>('/console/deliveries/:id/redeliver', hide, async (request, reply) => {
    const { id } = request.params;
    if (!ID.test(id)) throw new ApiError('route_not_found');
    return act(
      request,
      reply,
      () => api(request).post<S['SandboxDelivery']>(`/_sandbox/deliveries/${id}/redeliver`),
      (d) => ({ text: `Redelivery ${d.id} of delivery ${id} queued.`, to: `/console/deliveries/${d.id}` }),
      '/console/webhooks',
    );
  });
}
