/**
 * The console's pages: API answers (src/client/api.ts types) -> HTML. Pure functions: no I/O,
 * every value escaped by `html`. Which buttons a resource shows is the `actions` list its API
 * answer carries (read from the transition tables), never a rule of the console's own.
 */
import { DELIVERY_OUTCOMES } from '../../../schemas/sandbox.js';
import { MERCHANT_TRIGGER } from '../../domain/controls.js';
import { merchantMachine } from '../../domain/merchant.js';
import { webhookHeaders } from '../../webhooks/post.js';
import type { components } from '../../client/api.js';
import { html, raw, type RawHtml } from '../hosted/layout.js';
import { withQuery } from './api.js';
import { actionButton, csrfField, live } from './layout.js';
import type { ConsoleSession } from './session.js';

type S = components['schemas'];
type Row = RawHtml | string | number | null | undefined;

const OK = new Set(['paid', 'activated', 'authorized', 'delivered', 'passed', 'active', 'created']);
// every failed attempt's outcome is bad news, as are the end states that are not the happy one
const BAD = new Set<string>([
  'failed',
  'rejected',
  'revoked',
  'expired',
  'inactive',
  ...DELIVERY_OUTCOMES.filter((o) => o !== 'delivered'),
]);

export function badge(value: string | null | undefined): RawHtml {
  if (value === null || value === undefined) return html`<span class="badge muted">none</span>`;
  const tone = OK.has(value) ? 'ok' : BAD.has(value) ? 'bad' : 'wait';
  return html`<span class="badge ${tone}">${value.replace(/_/g, ' ')}</span>`;
}

const statusBadge = (status: number): RawHtml => html`<span class="badge ${status < 400 ? 'ok' : 'bad'}">${status}</span>`;

export function table(caption: string, headers: readonly string[], rows: readonly (readonly Row[])[], empty = 'Nothing yet.'): RawHtml {
  if (rows.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}"><table>
<caption class="visually-hidden">${caption}</caption>
<thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows.map((r) => html`<tr>${r.map((c) => html`<td>${c}</td>`)}</tr>`)}</tbody>
</table></div>`;
}

const pager = (base: string, cursor: string | null | undefined): RawHtml =>
  cursor
    ? html`<p class="pager"><a href="${base}${base.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}">Older →</a></p>`
    : html``;

function select(name: string, label: string, options: readonly string[], current: string | undefined, any = 'any'): RawHtml {
  return html`<label>${label}<select name="${name}">
<option value="">${any}</option>${options.map((o) => html`<option value="${o}"${o === current ? raw(' selected') : ''}>${o}</option>`)}
</select></label>`;
}

function input(name: string, label: string, value: string | undefined, attrs = ''): RawHtml {
  return html`<label>${label}<input name="${name}" value="${value ?? ''}"${raw(attrs)}></label>`;
}

// ---------------------------------------------------------------- sign-in

export function signInBody(opts: { token: string; clientId?: string; error?: string; next?: string; environment: string }): RawHtml {
  return html`<section class="card">
<p>Sign in with the partner or sandbox credentials your integration uses (<code>X-Partner-Client-Id</code> and <code>X-Partner-Client-Secret</code>).
The console shows and does only what those credentials may, through the same API.</p>
${opts.error ? html`<p class="notice bad" role="alert" id="sign-in-error">${opts.error}</p>` : ''}
<form method="post" action="/console/sign-in" class="stack">
<input type="hidden" name="_csrf" value="${opts.token}">
<input type="hidden" name="next" value="${opts.next ?? '/console'}">
<label>Client id<input name="clientId" autocomplete="username" required value="${opts.clientId ?? ''}"${opts.error ? raw(' aria-describedby="sign-in-error"') : ''}></label>
<label>Client secret<input name="clientSecret" type="password" autocomplete="current-password" required></label>
<div><button type="submit">Sign in</button></div>
</form>
${opts.environment === 'sandbox' ? html`<p class="muted">The default sandbox partner is <code>sandbox-partner</code> / <code>sandbox-secret</code> unless configured otherwise; a created sandbox's credentials come from <code>POST /_sandbox/sandboxes</code>.</p>` : ''}
</section>`;
}

// ---------------------------------------------------------------- overview

export function overviewBody(o: S['SandboxOverview'], session: ConsoleSession, selfUrl: string): RawHtml {
  const counts = (title: string, values: Record<string, number>) =>
    html`<section class="card"><h2>${title}</h2>${table(
      title,
      ['Status', 'Count'],
      Object.entries(values).map(([k, n]) => [badge(k), n]),
    )}</section>`;
  const clock = html`<section class="card" aria-labelledby="clock-h"><h2 id="clock-h">Clock</h2>
