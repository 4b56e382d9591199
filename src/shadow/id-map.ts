/**
 * The shadow's id map (docs/drift.md, "The id map"): which obsim id stands for which upstream id.
 * Learned by walking the two answers to the same request side by side: wherever both hold an id
 * (merchantId, clientId, paymentId, requestId, a webhook's id, a token) at the same place, the
 * upstream's value stands for obsim's; links learn the path segments in which they differ. Later
 * requests are translated with it before they are replayed into obsim: path segments, query
 * values, ids in the JSON body, and the bearer token.
 */
import { isIdKey } from '../domain/drift.js';

const URL_KEY = /(Url|url|Link|link)$/;

export class IdMap {
  private readonly toObsim = new Map<string, string>();

  get size(): number {
    return this.toObsim.size;
  }

  /** The obsim value an upstream id stands for. */
  mapped = (upstream: string): string | undefined => this.toObsim.get(upstream);

  /** Learn from two answers to one request (both 2xx). */
  learn(upstream: unknown, obsim: unknown, key = ''): void {
    if (Array.isArray(upstream) && Array.isArray(obsim)) {
      // two lists in the same order (the same flow made them): item by item
      const n = Math.min(upstream.length, obsim.length);
      for (let i = 0; i < n; i++) this.learn(upstream[i], obsim[i], key);
      return;
    }
    if (isObject(upstream) && isObject(obsim)) {
      for (const k of Object.keys(upstream)) if (k in obsim) this.learn(upstream[k], obsim[k], k);
      return;
    }
    const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number';
    if (!scalar(upstream) || !scalar(obsim)) return;
    const u = String(upstream);
    const o = String(obsim);
    if (isIdKey(key)) this.add(u, o);
    else if (URL_KEY.test(key)) this.learnLink(u, o);
  }

  /** Two links to the same thing: the path segments (and query values) in which they differ. */
  private learnLink(upstream: string, obsim: string): void {
    let u: URL;
    let o: URL;
    try {
      u = new URL(upstream);
      o = new URL(obsim);
    } catch {
      return;
    }
    const us = u.pathname.split('/');
    const os = o.pathname.split('/');
    // aligned from the end: the upstream may mount its pages under a longer prefix
    for (let i = 1; i <= Math.min(us.length, os.length); i++) {
      const a = us[us.length - i];
      const b = os[os.length - i];
      if (a !== b && a !== '' && b !== '') this.add(decodeURIComponent(a), decodeURIComponent(b));
    }
    for (const [k, v] of u.searchParams) {
      const w = o.searchParams.get(k);
      if (w !== null && w !== v) this.add(v, w);
    }
  }

  /** An id equal on both sides (a bank fixture's account) is learned too: it is known, as itself. */
  private add(upstream: string, obsim: string): void {
    if (upstream === '' || this.toObsim.has(upstream)) return;
    this.toObsim.set(upstream, obsim);
  }

  /** A path with its query, each segment and query value the map knows translated. */
  translatePath(pathAndQuery: string): { path: string; unknown: string[] } {
    const [path, query] = splitOnce(pathAndQuery, '?');
    const unknown: string[] = [];
    const segments = path.split('/').map((segment) => {
      const raw = safeDecode(segment);
      const mapped = this.toObsim.get(raw);
      if (mapped !== undefined) return encodeURIComponent(mapped);
      if (looksLikeId(raw)) unknown.push(raw);
      return segment;
    });
    if (query === undefined) return { path: segments.join('/'), unknown };
    const params = new URLSearchParams(query);
    const out = new URLSearchParams();
    for (const [k, v] of params) out.append(k, (isIdKey(k) && this.toObsim.get(v)) || v);
    return { path: `${segments.join('/')}?${out.toString()}`, unknown };
  }

  /** A JSON body with the ids the map knows translated (a number stays a number). */
  translateBody(body: unknown, key = ''): unknown {
    if (Array.isArray(body)) return body.map((v) => this.translateBody(v, key));
    if (isObject(body)) return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, this.translateBody(v, k)]));
    if (!isIdKey(key) || (typeof body !== 'string' && typeof body !== 'number')) return body;
    const mapped = this.toObsim.get(String(body));
    if (mapped === undefined) return body;
    return typeof body === 'number' && /^-?\d+$/.test(mapped) ? Number(mapped) : mapped;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A path segment that names a resource rather than a collection: a number, or letters with digits. */
const looksLikeId = (segment: string): boolean => /^\d+$/.test(segment) || (/\d/.test(segment) && /^[\w.-]{6,}$/.test(segment));
