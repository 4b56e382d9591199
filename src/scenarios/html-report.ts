/**
 * `obsim scenario run --report FILE.html`: one self-contained HTML file per run (no external
 * script, style or font, so it opens from disk and a CI system can keep it as an artifact). Per
 * scenario a timeline on the sandbox clock: each step with the requests it sent and their answers
 * (bodies collapsible), the state changes they made, the webhooks matched with their signature
 * check, and a failed expectation's expected beside actual; a summary of counts and durations;
 * a filter box.
 */
import escapeHtml from 'escape-html';
import type { Exchange } from './context.js';
import type { ScenarioResult, StepResult } from './runner.js';

const STYLE = `
:root{--ok:#1a7f37;--bad:#cf222e;--mute:#57606a;--line:#d0d7de;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328}
body{margin:0 auto;max-width:72rem;padding:1rem 1.5rem}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.15rem;margin:0}
.summary{font-size:1.05rem}.pass{color:var(--ok);font-weight:600}.fail{color:var(--bad);font-weight:600}.muted{color:var(--mute)}
.controls{display:flex;gap:1rem;align-items:center;margin:1rem 0;position:sticky;top:0;background:#fff;padding:.5rem 0;border-bottom:1px solid var(--line)}
.controls input[type=search]{font:inherit;padding:.3rem .5rem;min-width:20rem}
table{border-collapse:collapse}td,th{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
section.scenario{border:1px solid var(--line);border-radius:6px;margin:1rem 0;padding:.75rem 1rem}
section.scenario.failed{border-left:6px solid var(--bad)}section.scenario.passed{border-left:6px solid var(--ok)}
ol.timeline{list-style:none;padding:0;margin:.75rem 0 0}
ol.timeline>li{display:grid;grid-template-columns:9rem 1fr;gap:.75rem;border-top:1px dashed var(--line);padding:.4rem 0}
.when{font-family:ui-monospace,monospace;font-size:.8rem;color:var(--mute)}
li.failed .label{color:var(--bad)}li.skipped{color:var(--mute)}
.mark{display:inline-block;width:1.2rem}
pre{background:#f6f8fa;padding:.5rem;overflow:auto;max-height:24rem;font-size:.8rem;margin:.25rem 0}
details>summary{cursor:pointer;font-family:ui-monospace,monospace;font-size:.85rem}
.state{font-size:.85rem}.sig-valid{color:var(--ok)}
table.diff td.expected{background:#dafbe1}table.diff td.actual{background:#ffebe9}
[hidden]{display:none!important}
`;

const SCRIPT = `
(function(){
  var box=document.getElementById('filter'),failed=document.getElementById('failed-only');
  function apply(){
    var q=box.value.trim().toLowerCase(),only=failed.checked,shown=0;
    document.querySelectorAll('section.scenario').forEach(function(s){
      var scenarioHit=!q||s.dataset.text.indexOf(q)>=0,stepHit=false;
      s.querySelectorAll('ol.timeline>li').forEach(function(li){
        var hit=!q||scenarioHit||li.dataset.text.indexOf(q)>=0;li.hidden=!hit;stepHit=stepHit||(q&&li.dataset.text.indexOf(q)>=0);
      });
      var show=(scenarioHit||stepHit)&&(!only||s.classList.contains('failed'));
      s.hidden=!show;var row=document.getElementById('row-'+s.id);if(row)row.hidden=!show;if(show)shown++;
    });
    document.getElementById('shown').textContent=shown;
  }
  box.addEventListener('input',apply);failed.addEventListener('change',apply);apply();
})();
`;

const e = (v: unknown): string => escapeHtml(String(v));
const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n} ms`);

function pretty(text: string | undefined): string {
  if (text === undefined || text === '') return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** `+5s`, `+8d 0h`: how far the sandbox clock is from where the scenario began. */
function offset(ms: number): string {
  if (ms < 1000) return `+${ms}ms`;
  const s = Math.round(ms / 1000);
  if (s < 120) return `+${s}s`;
  if (s < 7200) return `+${Math.round(s / 60)}m`;
  if (s < 172_800) return `+${Math.round(s / 3600)}h`;
  return `+${Math.round(s / 86_400)}d`;
}

/** What an answer says changed: a status and the one before it (`pending → paid`). */
function stateChange(x: Exchange): string | undefined {
  if (x.method === 'GET' || x.status >= 300) return undefined;
  try {
    const body = JSON.parse(x.responseBody) as Record<string, unknown>;
    const status = body.status ?? body.onboardingStatus;
    if (typeof status !== 'string') return undefined;
    return typeof body.previousStatus === 'string' ? `${body.previousStatus} → ${status}` : `now ${status}`;
  } catch {
    return undefined;
  }
}

function exchangeHtml(x: Exchange): string {
  const change = stateChange(x);
  return `<details class="exchange"><summary>${e(x.method)} ${e(x.path)} → ${x.status}${x.times > 1 ? ` (×${x.times})` : ''} <span class="muted">${x.durationMs} ms</span></summary>