<dl>
<dt>Now</dt><dd><time datetime="${o.clock.now}" data-testid="clock-now">${o.clock.now}</time></dd>
<dt>State</dt><dd data-testid="clock-state">${o.clock.frozen ? 'frozen' : 'running'}</dd>
<dt>Sandbox</dt><dd>${o.sandboxId ?? 'default'} (partner ${o.partnerId})</dd>
</dl>
${o.clock.frozen ? actionButton(session, '/console/clock/resume', 'Resume the clock', { back: '/console', id: 'resume', tone: 'secondary' }) : actionButton(session, '/console/clock/freeze', 'Freeze the clock', { back: '/console', id: 'freeze', tone: 'secondary' })}
</section>`;
  return html`
<section class="card" aria-labelledby="controls-h"><h2 id="controls-h">Move time</h2>
<form method="post" action="/console/clock/advance" class="filters">
${csrfField(session)}
<label>Advance by<input name="duration" value="5s" size="8" pattern="[0-9]+(ms|s|m|h|d)?" aria-describedby="advance-hint" required></label>
<button type="submit" id="advance">Advance</button>
<span id="advance-hint" class="muted">500ms, 5s, 2m, 1h, 7d: every settlement, expiry and approval falling due fires, in order.</span>
</form>
</section>
${live(
  'overview',
  selfUrl,
  html`${clock}<div class="grid">
${counts('Merchants', o.merchants)}
${counts('Payments', o.payments)}
${counts('Consents', o.consents)}
<section class="card"><h2>Deliveries</h2>${table(
    'Deliveries by state',
    ['State', 'Count'],
    Object.entries(o.deliveries.byState).map(([k, n]) => [badge(k), n]),
  )}
<h3>By outcome</h3>${table(
    'Deliveries by outcome',
    ['Outcome', 'Count'],
    Object.entries(o.deliveries.byOutcome)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => [badge(k), n]),
    'No attempts yet.',
  )}
<p>${o.webhooks} registered webhook${o.webhooks === 1 ? '' : 's'}. <a href="/console/webhooks">Webhooks and deliveries</a></p></section>
</div>`,
)}
${
  o.environment === 'sandbox'
    ? html`<section class="card"><h2>Create a test merchant</h2>
<form method="post" action="/console/merchants/test" class="filters">
${csrfField(session)}
<label>Company name<input name="companyName" required maxlength="200" value="Console Shop ApS"></label>
<button type="submit">Create (activated at once)</button>
</form></section>`
    : html`<p class="notice">Production profile: nothing settles or gets approved by itself, and sandbox-only calls (test merchants, created sandboxes) are not offered.</p>`
}`;
}

// ---------------------------------------------------------------- merchants

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

export function merchantBody(m: S['SandboxMerchant'], session: ConsoleSession, selfUrl: string): RawHtml {
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
    )}</section>`,
  );
}

