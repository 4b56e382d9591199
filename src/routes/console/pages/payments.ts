/**
 * The console's payments page: the list with filters and a create form, one payment with its timeline and actions.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../domain/errors.js';
import { html, type RawHtml } from '../../hosted/layout.js';
import { isError, withQuery } from '../api.js';
import { ACTION, first, type Form, ID, type ConsoleKit } from '../kit.js';
import { actionButton, csrfField, live } from '../layout.js';
import type { ConsoleSession } from '../session.js';
import { badge, causeOf, input, pager, type S, select, table, bankRule } from '../views.js';

const amount = (p: S['Payment']) => `${p.amount.toFixed(2)} ${p.currency}`;

export function paymentsBody(
  list: S['SandboxPaymentList'],
  merchants: S['SandboxMerchantList'],
  q: { status?: string; referenceNumber?: string },
  session: ConsoleSession,
  selfUrl: string,
): RawHtml {
  const base = withQuery('/console/payments', q);
  return html`<details class="card"><summary>Create a payment</summary>
<form method="post" action="/console/payments" class="stack">
${csrfField(session)}
<label>Merchant<select name="merchantClientId" required>${merchants.items.map(({ merchant: m }) => html`<option value="${m.clientId}">${m.companyName} (${m.merchantId})</option>`)}</select></label>
<label>Amount (DKK)<input name="amount" inputmode="decimal" required value="100.00" pattern="[0-9]+(\\.[0-9]{1,2})?"></label>
<label>Reference number<input name="referenceNumber" required maxlength="140" value="console-order"></label>
<div><button type="submit">Create payment</button></div>
</form></details>
<form method="get" action="/console/payments" class="filters" role="search">
${select('status', 'Status', ['pending', 'processing', 'paid', 'failed'], q.status)}
${input('referenceNumber', 'Reference number', q.referenceNumber, ' maxlength="140"')}
<button type="submit">Filter</button>
</form>
${live(
  'payments',
  selfUrl,
  html`${table(
    'Payments',
    ['Id', 'Reference', 'Amount', 'Merchant', 'Status', 'Created'],
    list.items.map(({ payment: p }) => [
      html`<a href="/console/payments/${p.paymentId}">${p.paymentId}</a>`,
      p.referenceNumber,
      amount(p),
      p.merchantName,
      html`<span data-testid="payment-status-${p.paymentId}">${badge(p.status)}</span>`,
      p.createdAt,
    ]),
    'No payments match.',
  )}${pager(base, list.nextCursor)}`,
)}`;
}

export function paymentBody(d: S['SandboxPayment'], session: ConsoleSession, selfUrl: string): RawHtml {
  const p = d.payment;
  const back = `/console/payments/${p.paymentId}`;
  const others = d.actions.filter((a) => a !== 'fail');
  return live(
    'payment',
    selfUrl,
    html`<div class="grid">
<section class="card"><h2>Fields</h2><dl>
<dt>paymentId</dt><dd>${p.paymentId}</dd>
<dt>Status</dt><dd data-testid="payment-status">${badge(p.status)}</dd>
<dt>bankPaymentStatus</dt><dd>${p.bankPaymentStatus}</dd>
<dt>failureReason</dt><dd>${p.failureReason ?? '—'}</dd>
<dt>Amount</dt><dd>${amount(p)}</dd>
<dt>Reference</dt><dd data-testid="reference">${p.referenceNumber}</dd>
<dt>Merchant</dt><dd>${p.merchantName} (<code>${p.merchantClientId}</code>)</dd>
<dt>Payment page</dt><dd><a href="${p.paymentUrl}" rel="noreferrer">Hosted payment page</a></dd>
<dt>Created</dt><dd>${p.createdAt}</dd>
<dt>Expires</dt><dd>${p.expiresAt}</dd>
</dl></section>
<section class="card"><h2>Actions</h2>
${d.actions.length === 0 ? html`<p class="muted">No control action is legal from ${p.status}.</p>` : ''}
${others.map((a) => actionButton(session, `/console/payments/${p.paymentId}/${a}`, a, { back, id: `action-${a}`, tone: a === 'complete' || a === 'approve' ? undefined : 'danger' }))}
${
  d.actions.includes('fail')
    ? html`<form method="post" action="/console/payments/${p.paymentId}/fail" class="filters">
${csrfField(session)}<input type="hidden" name="back" value="${back}">
<label>Failure reason<select name="reason"><option>bank_rejected</option><option>payer_abandoned</option><option>expired</option></select></label>
<button type="submit" class="danger" id="action-fail">fail</button></form>`
    : ''
}
</section></div>
<section class="card"><h2>Timeline</h2>
<ol data-testid="timeline">${d.timeline.map(
      (e) =>
        html`<li><time datetime="${e.at}">${e.at}</time> · ${e.kind === 'event' ? html`event <strong>${e.event}</strong> <code>${e.eventId}</code>` : e.kind === 'created' ? html`created (${e.status ?? 'pending'})` : e.kind === 'page_opened' ? 'payer opened the payment page' : e.kind === 'app_approval_requested' ? html`payer sent to approve in the bank app ${badge('waiting')}` : e.kind === 'bank_unavailable' ? html`payer chose a bank that was down; the page offered the others` : html`status changed to ${badge(e.status)}`}${causeOf(e.cause)}${bankRule(e.bank)}
${e.deliveries.length ? html`<ul>${e.deliveries.map((x) => html`<li><a href="/console/deliveries/${x.id}">delivery ${x.id}</a> ${badge(x.outcome ?? x.state)}${x.statusCode ? html` HTTP ${x.statusCode}` : ''}</li>`)}</ul>` : ''}</li>`,
    )}</ol>
</section>`,
  );
}

export function paymentRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { hide, api, show, refused, act, query, pick } = kit;
  app.get('/console/payments', hide, async (request, reply) => {
    const q = pick(query(request), 'status', 'referenceNumber', 'cursor');
    const [list, merchants] = await Promise.all([
      api(request).get<S['SandboxPaymentList']>(withQuery('/_sandbox/payments', q)),
      api(request).get<S['SandboxMerchantList']>('/_sandbox/merchants?status=activated&limit=200'),
    ]);
    if (isError(list)) return refused(request, reply, '/console/payments', list);
    if (isError(merchants)) return refused(request, reply, '/console/payments', merchants);
    const body = paymentsBody(
      list.body,
      merchants.body,
      { status: q.status, referenceNumber: q.referenceNumber },
      request.consoleSession!,
      request.url,
    );
    return show(request, reply, 'Payments', '/console/payments', body);
  });

  app.post('/console/payments', hide, async (request, reply) => {
    const form = request.body as Form;
    const amount = Number(first(form.amount));
    return act(
      request,
      reply,
      () =>
        api(request).post<{ paymentId: number }>('/v1/partner/payments', {
          merchantClientId: first(form.merchantClientId),
          amount: Number.isFinite(amount) ? amount : first(form.amount),
          referenceNumber: first(form.referenceNumber),
        }),
      (p) => ({ text: `Created payment ${p.paymentId}.`, to: `/console/payments/${p.paymentId}` }),
      '/console/payments',
    );
  });

  app.get<{ Params: { id: string } }>('/console/payments/:id', hide, async (request, reply) => {
    if (!ID.test(request.params.id)) throw new ApiError('route_not_found');
    const answer = await api(request).get<S['SandboxPayment']>(`/_sandbox/payments/${request.params.id}`);
    if (isError(answer)) return refused(request, reply, '/console/payments', answer);
    return show(
      request,
      reply,
      `Payment ${request.params.id}`,
      '/console/payments',
      paymentBody(answer.body, request.consoleSession!, request.url),
    );
  });

  app.post<{ Params: { id: string; action: string } }>('/console/payments/:id/:action', hide, async (request, reply) => {
    const { id, action } = request.params;
    if (!ID.test(id) || !ACTION.test(action)) throw new ApiError('route_not_found');
    const reason = action === 'fail' ? first((request.body as Form).reason) : undefined;
    return act(
      request,
      reply,
      () => api(request).post(`/_sandbox/payments/${id}/${action}`, reason === undefined ? undefined : { reason }),
      `${action}: done for payment ${id}.`,
      `/console/payments/${id}`,
    );
  });
}
