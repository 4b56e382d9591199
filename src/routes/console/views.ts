/**
 * What every console page draws with: status badges, tables, pagers and filter fields. Pure
 * functions over API answers (src/client/api.ts types); every value escaped by `html`.
 */
import { DELIVERY_OUTCOMES } from '../../../schemas/sandbox.js';
import type { components } from '../../client/api.js';
import { html, raw, type RawHtml } from '../hosted/layout.js';

export type S = components['schemas'];
type Row = RawHtml | string | number | null | undefined;

const OK = new Set(['paid', 'activated', 'authorized', 'delivered', 'passed', 'active', 'created', 'compatible', 'clear']);
// every failed attempt's outcome is bad news, as are the end states that are not the happy one
const BAD = new Set<string>([
  'breaking',
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

/** A fault the sandbox's profile injected (docs/chaos.md), told apart from what the partner caused; nothing when none. */
export const faultBadge = (fault: { rule: number; kind: string } | undefined): RawHtml | '' =>
  fault
    ? html`<span class="badge fault" data-testid="fault" title="Injected by the sandbox's fault profile, rule ${fault.rule}">fault: ${fault.kind.replace(/_/g, ' ')}</span>`
    : '';

const CAUSE_TEXT: Record<string, string> = {
  request: 'by the API call',
  control: 'by the control action',
  console: 'from the console',
  scenario_step: 'by the scenario step',
  hosted_page: 'on the hosted page',
  timer: 'by the timer',
  persona: 'by the persona',
  seed: 'seeded',
  migration: 'before transitions were recorded',
};

/** What made a change (a transition's cause), after the change it explains; nothing when unknown. */
export const causeOf = (cause: { kind: string; name: string; requestId?: string } | null | undefined): RawHtml | '' =>
  cause
    ? html` <span class="muted" data-testid="cause">${CAUSE_TEXT[cause.kind] ?? cause.kind} <code>${cause.name}</code>${cause.requestId ? html` (request <code>${cause.requestId}</code>)` : ''}</span>`
    : '';

/** A resource's transitions, oldest first (merchant and consent pages). */
/** The bank and its profile's rule behind a change (docs/banks.md); nothing when none. */
export function bankRule(bank: { bankId: string; rule: string } | undefined): RawHtml | '' {
  return bank ? html` <span class="muted" data-testid="bank-rule">· ${bank.bankId}: ${bank.rule.replace(/_/g, ' ')}</span>` : '';
}

export function transitionsList(transitions: S['SandboxTransitionList']): RawHtml {
  if (transitions.items.length === 0) return html`<p class="muted">No transitions kept.</p>`;
  return html`<ol data-testid="transitions">${transitions.items.map(
    (t) =>
      html`<li><time datetime="${t.at}">${t.at}</time> · ${t.from === null ? html`created ${badge(t.to)}` : html`${badge(t.from)} → ${badge(t.to)}`}${t.reason ? html` (${t.reason.replace(/_/g, ' ')})` : ''}${causeOf(t.cause)}${bankRule(t.bank)}</li>`,
  )}</ol>`;
}

export const statusBadge = (status: number): RawHtml => html`<span class="badge ${status < 400 ? 'ok' : 'bad'}">${status}</span>`;

export function table(caption: string, headers: readonly string[], rows: readonly (readonly Row[])[], empty = 'Nothing yet.'): RawHtml {
  if (rows.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}"><table>
<caption class="visually-hidden">${caption}</caption>
<thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows.map((r) => html`<tr>${r.map((c) => html`<td>${c}</td>`)}</tr>`)}</tbody>
</table></div>`;
}

export const pager = (base: string, cursor: string | null | undefined): RawHtml =>
  cursor
    ? html`<p class="pager"><a href="${base}${base.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}">Older →</a></p>`
    : html``;

export function select(name: string, label: string, options: readonly string[], current: string | undefined, any = 'any'): RawHtml {
  return html`<label>${label}<select name="${name}">
<option value="">${any}</option>${options.map((o) => html`<option value="${o}"${o === current ? raw(' selected') : ''}>${o}</option>`)}
</select></label>`;
}

export function input(name: string, label: string, value: string | undefined, attrs = ''): RawHtml {
  return html`<label>${label}<input name="${name}" value="${value ?? ''}"${raw(attrs)}></label>`;
}
