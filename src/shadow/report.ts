/**
 * The drift report (docs/drift.md, "The report") and its renderings: JSON (the report itself),
 * JUnit XML (one test case per exchange and per webhook: a drift fails, an uncomparable one is
 * skipped with its reason), one self-contained HTML page (no scripts, no external assets: the flow
 * in order, each drift beside both answers), and HAR 1.2 of the exchanges as the partner saw them.
 */
import { create } from 'xmlbuilder2';
import type { Drift, Verdict } from '../domain/drift.js';
import { harLog, type HarLog } from '../domain/har.js';
import { journalHeaders, redactJson } from '../domain/journal.js';
import { html, raw, type RawHtml } from '../routes/hosted/layout.js';
import type { WebhookEntry } from './webhooks.js';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface ExchangeEntry {
  index: number;
  /** Wall clock, ISO 8601. */
  at: string;
  method: string;
  path: string;
  operationId: string | null;
  upstreamStatus: number;
  obsimStatus: number | null;
  verdict: Verdict;
  reason?: string;
  drifts: Drift[];
  /** How long the upstream took to answer the partner (ms). */
  upstreamMs: number;
  request: { headers: Record<string, string>; body: string };
  upstream: Answer;
  obsim: Answer | null;
  /** The path and query obsim was asked (the upstream's ids in obsim's terms), when the exchange was replayed. */
  replayedPath?: string;
}

/** Which side a HAR export shows: the upstream's answers, or obsim's to the same requests. */
export type HarSide = 'upstream' | 'obsim';

export type Counts = Record<Verdict, number>;

export interface DriftReport {
  upstream: string;
  /** The contract version obsim answered by (`--contract-version`; `base`: the provider's document): what `drift adopt` builds on. */
  contractVersion: string;
  startedAt: string;
  generatedAt: string;
  /** Whether webhooks are compared (they need --public-url), and why not. */
  webhooks: { compared: boolean; reason?: string };
  summary: {
    exchanges: Counts;
    webhooks: Counts & { waiting: number };
    /** Control calls (/_sandbox/…) and hosted-page forms: replayed so that obsim's state moves with the upstream's, not compared. */
    controls: number;
    /** Exchanges passed to the upstream but not replayed: the replay backlog was full (the partner sent faster than obsim replays). */
    notReplayed: number;
    /** List items compared by shape only: the account's earlier ones, made before the shadow watched. */
    preExisting: number;
    /** Deliveries to a receiver path the shadow did not hand out: refused, not forwarded. */
    refusedDeliveries: number;
    /** What the shadow keeps, in bytes, and what it did not keep because of it (oldest first). */
    budget: {
      maxBytes: number;
      keptBytes: number;
      idMapBytes: number;
      notKept: { exchanges: number; deliveries: number; idPairs: number; traceLinks: number };
    };
  };
  exchanges: Omit<ExchangeEntry, 'request' | 'upstream' | 'obsim' | 'upstreamMs'>[];
  webhookEntries: WebhookEntry[];
}

/** The report as JSON: `webhooks[]` is the list of webhook entries (the wire name). */
export function reportJson(report: DriftReport): object {
  const { webhookEntries, webhooks, ...rest } = report;
  return {
    ...rest,
    webhookComparison: webhooks,
    webhooks: webhookEntries.map(({ upstream, obsim, ...w }) => ({ ...w, ...sides(upstream, obsim) })),
  };
}

const sides = (upstream?: { body: string }, obsim?: { body: string }) => ({
  ...(upstream ? { upstreamBody: upstream.body } : {}),
  ...(obsim ? { obsimBody: obsim.body } : {}),
});

export function countVerdicts(items: readonly { verdict: Verdict }[]): Counts {
  const counts: Counts = { match: 0, drift: 0, uncomparable: 0 };
  for (const i of items) counts[i.verdict]++;
  return counts;
}

const describe = (d: Drift) =>
  `${d.kind}${d.detail ? ` (${d.detail})` : ''} at ${d.pointer || '(the answer)'}: upstream ${show(d.upstream)}, obsim ${show(d.obsim)}`;
