/**
 * The console's scenarios page: the shipped and loaded scenarios, run one (isolated or not) and read its result.
 */
import type { FastifyInstance } from 'fastify';
import { html, type RawHtml } from '../../hosted/layout.js';
import { isError } from '../api.js';
import { first, type Form, type ConsoleKit } from '../kit.js';
import { csrfField } from '../layout.js';
import type { ConsoleSession } from '../session.js';
import { badge, type S, table } from '../views.js';

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

export function scenarioRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { hide, api, show, refused } = kit;
  app.get('/console/scenarios', hide, async (request, reply) => {
    const answer = await api(request).get<S['SandboxScenarioList']>('/_sandbox/scenarios');
    if (isError(answer)) return refused(request, reply, '/console/scenarios', answer);
    return show(request, reply, 'Scenarios', '/console/scenarios', scenariosBody(answer.body, request.consoleSession!));
  });

  app.post('/console/scenarios/run', hide, async (request, reply) => {
    const form = request.body as Form;
    const [list, run] = await Promise.all([
      api(request).get<S['SandboxScenarioList']>('/_sandbox/scenarios'),
      api(request).post<S['SandboxScenarioRunResult']>('/_sandbox/scenarios/run', {
        name: first(form.name),
        isolate: first(form.isolate) === 'true',
      }),
    ]);
    if (isError(list)) return refused(request, reply, '/console/scenarios', list);
    if (isError(run)) return refused(request, reply, '/console/scenarios', run);
    return show(request, reply, 'Scenarios', '/console/scenarios', scenariosBody(list.body, request.consoleSession!, run.body));
  });
}
