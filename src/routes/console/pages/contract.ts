/**
 * The console's contract page (docs/console.md, docs/contract-versions.md): the versions this obsim
 * serves in a picker (from, to), and beside it the changelog between the two, each change with its
 * verdict and pointers, and what of it this sandbox's own traffic touched, with the journal entries
 * behind each touched change. Everything is read from the public API (/_sandbox/contract/*).
 */
import type { FastifyInstance } from 'fastify';
import { html, type RawHtml } from '../../hosted/layout.js';
import { isError } from '../api.js';
import { first, type ConsoleKit } from '../kit.js';
import { badge, type S, table } from '../views.js';

type Versions = S['ContractVersionList'];
type Changelog = S['ContractChangelog'];
type Impact = S['ContractImpact'];

const verdict = (breaking: boolean): RawHtml => badge(breaking ? 'breaking' : 'compatible');
const pointer = (p: string | undefined): RawHtml => (p === undefined ? html`<span class="muted">—</span>` : html`<code>${p}</code>`);

function picker(versions: Versions['items'], from: string, to: string): RawHtml {
  const options = (selected: string) =>
    versions.map((v) => html`<option value="${v.name}"${v.name === selected ? html` selected` : ''}>${v.name}</option>`);
  return html`<section class="card" aria-labelledby="picker-h"><h2 id="picker-h">Versions</h2>
<form method="get" action="/console/contract" class="filters" data-testid="version-picker">
<label>From<select name="from" id="from">${options(from)}</select></label>
<label>To<select name="to" id="to">${options(to)}</select></label>
<button type="submit" id="compare">Compare</button>
</form>
${table(
  'The versions this obsim serves',
  ['Version', 'Title', 'Document'],
  versions.map((v) => [
    html`<code>${v.name}</code>`,
    v.title,
    html`<a href="/docs/?urls.primaryName=${encodeURIComponent(v.name)}">${v.document}</a>`,
  ]),
)}</section>`;
}

function changelogCard(c: Changelog): RawHtml {
  return html`<section class="card" aria-labelledby="changelog-h" data-testid="changelog"><h2 id="changelog-h">Changes from ${c.from} to ${c.to}</h2>
<p data-testid="changelog-summary">${c.summary.changes} changes, ${c.summary.breaking} breaking a client.</p>
${table(
  `Changes from ${c.from} to ${c.to}`,
  ['Verdict', 'Change', 'Rule', `In ${c.from}`, `In ${c.to}`],
  c.changes.map((x) => [verdict(x.breaking), x.description, html`<code>${x.rule}</code>`, pointer(x.fromPointer), pointer(x.toPointer)]),
  'The two versions are the same.',
)}</section>`;
}

function impactCard(i: Impact): RawHtml {
  const evidence = (x: Impact['touched'][number]) => {
    const e = x.evidence.entries;
    if (e)
      return html`${e.first.map((id, n) => html`${n ? ' ' : ''}<a href="/console/requests/${id}">#${id}</a>`)}${e.count > e.first.length ? ` (${e.count} in all)` : ''}`;
    const d = x.evidence.deliveries!;
    return html`deliveries ${d.first.join(', ')}${d.count > d.first.length ? ` (${d.count} in all)` : ''}`;
  };
  return html`<section class="card" aria-labelledby="impact-h" data-testid="impact"><h2 id="impact-h">What upgrading to ${i.to} changes for this sandbox</h2>
<p data-testid="impact-verdict">${badge(i.verdict === 'breaking' ? 'breaking' : 'clear')} ${i.breaking} of the ${i.touched.length} changes its traffic touched break a client; ${i.untouched.count} other changes touch nothing it did (${i.traffic.entries} journal entries and ${i.traffic.deliveries} deliveries read).</p>
${table(
  'Changes this sandbox touched',
  ['Verdict', 'Change', 'Touched by'],
  i.touched.map((x) => [verdict(x.breaking), x.description, evidence(x)]),
  'Nothing this sandbox did is touched.',
)}</section>`;
}

export function contractRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { hide, api, show, refused, query } = kit;
  app.get('/console/contract', hide, async (request, reply) => {
    const versions = await api(request).get<Versions>('/_sandbox/contract/versions');
    if (isError(versions)) return refused(request, reply, '/console/contract', versions);
    const items = versions.body.items;
    const q = query(request);
    // from the sandbox's own version, to the newest: what an upgrade would change
    const overview = await api(request).get<S['SandboxOverview']>('/_sandbox/overview');
    const pinned = isError(overview) ? undefined : overview.body.contractVersion;
    const from = first(q.from) ?? pinned ?? 'base';
    const to = first(q.to) ?? items.at(-1)!.name;
    const params = new URLSearchParams({ from, to }).toString();
    const [changelog, impact] = await Promise.all([
      api(request).get<Changelog>(`/_sandbox/contract/changelog?${params}`),
      api(request).get<Impact>(`/_sandbox/contract/impact?${new URLSearchParams({ to }).toString()}`),
    ]);
    if (isError(changelog)) return refused(request, reply, '/console/contract', changelog);
    const body = html`<div class="grid">${picker(items, from, to)}${changelogCard(changelog.body)}</div>
${isError(impact) ? html`<p class="notice bad">${impact.body.message}</p>` : impactCard(impact.body)}`;
    return show(request, reply, 'Contract', '/console/contract', body);
  });
}