const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));

/** JUnit XML: a suite of exchanges and a suite of webhooks. */
export function reportJunit(report: DriftReport): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', { name: `drift against ${report.upstream}` });
  const suite = (name: string, cases: { name: string; verdict: Verdict; reason?: string; drifts: Drift[] }[]) => {
    const counts = countVerdicts(cases);
    const s = root.ele('testsuite', { name, tests: cases.length, failures: counts.drift, skipped: counts.uncomparable, errors: 0 });
    for (const c of cases) {
      const tc = s.ele('testcase', { classname: `drift.${name}`, name: c.name });
      if (c.verdict === 'drift')
        tc.ele('failure', { message: `${c.drifts.length} drift(s)`, type: 'drift' }).txt(c.drifts.map(describe).join('\n'));
      else if (c.verdict === 'uncomparable') tc.ele('skipped', { message: c.reason ?? 'uncomparable' });
    }
  };
  suite(
    'exchanges',
    report.exchanges.map((e) => ({ ...e, name: `#${e.index} ${e.method} ${e.path}${e.operationId ? ` (${e.operationId})` : ''}` })),
  );
  suite(
    'webhooks',
    report.webhookEntries.map((w, i) => ({ ...w, name: `#${i + 1} ${w.event}${w.exchange !== null ? ` (exchange #${w.exchange})` : ''}` })),
  );
  return root.end({ prettyPrint: true });
}

const CSS = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem; color: #1a1f36; }
h1 { font-size: 1.4rem; } table { border-collapse: collapse; } td, th { border: 1px solid #d5d9e2; padding: .25rem .5rem; text-align: left; vertical-align: top; }
.match { color: #1d7a3e; } .drift { color: #b3261e; font-weight: 600; } .uncomparable { color: #8a6100; }
ol.flow > li { margin: .5rem 0; } details { margin: .25rem 0 .25rem 1rem; } pre { background: #f5f7fa; padding: .5rem; overflow: auto; max-height: 20rem; margin: 0; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: .5rem; } code { font-size: 13px; }
`;

function driftTable(drifts: readonly Drift[]): RawHtml {
  if (drifts.length === 0) return raw('');
  return html`<table><tr><th>kind</th><th>pointer</th><th>upstream</th><th>obsim</th></tr>${drifts.map(
    (d) =>
      html`<tr><td>${d.kind}${d.detail ? ` (${d.detail})` : ''}</td><td><code>${d.pointer || '(the answer)'}</code></td><td><code>${show(d.upstream)}</code></td><td><code>${show(d.obsim)}</code></td></tr>`,
  )}</table>`;
}

const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

/** One self-contained page: the summary, then the flow in order, each step with its drifts and both answers. */
export function reportHtml(report: DriftReport, full: { exchanges: readonly ExchangeEntry[] }): string {
  const byIndex = new Map(full.exchanges.map((e) => [e.index, e]));
  const { exchanges: ex, webhooks: wh, controls } = report.summary;
  const flow: { at: number; item: RawHtml }[] = [];
  for (const e of report.exchanges) {
    const f = byIndex.get(e.index);
    flow.push({
      at: Date.parse(e.at),
      item: html`<li id="exchange-${e.index}"><span class="${e.verdict}">${e.verdict}</span> <code>${e.method} ${e.path}</code>
${e.operationId ? html` (${e.operationId})` : ''}: upstream ${e.upstreamStatus}, obsim ${e.obsimStatus ?? '—'}${e.reason ? html` — ${e.reason}` : ''}
${driftTable(e.drifts)}${
        f
          ? html`<details><summary>both answers</summary><div class="pair"><div><b>upstream</b><pre>${pretty(f.upstream.text)}</pre></div><div><b>obsim</b><pre>${pretty(f.obsim?.text ?? '')}</pre></div></div></details>`
          : ''
      }</li>`,
    });
  }
  report.webhookEntries.forEach((w, i) => {
    flow.push({
      at: w.obsim?.at ?? w.upstream?.at ?? 0,
      item: html`<li id="webhook-${i + 1}"><span class="${w.verdict}">${w.verdict}</span> webhook <code>${w.event}</code>${
        w.exchange !== null ? html` caused by <a href="#exchange-${w.exchange}">exchange #${w.exchange}</a>` : ''
      }${w.reason ? html` — ${w.reason}` : ''}${driftTable(w.drifts)}<details><summary>both deliveries</summary><div class="pair"><div><b>upstream</b><pre>${pretty(
        w.upstream?.body ?? '(none)',
      )}</pre></div><div><b>obsim</b><pre>${pretty(w.obsim?.body ?? '(none)')}</pre></div></div></details></li>`,
    });
  });
  flow.sort((a, b) => a.at - b.at);
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><title>obsim drift report: ${report.upstream}</title><style>${raw(CSS)}</style></head><body>
<h1>Drift against ${report.upstream}</h1>
<p>Shadowed since ${report.startedAt}; report of ${report.generatedAt}; obsim answering by contract version ${report.contractVersion}.</p>
<table><tr><th></th><th>match</th><th>drift</th><th>uncomparable</th></tr>
<tr><th>exchanges</th><td class="match">${ex.match}</td><td class="drift">${ex.drift}</td><td class="uncomparable">${ex.uncomparable}</td></tr>
<tr><th>webhooks</th><td class="match">${wh.match}</td><td class="drift">${wh.drift}</td><td class="uncomparable">${wh.uncomparable}</td></tr></table>
<p>${controls} control call(s) replayed, not compared.${report.summary.notReplayed ? ` ${report.summary.notReplayed} exchange(s) not replayed: the replay backlog was full.` : ''}${wh.waiting ? ` ${wh.waiting} delivery(ies) still waiting for their pair.` : ''}${
    report.webhooks.compared ? '' : ` Webhooks not compared: ${report.webhooks.reason ?? ''}`
  }</p>
<h2>The flow</h2><ol class="flow">${flow.map((f) => f.item)}</ol></body></html>`}`;
}

/** HAR 1.2 of the exchanges, as the partner saw them (its request, the upstream's answer), credentials redacted. */
/**
 * The exchanges as HAR 1.2, one side: the upstream's answers at the upstream's URLs, or obsim's
 * answers to the same requests at the paths the replay asked (`http://obsim.shadow/…`); an exchange
 * obsim was not asked is left out of obsim's side. Both hold what was kept: secrets redacted.
 */
export function exchangesHar(upstream: string, exchanges: readonly ExchangeEntry[], version: string, side: HarSide = 'upstream'): HarLog {
  const shown = side === 'obsim' ? exchanges.filter((e) => e.obsim !== null) : exchanges;
  return harLog(
    { name: `obsim shadow (${side === 'obsim' ? "obsim's replays" : "the upstream's answers"})`, version },
    shown.map((e) => {
      const answer = side === 'obsim' ? e.obsim! : e.upstream;
      return {
        startedDateTime: e.at,
        timeMs: side === 'obsim' ? 0 : e.upstreamMs,
        method: e.method,
        url: side === 'obsim' ? new URL(e.replayedPath ?? e.path, 'http://obsim.shadow').toString() : new URL(e.path, upstream).toString(),
        requestHeaders: journalHeaders(e.request.headers),
        ...(e.request.body
          ? { requestBody: { mimeType: e.request.headers['content-type'] ?? 'application/octet-stream', text: redactBody(e.request.body) } }
          : {}),
        status: answer.status,
        responseHeaders: answer.headers,
        responseBody: { mimeType: answer.headers['content-type'] ?? 'x-unknown', text: redactBody(answer.text) },
        comment: `verdict: ${e.verdict}${e.reason ? ` (${e.reason})` : ''}`,
      };
    }),
  );
}

/** Credentials in JSON bodies (a webhook's secret, a token) redacted as the journal redacts them. */
function redactBody(text: string): string {
  try {
    return JSON.stringify(redactJson(JSON.parse(text)));
  } catch {
    return text;
  }
}
