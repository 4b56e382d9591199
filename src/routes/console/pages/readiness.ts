/**
 * The console's readiness page: the sandbox's go-live report (GET /_sandbox/report,
 * docs/readiness.md) for a person. The checklist with its verdicts, a coverage grid (operations ×
 * status classes) and the lifecycles drawn as inline SVG (no script), every cell and piece of
 * evidence a link to the journal entry behind it, and a button that runs check-receiver against
 * the registered webhook.
 */
import type { FastifyInstance } from 'fastify';
import { html, type RawHtml } from '../../hosted/layout.js';
import { isError } from '../api.js';
import type { ConsoleKit } from '../kit.js';
import { actionButton } from '../layout.js';
import type { ConsoleSession } from '../session.js';
import { badge, type S, table } from '../views.js';

type Report = S['SandboxReadinessReport'];
type Operation = Report['operations'][number];
type States = Report['lifecycles']['payments'];

const CLASSES = ['2xx', '4xx', '5xx'] as const;
const entryLink = (id: number) => `/console/requests/${id}`;
const evidenceLinks = (ids: readonly number[]): RawHtml =>
  html`${ids.map((id, i) => html`${i ? ' ' : ''}<a href="${entryLink(id)}">#${id}</a>`)}`;

/** The answers of one status class: how many, and the newest entry behind them. */
function classCell(o: Operation, cls: (typeof CLASSES)[number]): { count: number; newest: number | undefined } {
  let count = 0;
  let newest: number | undefined;
  for (const [status, n] of Object.entries(o.statuses)) {
    if (status[0] !== cls[0]) continue;
    count += n;
    const id = o.evidenceByStatus[status]?.[0];
    if (id !== undefined && (newest === undefined || id > newest)) newest = id;
  }
  return { count, newest };
}

const ROW = 22;
const LABEL_W = 260;
const CELL_W = 70;

/** Operations × status classes: a filled cell was met (a link to its newest entry), an empty one not yet. */
export function coverageGrid(ops: readonly Operation[]): RawHtml {
  const height = ROW * (ops.length + 1) + 4;
  const width = LABEL_W + CELL_W * CLASSES.length + 4;
  const header = CLASSES.map(
    (c, i) => html`<text x="${LABEL_W + CELL_W * i + CELL_W / 2}" y="${ROW - 6}" text-anchor="middle" class="head">${c}</text>`,
  );
  const rows = ops.map((o, r) => {
    const y = ROW * (r + 1);
    const cells = CLASSES.map((cls, i) => {
      const { count, newest } = classCell(o, cls);
      const x = LABEL_W + CELL_W * i;
      const tone = count === 0 ? 'none' : cls === '2xx' ? 'ok' : 'seen';
      const cell = html`<rect x="${x + 2}" y="${y + 2}" width="${CELL_W - 4}" height="${ROW - 4}" rx="3" class="${tone}"><title>${o.operationId} ${cls}: ${count}</title></rect><text x="${x + CELL_W / 2}" y="${y + ROW - 7}" text-anchor="middle">${count || '–'}</text>`;
      return newest === undefined ? cell : html`<a href="${entryLink(newest)}" data-testid="cell-${o.operationId}-${cls}">${cell}</a>`;
    });
    return html`<text x="4" y="${y + ROW - 7}" class="${o.called ? '' : 'unseen'}">${o.operationId}</text>${cells}`;
  });
  return html`<svg role="img" aria-labelledby="coverage-title" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" class="readiness-svg" data-testid="coverage-grid"><title id="coverage-title">Operations by status class</title>${header}${rows}</svg>`;
}

