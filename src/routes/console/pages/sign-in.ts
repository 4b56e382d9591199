/**
 * The console's sign-in form (its handlers are in index.ts, beside the session hook that needs them).
 */
import { html, raw, type RawHtml } from '../../hosted/layout.js';

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
