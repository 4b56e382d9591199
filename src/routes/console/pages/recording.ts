/**
 * The console's "Record as scenario" (from the requests page): the sandbox's journal as a
 * scenario file (GET /_sandbox/scenario-draft), shown with what could not be recorded, and
 * downloadable as a .yaml file to run with `obsim scenario run`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { html, type RawHtml } from '../../hosted/layout.js';
import { isError, withQuery } from '../api.js';
import type { ConsoleKit } from '../kit.js';
import { input, type S } from '../views.js';

type Draft = S['SandboxScenarioDraft'];

/** The form on the requests page: record the journal, or a range of it, as a scenario. */
export function recordForm(): RawHtml {
  return html`<form method="get" action="/console/scenario-draft" class="filters" aria-label="Record as scenario">
${input('since', 'Since (entry id or instant)', undefined, ' maxlength="40" size="14"')}
${input('until', 'Until', undefined, ' maxlength="40" size="14"')}
${input('name', 'Scenario name', undefined, ' maxlength="100" pattern="[a-z0-9][a-z0-9\\-]*" placeholder="checkout-happy-path"')}
<button type="submit">Record as scenario</button>
</form>`;
}

export function draftBody(draft: Draft, downloadUrl: string): RawHtml {
  return html`${draft.warnings.map((w) => html`<p class="notice" role="status">${w}</p>`)}
<p class="muted">${draft.entries} journal entries and ${draft.deliveries} webhook deliveries read.
Run it on a fresh sandbox with <code>obsim scenario run FILE --isolate</code>; credentials come from the runner, never the file.</p>
${draft.steps > 0 ? html`<p><a href="${downloadUrl}" download hx-boost="false">Download the scenario (.yaml)</a></p>` : ''}
<pre class="scenario-draft" aria-label="Scenario file">${draft.yaml}</pre>`;
}

export function recordingRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { hide, api, show, refused, query, pick } = kit;
  /** The draft the form asks for (blank fields left out), and the form's fields. */
  const draftFor = async (request: FastifyRequest) => {
    const q = pick(query(request), 'since', 'until', 'name');
    const asked = { since: q.since || undefined, until: q.until || undefined, name: q.name || undefined };
    return { q, answer: await api(request).get<Draft>(withQuery('/_sandbox/scenario-draft', { ...asked, format: 'json' })) };
  };

  app.get('/console/scenario-draft', hide, async (request, reply) => {
    const { q, answer } = await draftFor(request);
    if (isError(answer)) return refused(request, reply, '/console/requests', answer);
    return show(
      request,
      reply,
      'Recorded scenario',
      '/console/requests',
      draftBody(answer.body, withQuery('/console/scenario-draft.yaml', q)),
    );
  });

  app.get('/console/scenario-draft.yaml', hide, async (request, reply) => {
    const { q, answer } = await draftFor(request);
    if (isError(answer)) return refused(request, reply, '/console/requests', answer);
    const file = `${q.name || 'recorded'}.yaml`.replace(/[^\w.-]/g, '-');
    return reply
      .type('application/yaml; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file}"`)
      .send(answer.body.yaml);
  });
}
