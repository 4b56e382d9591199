/**
 * The console's overview page: the clock (advance, freeze, resume), counts by status, deliveries, a test merchant form,
 * and the sandbox as a Postman or Bruno collection to download (docs/partner-tools.md).
 */
import type { FastifyInstance } from 'fastify';
import { html, type RawHtml } from '../../hosted/layout.js';
import { isError } from '../api.js';
import { first, type Form, type ConsoleKit } from '../kit.js';
import { actionButton, csrfField, live } from '../layout.js';
import type { ConsoleSession } from '../session.js';
import { badge, type S, table } from '../views.js';

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
${o.contractVersion === undefined ? '' : html`<dt>Contract version</dt><dd data-testid="contract-version">${o.contractVersion}</dd>`}
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
${collections(o.contractVersion)}
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

/** What the console downloads, and the control it reads it from with the session's credentials. */
const DOWNLOADS = {
  postman: '/_sandbox/collections/postman',
  'postman-environment': '/_sandbox/collections/postman/environment',
  bruno: '/_sandbox/collections/bruno',
} as const;

function collections(contractVersion: string | undefined): RawHtml {
  const version = contractVersion ?? 'base';
  return html`<section class="card" aria-labelledby="collections-h"><h2 id="collections-h">Collections</h2>
<p>This sandbox's API in the tools partners already use, for contract version ${version}: every request, ids chained from answer to request, and a Flows folder (docs/partner-tools.md).</p>
<ul hx-boost="false"><!-- a download, not a page: htmx would fetch and swap it -->
<li><a href="/console/collections/postman" download data-testid="download-postman">Postman collection</a> and <a href="/console/collections/postman-environment" download data-testid="download-postman-environment">its environment</a> (with your credentials as secrets)</li>
<li><a href="/console/collections/bruno" download data-testid="download-bruno">Bruno collection</a> (a zip of the folder, with its environment)</li>
</ul>
</section>`;
}

export function overviewRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  app.get<{ Params: { kind: string } }>('/console/collections/:kind', kit.hide, async (request, reply) => {
    const path = DOWNLOADS[request.params.kind as keyof typeof DOWNLOADS];
    if (!path) return reply.callNotFound();
    const session = request.consoleSession!;
    const res = await app.inject({
      method: 'GET',
      url: path,
      headers: { 'x-partner-client-id': session.clientId, 'x-partner-client-secret': session.secret, 'x-obsim-console': 'read' },
    });
    if (res.statusCode >= 400)
      return kit.refused(request, reply, '/console', { status: res.statusCode, body: JSON.parse(res.body) as never });
    for (const name of ['content-type', 'content-disposition', 'cache-control'])
      if (res.headers[name] !== undefined) void reply.header(name, res.headers[name]);
    return reply.send(res.rawPayload);
  });

  const { hide, api, show, refused, act } = kit;
  app.get('/console', hide, async (request, reply) => {
    const answer = await api(request).get<S['SandboxOverview']>('/_sandbox/overview');
    if (isError(answer)) return refused(request, reply, '/console', answer);
    return show(request, reply, 'Overview', '/console', overviewBody(answer.body, request.consoleSession!, request.url));
  });

  app.post('/console/clock/advance', hide, async (request, reply) => {
    const duration = first((request.body as Form).duration)?.trim() ?? '';
    return act(
      request,
      reply,
      () => api(request).post('/_sandbox/clock/advance', { duration }),
      `Advanced the clock by ${duration}.`,
      '/console',
    );
  });
  for (const move of ['freeze', 'resume'] as const) {
    app.post(`/console/clock/${move}`, hide, async (request, reply) =>
      act(
        request,
        reply,
        () => api(request).post(`/_sandbox/clock/${move}`),
        move === 'freeze' ? 'The clock is frozen.' : 'The clock runs.',
        '/console',
      ),
    );
  }
}
