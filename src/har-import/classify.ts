/**
 * What each HAR entry is to the importer, in the HAR's order:
 *
 * - `aborted`: it got no answer (status 0 or less, `_error`): skipped and reported;
 * - `page`: a request to a hosted link an earlier answer handed out (paymentUrl, onboardingUrl,
 *   authorizationUrl), on whatever host and in whatever layout: the payer's or merchant's visit;
 * - `api`: a request the served documents know (the provider's, then obsim's controls) by its
 *   method and path, whatever the host and whatever the base path before `/v1` or `/_sandbox`;
 *   also a request to the same API host the documents do not allow (an unknown path under `/v1`,
 *   a method the path does not take): imported and flagged;
 * - `left`: anything else (the hosted page's assets, fonts, analytics, CORS preflights), counted
 *   by host.
 */
import { idsHandedOut, tokenLike, type IdKind, type Operation, type Operations } from '../contracts/ids.js';
import type { ReadEntry } from './har.js';

export interface Link {
  /** The answer's field (`paymentUrl`): the scenario variable that captures it is named after it. */
  key: string;
  url: URL;
  /** The component of the link that is its token (matched in later requests), or undefined. */
  token: string | undefined;
  /** The thing the link is about: the id beside it in the answer (a payment's paymentId…). */
  resource: { kind: IdKind; value: string } | undefined;
  /** obsim's own page layout (`/pay/TOKEN`, `/onboarding/TOKEN`, `/consent/TOKEN`): replayed as it was. */
  obsimLayout: boolean;
}

export type Classified =
  | { kind: 'api'; entry: ReadEntry; op: Operation | undefined; path: string; flag?: string }
  | { kind: 'page'; entry: ReadEntry; link: Link }
  | { kind: 'aborted'; entry: ReadEntry; reason: string }
  | { kind: 'left'; entry: ReadEntry; reason: string };

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const API_ROOT = /^\/(v1|_sandbox)(\/|$)/;
const OBSIM_PAGE = /^\/(pay|onboarding|consent)\/[^/]+$/;
/** The kinds a hosted link is about, by the link's field. */
const LINK_RESOURCE: Record<string, IdKind> = { paymentUrl: 'payment', onboardingUrl: 'merchant', authorizationUrl: 'consentRequest' };

/** The path with the base before `/v1` or `/_sandbox` cut off (`/sandbox/api/v1/…` → `/v1/…`), or undefined. */
function apiPath(pathname: string): string | undefined {
  if (API_ROOT.test(pathname)) return pathname;
  const at = pathname.search(/\/(v1|_sandbox)(\/|$)/);
  return at > 0 ? pathname.slice(at) : undefined;
}

function matchOp(ops: Operations, method: string, pathname: string): { op?: Operation; path?: string; otherMethod?: boolean } {
  const path = apiPath(pathname);
  if (path === undefined) return {};
  const op = ops.match(method, path);
  if (op) return { op, path };
  return { path, otherMethod: OTHER_METHODS.some((m) => m !== method && ops.match(m, path) !== undefined) };
}

/** The links an answer hands out, with what each is about. */
export function linksOf(op: Operation, status: number, body: unknown): Link[] {
  const handed = idsHandedOut(op, status, body);
  const out: Link[] = [];
  for (const h of handed) {
    if (!h.link || typeof h.value !== 'string') continue;
    let url: URL;
    try {
      url = new URL(h.value);
    } catch {
      continue;
    }
    const aboutKind = LINK_RESOURCE[h.key];
    const about = handed.find((o) => !o.link && o.holder === h.holder && o.kind === aboutKind);
    const obsimLayout = OBSIM_PAGE.test(url.pathname);
    const segments = url.pathname.split('/').filter((s) => s !== '');
    const candidates = obsimLayout ? [segments.at(-1)!] : [...segments, ...url.searchParams.values()].filter(tokenLike);
    out.push({
      key: h.key,
      url,
      token: candidates.length === 1 ? decodeURIComponent(candidates[0]) : undefined,
      resource: about ? { kind: about.kind, value: String(about.value) } : undefined,
      obsimLayout,
    });
  }
  return out;
}

/** Links by their token, and by origin and path when they have none: found per entry without a scan. */
class Links {
  private readonly byToken = new Map<string, Link>();
  private readonly byPage = new Map<string, Link>();

  add(link: Link): void {
    if (link.token !== undefined) this.byToken.set(link.token, link);
    else this.byPage.set(`${link.url.origin}${link.url.pathname}`, link);
  }

  /** The link whose page `entry` requests (its token in the path or the query, or its very page). */
  of(entry: ReadEntry): Link | undefined {
    const u = entry.url;
    for (const part of [...u.pathname.split('/').map(safeDecode), ...u.searchParams.values()]) {
      const link = this.byToken.get(part);
      if (link) return link;
    }
    return this.byPage.get(`${u.origin}${u.pathname}`);
  }
}

export function classify(entries: ReadEntry[], ops: Operations): Classified[] {
  // the hosts that serve the API: a request there the documents do not allow is the partner's
  const apiHosts = new Set<string>();
  for (const e of entries) if (!e.aborted && matchOp(ops, e.method, e.url.pathname).op) apiHosts.add(e.url.host);
  const links = new Links();
  return entries.map((entry): Classified => {
    if (entry.aborted) return { kind: 'aborted', entry, reason: entry.aborted };
    const link = links.of(entry);
    if (link) return { kind: 'page', entry, link };
    if (entry.method === 'OPTIONS') return { kind: 'left', entry, reason: 'a CORS preflight (the browser’s, not the partner’s)' };
    const m = matchOp(ops, entry.method, entry.url.pathname);
    if (m.op) {
      for (const l of linksOf(m.op, entry.status, entry.responseBody)) links.add(l);
      return { kind: 'api', entry, op: m.op, path: m.path! };
    }
    if (m.path !== undefined && apiHosts.has(entry.url.host)) {
      const flag = m.otherMethod
        ? `the document does not allow ${entry.method} on ${m.path}`
        : `the document has no path ${m.path} (obsim answers 404)`;
      return { kind: 'api', entry, op: undefined, path: m.path, flag };
    }
    return { kind: 'left', entry, reason: `${entry.url.host}: not the provider’s API` };
  });
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
