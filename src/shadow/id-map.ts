/**
 * The shadow's id map (docs/drift.md, "The id map"): which obsim id stands for which upstream id,
 * per kind of id, learned only where the contract places an id.
 *
 * - Where: the id fields of an operation's documented answer (merchantId, clientId, paymentId, a
 *   consent's requestId and consentId, a webhook's id, accountId, transactionId, the token of
 *   generate-token, onboardingToken, a delivery's id and eventId), read by walking the answer with
 *   its schema (./contract.ts), and the token inside a hosted link (paymentUrl, onboardingUrl,
 *   authorizationUrl). Nothing else: a path segment that is not an id of the contract is never
 *   learned, and never rewritten.
 * - Per kind: merchant 5 and payment 5 are two ids. Each kind is one-to-one.
 * - Checked before learned: a pair that contradicts what is known (the upstream id already stands
 *   for another obsim id, or the obsim id for another upstream id) is a conflict, reported with
 *   both values by the caller, and not learned.
 * - Translated back into obsim's terms where the contract places an id in a request: path
 *   parameters of the operation's template, id fields of its body and query, the bearer token, and
 *   a hosted link's token in whatever layout the upstream gave it.
 */

import { tokenLike, type IdKind } from '../contracts/ids.js';

export type { IdKind };

export type Learned = { ok: true; fresh: boolean } | { ok: false; conflict: string };

/** Where a hosted link keeps its token: a path segment, or a query parameter. */
interface Layout {
  kind: IdKind;
  /** The link's path segments, the token's one as null. */
  segments: (string | null)[];
  /** The query parameter holding the token (the path holds none then). */
  queryKey?: string;
}

export class IdMap {
  private readonly toObsim = new Map<string, string>();
  private readonly toUpstream = new Map<string, string>();
  private readonly upstreamLayouts: Layout[] = [];
  private readonly obsimLayouts = new Map<IdKind, Layout>();
  /** Pairs not learned because the map was full (its budget), and the bytes it holds. */
  refused = 0;
  bytes = 0;

  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {}

  get size(): number {
    return this.toObsim.size;
  }

  /** The obsim id the upstream id `value` of `kind` stands for. */
  mapped(kind: IdKind, value: string): string | undefined {
    return this.toObsim.get(`${kind} ${value}`);
  }

  /** Whether obsim's `value` of `kind` was learned (made through the shadow). */
  knowsObsim(kind: IdKind, value: string): boolean {
    return this.toUpstream.has(`${kind} ${value}`);
  }

  /** Whether the pair agrees with what is known, without learning it. */
  check(kind: IdKind, upstream: string, obsim: string): Learned {
    const o = this.toObsim.get(`${kind} ${upstream}`);
    const u = this.toUpstream.get(`${kind} ${obsim}`);
    if (o === undefined && u === undefined) return { ok: true, fresh: true };
    if (o === obsim && u === upstream) return { ok: true, fresh: false };
    if (o !== undefined && o !== obsim)
      return { ok: false, conflict: `${kind} ${upstream} stands for obsim's ${o}, this answer pairs it with ${obsim}` };
    return { ok: false, conflict: `obsim's ${kind} ${obsim} stands for the upstream's ${u}, this answer pairs it with ${upstream}` };
  }

  /** Learn the pair if it agrees with what is known; what it found. */
  learn(kind: IdKind, upstream: string, obsim: string): Learned {
    const checked = this.check(kind, upstream, obsim);
    if (!checked.ok || !checked.fresh) return checked;
    const cost = 2 * (kind.length + upstream.length + obsim.length) + 64;
    if (this.bytes + cost > this.maxBytes) {
      this.refused++;
      return checked;
    }
    this.bytes += cost;
    this.toObsim.set(`${kind} ${upstream}`, obsim);
    this.toUpstream.set(`${kind} ${obsim}`, upstream);
    return checked;
  }

  /**
   * Two hosted links to the same thing: obsim's keeps its token last in its path (its own layout);
   * the upstream's anywhere, found as the one component that can be a token. Learns the token pair
   * and the upstream's layout, so a request to that layout reaches obsim's page.
   */
  learnLink(kind: IdKind, upstreamUrl: string, obsimUrl: string): Learned | undefined {
    const u = parseLink(upstreamUrl);
    const o = parseLink(obsimUrl);
    if (!u || !o || o.segments.length === 0) return undefined;
    const obsimToken = o.segments.at(-1)!;
    const candidates: { token: string; layout: Layout }[] = [];
    u.segments.forEach((s, i) => {
      if (tokenLike(s)) candidates.push({ token: s, layout: { kind, segments: u.segments.map((x, j) => (j === i ? null : x)) } });
    });
    for (const [key, value] of u.query)
      if (tokenLike(value)) candidates.push({ token: value, layout: { kind, segments: u.segments, queryKey: key } });
    // one component only: a link with several token-like parts teaches nothing rather than a guess
    if (candidates.length !== 1) return undefined;
    const [{ token, layout }] = candidates;
    const learned = this.learn(kind, token, obsimToken);
    if (learned.ok && !this.upstreamLayouts.some((l) => sameLayout(l, layout))) this.upstreamLayouts.push(layout);
    if (!this.obsimLayouts.has(kind))
      this.obsimLayouts.set(kind, { kind, segments: o.segments.map((s, i, all) => (i === all.length - 1 ? null : s)) });
    return learned;
  }

  /**
   * A request to a hosted page in the upstream's link layout, as the same page of obsim: its
   * path with obsim's token, or undefined when the path is no learned layout.
   */
  hostedPath(pathAndQuery: string): { path: string; kind: IdKind; token: string; mapped: string | undefined } | undefined {
    const link = parseLink(`http://h${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`);
    if (!link) return undefined;
    for (const layout of this.upstreamLayouts) {
      if (layout.segments.length !== link.segments.length) continue;
      let token: string | undefined;
      let same = true;
      layout.segments.forEach((s, i) => {
        if (s === null) token = link.segments[i];
        else if (s !== link.segments[i]) same = false;
      });
      if (!same) continue;
      if (layout.queryKey !== undefined) token = link.query.find(([k]) => k === layout.queryKey)?.[1];
      if (token === undefined) continue;
      const target = this.obsimLayouts.get(layout.kind);
      const mapped = this.mapped(layout.kind, token);
      if (!target) continue;
      const path = `/${target.segments.map((s) => encodeURIComponent(s ?? mapped ?? token!)).join('/')}`;
      return { path, kind: layout.kind, token, mapped };
    }
    return undefined;
  }
}

function parseLink(raw: string): { segments: string[]; query: [string, string][] } | undefined {
  try {
    const url = new URL(raw);
    return {
      segments: url.pathname
        .split('/')
        .filter((s) => s !== '')
        .map((s) => decodeURIComponent(s)),
      query: [...url.searchParams],
    };
  } catch {
    return undefined;
  }
}

const sameLayout = (a: Layout, b: Layout) =>
  a.kind === b.kind &&
  a.queryKey === b.queryKey &&
  a.segments.length === b.segments.length &&
  a.segments.every((s, i) => s === b.segments[i]);