${x.requestBody !== undefined ? `<div class="muted">Request body</div><pre>${e(pretty(x.requestBody))}</pre>` : ''}<div class="muted">Response body</div><pre>${e(pretty(x.responseBody))}</pre></details>${
    change ? `<div class="state">state: <strong>${e(change)}</strong></div>` : ''
  }`;
}

function stepHtml(step: StepResult, startMs: number | undefined): string {
  const atMs = step.at ? Date.parse(step.at) : undefined;
  const when = atMs !== undefined && startMs !== undefined ? `${offset(Math.max(0, atMs - startMs))}<br>${e(step.at)}` : '';
  const mark = step.status === 'passed' ? '✓' : step.status === 'failed' ? '✗' : '–';
  const paths = (step.exchanges ?? []).map((x) => `${x.method} ${x.path}`).join(' ');
  const text = `${step.label} ${step.kind} ${paths} ${step.webhook?.event ?? ''} ${step.status}`.toLowerCase();
  const webhook = step.webhook
    ? `<div class="webhook">webhook <strong>${e(step.webhook.event)}</strong> <code>${e(step.webhook.eventId ?? '')}</code> signature <span class="${step.webhook.signature === 'valid' ? 'sig-valid' : 'muted'}">${e(step.webhook.signature === 'valid' ? 'valid (recomputed)' : 'not checked')}</span>
<details><summary>delivered body</summary><pre>${e(pretty(step.webhook.body))}</pre></details></div>`
    : '';
  const diff = step.mismatches?.length
    ? `<table class="diff"><tr><th>at</th><th>expected</th><th>actual</th><th></th></tr>${step.mismatches
        .slice(0, 20)
        .map(
          (m) =>
            `<tr><td><code>${e(m.path)}</code></td><td class="expected"><code>${e(JSON.stringify(m.expected) ?? 'undefined')}</code></td><td class="actual"><code>${e(JSON.stringify(m.actual) ?? '(absent)')}</code></td><td>${e(m.reason)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const failure = step.status === 'failed' ? `<div class="failure">${diff}<pre class="message">${e(step.message ?? '')}</pre></div>` : '';
  return `<li class="step ${step.status}" data-text="${e(text)}"><div class="when">${when}</div><div>
<div class="label"><span class="mark">${mark}</span>${step.index}. ${e(step.label)} <span class="muted">(${ms(step.durationMs)})</span></div>
${step.detail ? `<div class="muted">${e(step.detail)}</div>` : ''}${webhook}${(step.exchanges ?? []).map(exchangeHtml).join('\n')}${failure}</div></li>`;
}

function scenarioHtml(r: ScenarioResult, i: number): string {
  const first = r.steps.find((s) => s.at !== undefined);
  const startMs = first?.at ? Date.parse(first.at) - first.durationMs : undefined;
  const text = `${r.name} ${r.file ?? ''} ${r.description ?? ''} ${r.passed ? 'passed' : 'failed'}`.toLowerCase();
  return `<section class="scenario ${r.passed ? 'passed' : 'failed'}" id="s${i}" data-text="${e(text)}">
<h2>${r.passed ? '<span class="pass">✓</span>' : '<span class="fail">✗</span>'} ${e(r.name)}</h2>
<p class="muted">${r.file ? `${e(r.file)} · ` : ''}${r.passed ? 'passed' : 'failed'} in ${ms(r.durationMs)} · started ${e(r.startedAt)}${r.runId ? ` · run ${e(r.runId)}` : ''}</p>
${r.description ? `<p>${e(r.description)}</p>` : ''}${r.error ? `<pre class="message fail">${e(r.error)}</pre>` : ''}
<ol class="timeline">${r.steps.map((s) => stepHtml(s, startMs)).join('\n')}</ol></section>`;
}

export interface ReportMeta {
  target: string;
  durationMs: number;
  generatedAt: string;
}

export function htmlReport(results: readonly ScenarioResult[], meta: ReportMeta): string {
  const passed = results.filter((r) => r.passed).length;
  const failed = results.length - passed;
  const title = `obsim scenarios: ${passed} passed, ${failed} failed`;
  const rows = results
    .map(
      (r, i) =>
        `<tr id="row-s${i}"><td><a href="#s${i}">${e(r.name)}</a></td><td class="${r.passed ? 'pass' : 'fail'}">${r.passed ? 'passed' : 'failed'}</td><td>${r.steps.filter((s) => s.status === 'passed').length}/${r.steps.length}</td><td>${ms(r.durationMs)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title><style>${STYLE}</style></head>
<body><header><h1>obsim scenario report</h1>
<p class="summary"><span class="pass">${passed} passed</span>, <span class="fail">${failed} failed</span> · ${results.length} scenario${results.length === 1 ? '' : 's'} in ${ms(meta.durationMs)} · against ${e(meta.target)} · ${e(meta.generatedAt)}</p>
<table class="overview"><thead><tr><th>Scenario</th><th>Result</th><th>Steps passed</th><th>Duration</th></tr></thead><tbody>
${rows}</tbody></table></header>
<div class="controls" role="search"><label>Filter <input type="search" id="filter" placeholder="scenario, step, path, event…" autocomplete="off"></label>
<label><input type="checkbox" id="failed-only"> failed only</label><span class="muted"><span id="shown">${results.length}</span> shown</span></div>
<main>${results.map(scenarioHtml).join('\n')}</main>
<script>${SCRIPT}</script></body></html>
`;
}