/** One lifecycle's states as a row of boxes: reached (with its count) or not. */
export function lifecyclePicture(lifecycles: Report['lifecycles']): RawHtml {
  const rowsOf: [string, States][] = [
    ['payments', lifecycles.payments],
    ['failure reasons', lifecycles.failureReasons],
    ['merchants', lifecycles.merchants],
    ['consents', lifecycles.consents],
  ];
  const events: States = {
    reached: Object.fromEntries(lifecycles.events.filter((e) => e.acknowledged > 0).map((e) => [e.event, e.acknowledged])),
    unreached: lifecycles.events.filter((e) => e.acknowledged === 0).map((e) => e.event),
  };
  rowsOf.push(['events acknowledged', events]);
  const BOX = 150;
  const widest = Math.max(...rowsOf.map(([, s]) => Object.keys(s.reached).length + s.unreached.length));
  const width = 140 + BOX * widest;
  const height = 34 * rowsOf.length + 4;
  const rows = rowsOf.map(([name, s], r) => {
    const y = 34 * r + 4;
    const states = [...Object.entries(s.reached).map(([k, n]) => [k, n] as const), ...s.unreached.map((k) => [k, 0] as const)];
    const boxes = states.map(([state, n], i) => {
      const x = 140 + BOX * i;
      return html`<rect x="${x}" y="${y}" width="${BOX - 8}" height="26" rx="13" class="${n > 0 ? 'ok' : 'none'}"><title>${name}: ${state} ${n}</title></rect><text x="${x + (BOX - 8) / 2}" y="${y + 17}" text-anchor="middle">${state.replace(/_/g, ' ')}${n > 0 ? ` ${n}` : ''}</text>`;
    });
    return html`<text x="4" y="${y + 17}" class="head">${name}</text>${boxes}`;
  });
  return html`<svg role="img" aria-labelledby="lifecycle-title" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" class="readiness-svg" data-testid="lifecycle-picture"><title id="lifecycle-title">States and events reached</title>${rows}</svg>`;
}

export function readinessBody(r: Report, session: ConsoleSession): RawHtml {
  const called = r.operations.filter((o) => o.called).length;
  return html`<section class="card"><h2>Verdict: <span data-testid="verdict">${badge(r.verdict === 'met' ? 'passed' : 'failed')}</span> ${r.verdict}</h2>
<p class="muted">From this sandbox's journal (${r.journal.entries} entries${r.journal.truncated ? ', older ones dropped by its bounds' : ''}), deliveries and check-receiver runs; checklist: ${r.checklistSource}. The same report: <code>GET /_sandbox/report</code>, <code>obsim report</code>.</p>
${table(
  'Checklist',
  ['Item', 'Status', 'Because', 'Evidence'],
  r.checklist.map((i) => [
    i.title,
    badge(i.status === 'met' ? 'passed' : i.status === 'unmet' ? 'failed' : 'not applicable'),
    i.because,
    evidenceLinks(i.evidence),
  ]),
)}
${actionButton(session, '/console/readiness/receiver-check', 'Check the registered receiver', { back: '/console/readiness', tone: 'secondary' })}
</section>
<section class="card"><h2>Smells</h2>${table(
    'Smells',
    ['Code', 'What', 'Evidence'],
    r.smells.map((s) => [html`<code>${s.code}</code>`, s.message, evidenceLinks(s.evidence)]),
    'None found.',
  )}</section>
<section class="card"><h2>Coverage: ${called} of ${r.operations.length} operations called</h2>${coverageGrid(r.operations)}
<p class="muted">Each filled cell links to the newest request answered in that class.</p></section>
<section class="card"><h2>Lifecycles</h2>${lifecyclePicture(r.lifecycles)}</section>`;
}

export function readinessRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { hide, api, show, refused, act } = kit;
  app.get('/console/readiness', hide, async (request, reply) => {
    const answer = await api(request).get<Report>('/_sandbox/report');
    if (isError(answer)) return refused(request, reply, '/console/readiness', answer);
    return show(request, reply, 'Readiness', '/console/readiness', readinessBody(answer.body, request.consoleSession!));
  });

  app.post('/console/readiness/receiver-check', hide, async (request, reply) =>
    act(
      request,
      reply,
      () => api(request).post<S['SandboxReceiverCheck']>('/_sandbox/receiver-checks', {}),
      (run) => ({
        text: `check-receiver against ${run.url}: ${run.verdict} (${run.passed} passed, ${run.failed} failed).`,
        to: '/console/readiness',
      }),
      '/console/readiness',
    ),
  );
}
