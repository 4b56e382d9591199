/** `request`: an HTTP call to the simulator, with expectations and captures. */
import { StepFailure, type RunContext } from '../context.js';
import { getPath } from '../template.js';
import type { TransportResponse } from '../transport.js';
import type { RequestStep } from '../types.js';
import type { StepHandler } from './types.js';

export function withQuery(path: string, query: Record<string, string | number | boolean> | undefined): string {
  if (!query || Object.keys(query).length === 0) return path;
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return `${path}${path.includes('?') ? '&' : '?'}${qs}`;
}

/** Set variables from a JSON value: `{ var: 'path.in.body' }`. */
export function applyCaptures(ctx: RunContext, capture: Record<string, string> | undefined, source: unknown, what: string): string[] {
  const set: string[] = [];
  for (const [name, path] of Object.entries(capture ?? {})) {
    const found = getPath(source, path);
    if (!found.ok) {
      throw new StepFailure(
        `capture ${name}: ${what} has no value at "${path}"\n  ${what}:\n    ${JSON.stringify(source, null, 2)?.split('\n').slice(0, 30).join('\n    ')}`,
      );
    }
    ctx.vars[name] = found.value;
    set.push(name);
  }
  return set;
}

/** A path as given, or a link obsim handed out (`${paymentUrl}`) as its path and query: the run's transport knows the host. */
function pathOf(path: string): string {
  if (!/^https?:\/\//i.test(path)) return path;
  const url = new URL(path);
  return `${url.pathname}${url.search}`;
}

export const request: StepHandler<RequestStep> = {
  label: (s) => `${s.method} ${s.path}`,
  async run(raw, ctx) {
    const step = ctx.render(raw);
    const headers: Record<string, string> = ctx.runHeader();
    const auth = step.auth ?? 'partner';
    if (auth === 'partner') Object.assign(headers, ctx.partnerHeaders());
    if (auth === 'bearer') {
      const token = step.token !== undefined ? step.token : ctx.render('${token}');
      headers.authorization = `Bearer ${String(token)}`;
    }
    let body: string | undefined;
    if (step.rawBody !== undefined) {
      body = step.rawBody;
      headers['content-type'] = 'application/json';
    } else if (step.form !== undefined) {
      body = new URLSearchParams(Object.entries(step.form).map(([k, v]): [string, string] => [k, String(v)])).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (step.body !== undefined) {
      body = JSON.stringify(step.body);
      headers['content-type'] = 'application/json';
    }
    for (const [k, v] of Object.entries(step.headers ?? {})) headers[k.toLowerCase()] = String(v);
    const path = withQuery(pathOf(step.path), step.query);
    const res: TransportResponse = await ctx.transport.request({ method: step.method, path, headers, body });
    const what = `${step.method} ${path}`;
    ctx.vars['last.status'] = res.status;
    ctx.vars['last.body'] = res.json;
    ctx.checkResponse(what, res, step.expect);
    const captured = applyCaptures(ctx, step.capture, res.json, 'the response body');
    return { detail: `${what} → ${res.status}${captured.length ? ` (captured ${captured.join(', ')})` : ''}` };
  },
};
