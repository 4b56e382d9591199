/**
 * The console's page shell. Server-rendered HTML (every value through the escaping `html`
 * template of the hosted pages), enhanced by htmx served from node_modules (no CDN, no inline
 * script: the CSP allows scripts and styles from /console/assets only):
 * - `hx-boost` turns links and forms into fetch + swap; without JavaScript they still work;
 * - the SSE extension listens to /console/live; a region marked `live` reloads itself (the page's
 *   own URL, that region only) when the sandbox changes.
 */
import type { FastifyReply } from 'fastify';
import { html, raw, type RawHtml } from '../hosted/layout.js';
import type { ConsoleSession } from './session.js';

export const NAV = [
  ['/console', 'Overview'],
  ['/console/merchants', 'Merchants'],
  ['/console/payments', 'Payments'],
  ['/console/consents', 'Consents'],
  ['/console/webhooks', 'Webhooks'],
  ['/console/requests', 'Requests'],
  ['/console/readiness', 'Readiness'],
  ['/console/contract', 'Contract'],
  ['/console/scenarios', 'Scenarios'],
  ['/console/banks', 'Banks'],
] as const;

export interface Flash {
  tone: 'ok' | 'bad';
  text: string;
}

export interface ConsolePage {
  title: string;
  /** Path of the current section (highlights the nav entry). */
  section: string;
  body: RawHtml;
  session?: ConsoleSession;
  environment: string;
  flash?: Flash;
}

const HTMX_CONFIG = JSON.stringify({
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  historyCacheSize: 0,
  refreshOnHistoryMiss: true,
  scrollIntoViewOnBoost: false,
});

