/**
 * Shared HTML helpers for the hosted pages (consent / bank authorization, payment, onboarding).
 *
 * Rules every hosted page follows:
 * - server-rendered, no JavaScript required, no external assets: CSS is inline in <style>;
 * - every interpolated value goes through `esc()` (escape-html) — or use the `html` tagged
 *   template, which escapes every interpolation unless it is wrapped in `raw()`;
 * - keyboard usable: real <form>, <button>, <label for>, native radio/checkbox inputs, a visible
 *   focus outline, a skip link, one <h1> per page, `lang` set;
 * - pages are hidden from the OpenAPI document (`schema: { hide: true }`) and carry
 *   `Cache-Control: no-store` plus a restrictive Content-Security-Policy (`sendPage`).
 */
import escapeHtml from 'escape-html';
import type { FastifyReply } from 'fastify';

/** Escape any value for HTML text or a quoted attribute. */
export function esc(value: unknown): string {
  return escapeHtml(value === null || value === undefined ? '' : String(value));
}

/** Marks a string as already-safe HTML so `html` does not escape it again. */
export class RawHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function raw(value: string): RawHtml {
  return new RawHtml(value);
}

type Part = RawHtml | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof RawHtml) return part.value;
  if (Array.isArray(part)) return (part as readonly Part[]).map(render).join('');
  return esc(part);
}

/**
 * Tagged template: interpolations are escaped, arrays are joined, `raw()` and nested `html`
 * results are inserted as they are. Returns RawHtml so fragments compose.
 */
export function html(strings: TemplateStringsArray, ...values: Part[]): RawHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new RawHtml(out);
}

const CSS = `
:root { color-scheme: light; --ink: #1a1f36; --muted: #56607a; --line: #d5d9e2; --brand: #0b5cad; --bg: #f5f7fa; --ok: #1d7a3e; --bad: #b3261e; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; }
.skip:focus { left: 1rem; }
header.top { background: var(--ink); color: #fff; padding: .75rem 1.25rem; font-weight: 600; }
header.top small { font-weight: 400; opacity: .8; margin-left: .5rem; }
main { max-width: 40rem; margin: 1.5rem auto; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1.5rem; }
h1 { font-size: 1.4rem; margin-top: 0; }
h2 { font-size: 1.1rem; margin-bottom: .5rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dt { color: var(--muted); }
dd { margin: 0; word-break: break-word; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 1rem 0; padding: .75rem 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
label { display: block; padding: .35rem 0; cursor: pointer; }
input[type=text], input[type=email], input[type=tel], select, textarea { font: inherit; padding: .45rem .6rem; border: 1px solid var(--line); border-radius: 4px; width: 100%; }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; margin-top: 1.25rem; }
button { font: inherit; padding: .6rem 1.2rem; border-radius: 6px; border: 1px solid var(--brand); background: var(--brand); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--brand); }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
a { color: var(--brand); }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.notice { padding: .75rem 1rem; border-radius: 6px; border: 1px solid var(--line); background: var(--bg); }
.notice.ok { border-color: var(--ok); color: var(--ok); }
.notice.bad { border-color: var(--bad); color: var(--bad); }
ul.plain { padding-left: 1.2rem; }
footer { text-align: center; color: var(--muted); font-size: .85rem; margin: 1rem; }
.hint { color: var(--muted); font-size: .9rem; margin: .1rem 0 .25rem; }
input[type=url], input[type=date] { font: inherit; padding: .45rem .6rem; border: 1px solid var(--line); border-radius: 4px; width: 100%; }
.error { color: var(--bad); font-weight: 600; margin: .25rem 0; }
input[aria-invalid=true], select[aria-invalid=true] { border: 2px solid var(--bad); }
.error-summary { border: 3px solid var(--bad); border-radius: 6px; padding: .75rem 1rem; margin: 0 0 1.25rem; }
.error-summary h2 { margin-top: 0; color: var(--bad); }
.error-summary a { color: var(--bad); }
.choice { display: flex; align-items: flex-start; gap: .4rem; }
.choice label { padding: .1rem 0; }
.status { display: inline-block; padding: .1rem .5rem; border-radius: 4px; font-weight: 700; border: 1px solid currentColor; }
.status.ok { color: var(--ok); } .status.bad { color: var(--bad); } .status.wait { color: #8a6100; }
button.link { border: 0; background: none; color: var(--brand); text-decoration: underline; padding: .25rem 0; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
`;

export interface PageOptions {
  /** Text of <title> and of the page heading (escaped). */
  title: string;
  /** Page content (already composed with `html`). */
  body: RawHtml;
  /** Small text next to the product name in the header, e.g. the bank name. */
  brand?: string;
  lang?: string;
}

/** A complete HTML document with the shared header, inline CSS and footer. */
export function page(options: PageOptions): string {
  return html`<!doctype html>
<html lang="${options.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${options.title} · obsim sandbox</title>
<style>${raw(CSS)}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top" role="banner">obsim sandbox${options.brand ? html`<small>${options.brand}</small>` : ''}</header>
<main id="main" tabindex="-1">
<h1>${options.title}</h1>
${options.body}
</main>
<footer>Simulated page served by obsim. No real bank, no real money.</footer>
</body>
</html>
`.value;
}

/** Send a hosted page: text/html, no caching, no external resources (CSP), no framing. */
export function sendPage(reply: FastifyReply, document: string, status = 200): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'",
    )
    .send(document);
}

/** A simple page with a heading, a message and an optional notice class (ok | bad). */
export function messagePage(title: string, message: RawHtml | string, tone: 'ok' | 'bad' | '' = ''): string {
  return page({ title, body: html`<p class="notice ${tone}" role="status">${message}</p>` });
}