// ---------------------------------------------------------------- payments

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
        html`<li><time datetime="${e.at}">${e.at}</time> · ${e.kind === 'event' ? html`event <strong>${e.event}</strong> <code>${e.eventId}</code>` : e.kind === 'created' ? 'created (pending)' : e.kind === 'page_opened' ? 'payer opened the payment page' : html`status changed to ${badge(e.status)}`}
${e.deliveries.length ? html`<ul>${e.deliveries.map((x) => html`<li><a href="/console/deliveries/${x.id}">delivery ${x.id}</a> ${badge(x.outcome ?? x.state)}${x.statusCode ? html` HTTP ${x.statusCode}` : ''}</li>`)}</ul>` : ''}</li>`,
    )}</ol>
</section>`,
  );
}

// ---------------------------------------------------------------- consents

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
      html`<code>${c.requestId}</code>`,
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

// ---------------------------------------------------------------- webhooks and deliveries

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
${select('outcome', 'Outcome', ['delivered', 'timeout', 'connection_refused', 'connection_reset', 'non_2xx', 'redirect', 'error'], q.outcome)}
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
      html`<span data-testid="delivery-${d.id}">${badge(d.outcome ?? d.state)}</span>`,
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
  const headers = webhookHeaders(d.eventId, d.state === 'pending' ? null : d.signature);
  return live(
    'delivery',
    selfUrl,
    html`<div class="grid"><section class="card"><h2>Attempt</h2><dl>
<dt>Event</dt><dd>${d.event} <code>${d.eventId}</code></dd>
<dt>Webhook</dt><dd><code>${d.webhookId}</code> → ${d.url}</dd>
<dt>State</dt><dd data-testid="delivery-state">${badge(d.state)}</dd>
<dt>Outcome</dt><dd>${badge(d.outcome)}${d.statusCode ? html` HTTP ${d.statusCode}` : ''}${d.error ? html` — ${d.error}` : ''}</dd>
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

// ---------------------------------------------------------------- requests (journal)

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
      statusBadge(e.status),
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
<dt>Status</dt><dd>${statusBadge(e.status)} ${e.code ?? ''}${e.field ? html` (field <code>${e.field}</code>)` : ''}</dd>
<dt>At</dt><dd>${e.wallAt} (virtual ${e.at})</dd>
<dt>Request id</dt><dd><code>${e.requestId}</code></dd>
<dt>Duration</dt><dd>${e.durationMs.toFixed(2)} ms</dd>
</dl></section>
<h2>Entry</h2><pre>${JSON.stringify(e, null, 2)}</pre>`;
}

// ---------------------------------------------------------------- scenarios

export function scenariosBody(list: S['SandboxScenarioList'], session: ConsoleSession, run?: S['SandboxScenarioRunResult']): RawHtml {
  return html`${run ? scenarioResult(run) : ''}
${table(
  'Shipped scenarios',
  ['Scenario', 'What it does', 'Steps', ''],
  list.items.map((s) => [
    html`<strong>${s.name}</strong>`,
    s.description ?? '',
    s.steps,
    html`<form method="post" action="/console/scenarios/run" class="inline">${csrfField(session)}<input type="hidden" name="name" value="${s.name}">
<label class="choice"><input type="checkbox" name="isolate" value="true"> in a fresh sandbox</label>
<button type="submit" id="run-${s.name}">Run</button></form>`,
  ]),
)}`;
}

function scenarioResult(r: S['SandboxScenarioRunResult']): RawHtml {
  return html`<section class="card" aria-labelledby="run-h" data-testid="scenario-result"><h2 id="run-h">${r.name}: ${badge(r.passed ? 'passed' : 'failed')} in ${r.durationMs} ms</h2>
${r.error ? html`<p class="notice bad">${r.error}</p>` : ''}
${table(
  'Steps',
  ['#', 'Step', 'Result', 'Detail'],
  r.steps.map((s) => [
    s.index,
    html`${s.kind}${s.label ? html`: ${s.label}` : ''}`,
    badge(s.status),
    html`${s.detail ?? ''}${s.message ? html`<pre>${s.message}</pre>` : ''}`,
  ]),
)}
</section>`;
}