export function consolePage(p: ConsolePage): string {
  const signedIn = p.session !== undefined;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="htmx-config" content="${HTMX_CONFIG}">
<title>${p.title} · obsim console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/htmx.min.js" defer></script>
<script src="/console/assets/sse.js" defer></script>
<script src="/console/assets/console.js" defer></script>
</head>
<body${signedIn ? raw(' hx-boost="true" hx-ext="sse" sse-connect="/console/live"') : ''}>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <span class="product">obsim console</span>
  <span class="env env-${p.environment}" data-testid="environment">${p.environment}</span>
  ${signedIn ? html`<span class="live-state" id="live-state" role="status">connecting…</span>` : ''}
  ${
    p.session
      ? html`<span class="who">signed in as <strong>${p.session.clientId}</strong></span>
  <form method="post" action="/console/sign-out" class="inline">
    <input type="hidden" name="_csrf" value="${p.session.csrf}">
    <button type="submit" class="secondary">Sign out</button>
  </form>`
      : ''
  }
</header>
${
  signedIn
    ? html`<nav aria-label="Console"><ul>${NAV.map(
        ([href, label]) => html`<li><a href="${href}"${p.section === href ? raw(' aria-current="page"') : ''}>${label}</a></li>`,
      )}</ul></nav>`
    : ''
}
<main id="main" tabindex="-1">
<h1>${p.title}</h1>
${p.flash ? html`<p class="notice ${p.flash.tone}" role="${p.flash.tone === 'bad' ? 'alert' : 'status'}">${p.flash.text}</p>` : ''}
${p.body}
</main>
</body>
</html>
`.value;
}

/**
 * A region that reloads itself when the sandbox changes: htmx GETs the page's own URL and swaps
 * in the element of the same id from the answer (elements keep focus when they have an id).
 */
export function live(id: string, selfUrl: string, content: RawHtml): RawHtml {
  return html`<div id="${id}" class="live" hx-get="${selfUrl}" hx-trigger="sse:changed" hx-select="#${id}" hx-swap="outerHTML" hx-push-url="false" hx-disinherit="*">${content}</div>`;
}

/** A hidden CSRF field for a form of the signed-in console. */
export const csrfField = (session: ConsoleSession): RawHtml => html`<input type="hidden" name="_csrf" value="${session.csrf}">`;

/** A form with one button that POSTs a console action (CSRF token and where to come back included). */
export function actionButton(
  session: ConsoleSession,
  action: string,
  label: string,
  opts: { back: string; id?: string; tone?: 'danger' | 'secondary'; fields?: RawHtml } = { back: '/console' },
): RawHtml {
  return html`<form method="post" action="${action}" class="inline">
${csrfField(session)}<input type="hidden" name="back" value="${opts.back}">${opts.fields ?? ''}
<button type="submit"${opts.id ? html` id="${opts.id}"` : ''}${opts.tone ? html` class="${opts.tone}"` : ''}>${label}</button>
</form>`;
}

export function sendConsolePage(reply: FastifyReply, document: string, status = 200): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .header(
      'content-security-policy',
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    )
    .send(document);
}

/** Marks the page live (or not) when the SSE stream opens or fails: the header says so, tests wait for it. */
export const CONSOLE_JS = `
document.addEventListener('htmx:sseOpen', function () { document.body.dataset.live = 'open'; var s = document.getElementById('live-state'); if (s) s.textContent = 'live'; });
document.addEventListener('htmx:sseError', function () { document.body.dataset.live = 'closed'; var s = document.getElementById('live-state'); if (s) s.textContent = 'reconnecting…'; });
`;

export const CONSOLE_CSS = `
:root { color-scheme: light; --ink: #1a1f36; --muted: #4f5872; --line: #c9ceda; --brand: #0b5cad; --bg: #f5f7fa; --ok: #1d6b38; --bad: #a8231b; --warn: #7a5600; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; z-index: 2; }
.skip:focus { left: 1rem; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem; background: var(--ink); color: #fff; padding: .6rem 1.25rem; }
header.top .product { font-weight: 700; }
header.top .who { margin-left: auto; }
header.top button.secondary { background: transparent; color: #fff; border-color: #fff; padding: .3rem .8rem; }
.env { text-transform: uppercase; font-size: .75rem; font-weight: 700; letter-spacing: .05em; padding: .1rem .5rem; border-radius: 4px; background: #fff; color: var(--ink); }
.env-production { background: #ffd9d6; color: #6b0f0a; }
.live-state { font-size: .8rem; opacity: .9; }
nav ul { list-style: none; margin: 0; padding: 0 1.25rem; display: flex; flex-wrap: wrap; gap: .25rem 1rem; background: #fff; border-bottom: 1px solid var(--line); }
nav a { display: inline-block; padding: .6rem 0; color: var(--brand); text-decoration: none; border-bottom: 3px solid transparent; }
nav a[aria-current=page] { border-bottom-color: var(--brand); font-weight: 700; color: var(--ink); }
main { max-width: 78rem; margin: 1.25rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.45rem; margin: .25rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
.card > h2:first-child, .card > summary + h2 { margin-top: 0; }
h3 { font-size: 1rem; margin: 1rem 0 .4rem; }
figure { margin: 1rem 0 0; }
figcaption { color: var(--muted); font-size: .9rem; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
section.card, .card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin-bottom: 1rem; }
.grid { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); }
table { width: 100%; border-collapse: collapse; background: #fff; }
th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: .9rem; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; background: #fff; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; word-break: break-word; }
code, pre { font: 13px/1.45 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
pre { background: #f0f2f6; border: 1px solid var(--line); border-radius: 6px; padding: .75rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
form.inline { display: inline-block; margin: 0 .35rem .35rem 0; }
form.filters { display: flex; flex-wrap: wrap; gap: .75rem; align-items: flex-end; margin-bottom: 1rem; }
form.filters label, form.stack label { display: flex; flex-direction: column; font-size: .9rem; color: var(--muted); gap: .2rem; }
form.stack { display: grid; gap: .6rem; max-width: 32rem; }
input, select { font: inherit; padding: .4rem .55rem; border: 1px solid #8a93a8; border-radius: 4px; background: #fff; color: var(--ink); }
button { font: inherit; padding: .45rem 1rem; border-radius: 6px; border: 1px solid var(--brand); background: var(--brand); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--brand); }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
a { color: var(--brand); }
:focus-visible { outline: 3px solid #e08e00; outline-offset: 2px; }
.notice { padding: .65rem 1rem; border-radius: 6px; border: 1px solid var(--line); background: #fff; }
.notice.ok { border-color: var(--ok); color: var(--ok); }
.notice.bad { border-color: var(--bad); color: var(--bad); }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 4px; font-size: .85rem; font-weight: 600; border: 1px solid currentColor; white-space: nowrap; }
.badge.ok { color: var(--ok); } .badge.bad { color: var(--bad); } .badge.wait { color: var(--warn); } .badge.muted { color: var(--muted); }
.badge.fault { color: var(--warn); border-style: dashed; margin-left: .3rem; }
.muted { color: var(--muted); }
.states { display: flex; flex-wrap: wrap; gap: .4rem; list-style: none; padding: 0; margin: .25rem 0 .75rem; }
.states li { padding: .2rem .6rem; border: 1px solid var(--line); border-radius: 999px; background: #fff; }
.states li[aria-current=true] { background: var(--brand); color: #fff; border-color: var(--brand); font-weight: 700; }
tr.legal td { background: #eef5ff; }
details summary { cursor: pointer; color: var(--brand); }
.pager { margin-top: .75rem; }
@media (max-width: 40rem) {
  main { padding: 0 .6rem; }
  th, td { padding: .35rem .4rem; }
  header.top .who { margin-left: 0; }
}
/* the readiness page's pictures (pages/readiness.ts) */
.readiness-svg { max-width: 100%; height: auto; font: 12px system-ui, sans-serif; }
.readiness-svg .ok { fill: #d5f5e3; stroke: #1e8449; }
.readiness-svg .seen { fill: #fdebd0; stroke: #b9770e; }
.readiness-svg .none { fill: #fff; stroke: #bbb; stroke-dasharray: 3 2; }
.readiness-svg .head { font-weight: 700; }
.readiness-svg .unseen { fill: #888; }
.readiness-svg a:hover rect, .readiness-svg a:focus rect { stroke-width: 2; }
`;
