/**
 * A foreign provider double for the shadow's tests (docs/drift.md, "Tested against a provider
 * that is not obsim"): a small, separate implementation of the provider's document — the partner
 * API, AIS, webhooks, the hosted pages — and of the controls the shipped scenarios drive (clock,
 * actions, the delivery log, banks). It shares no code with obsim's routes, stores or views.
 *
 * Where the document leaves a choice open it chooses differently from obsim: its own id values
 * and ranges (./state.ts), webhook and event ids of another shape, hosted links on another host
 * and path with the token in a query parameter, a Set-Cookie (two, in fact) on every answer, gzip
 * when asked. A seeded drift (`drifts`) changes one answer the way a provider might.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { aisRoutes } from './ais.js';
import { controlRoutes } from './controls.js';
import { hostedRoutes } from './pages.js';
import { partnerRoutes } from './partner.js';
import { fail, type Res, type Route, type Req } from './http.js';
import { hex, sign, uuid, World, type Delivery, type Hook, type Partner } from './state.js';

export interface ForeignProvider {
  url: string;
  partner: Partner;
  world: World;
  /** How many answers each seeded drift changed. */
  applied: Map<string, number>;
  close(): Promise<void>;
}

/** A drift a test seeds: one answer changed the way a provider might (its body, its status, or both). */
export interface SeededDrift {
  id: string;
  /** `METHOD /path` pattern (params as :name). */
  route: string;
  change?(json: Record<string, unknown>): void;
  /** The status the answer has instead (of a successful one). */
  status?: number;
  /** Headers the answer carries besides its own. */
  headers?: Record<string, string>;
}

export async function startForeignProvider(
  options: {
    drifts?: SeededDrift[];
    /** Without obsim's clock controls (`/_sandbox/clock…` answer 404), as a real provider. */
    clockControls?: boolean;
  } = {},
): Promise<ForeignProvider> {
  const world = new World();
  const partner: Partner = { clientId: `double-partner-${hex(4)}`, clientSecret: `double-secret-${hex(16)}` };
  const applied = new Map<string, number>();

  /** A new delivery of `event`'s envelope to `hook`, signed with its secret, sent at once. */
  function post(hook: Hook, event: string, eventId: string, body: string): Delivery {
    const d: Delivery = {
      id: world.deliveryId(),
      eventId,
      event,
      hook,
      body,
      signature: sign(hook.secret, body),
      createdAt: world.now(),
      redeliveryOf: null,
      state: 'pending',
      statusCode: null,
    };
    deliver(d);
    return d;
  }

  /** The deliveries of `event` to every hook of `partnerId` that asked for it: one event id, one envelope. */
  function emit(partnerId: string, event: string, data: Record<string, unknown>): void {
    const body = JSON.stringify({ event, timestamp: world.iso(), data });
    const eventId = `event_${uuid()}`;
    for (const hook of world.hooks.values())
      if (hook.partner === partnerId && hook.events.includes(event)) post(hook, event, eventId, body);
  }
  function deliver(d: Delivery): void {
    world.deliveries.push(d);
    void request(d.hook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-id': d.eventId, 'x-webhook-signature': d.signature },
      body: d.body,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    }).then(
      async (res) => {
        await res.body.dump();
        d.statusCode = res.statusCode;
        d.state = res.statusCode < 300 ? 'delivered' : 'failed';
      },
      () => (d.state = 'failed'),
    );
  }
  const redeliver = (d: Delivery): Delivery => {
    const again: Delivery = {
      ...d,
      id: world.deliveryId(),
      createdAt: world.now(),
      redeliveryOf: d.id,
      state: 'pending',
      statusCode: null,
    };
    deliver(again);
    return again;
  };
  const sendTest = (hook: Hook) => {
    const body = JSON.stringify({
      event: 'webhook.test',
      timestamp: world.iso(),
      data: { webhookId: hook.id, message: 'A test delivery from the double provider.', timestamp: world.iso() },
    });
    return post(hook, 'webhook.test', `event_${uuid()}`, body);
  };

  const routes: Route[] = [
    ...partnerRoutes(world, emit, sendTest),
    ...aisRoutes(world),
    ...controlRoutes(world, emit, redeliver).filter((r) => options.clockControls !== false || !r.pattern.startsWith('/_sandbox/clock')),
    ...hostedRoutes(world, emit),
  ];
  const compiled = routes.map((r) => ({
    ...r,
    regex: new RegExp(`^${r.pattern.replace(/:([A-Za-z]+)/g, '(?<$1>[^/]+)')}$`),
  }));

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        world.fireDue();
        const url = new URL(req.url ?? '/', 'http://double');
        const raw = Buffer.concat(chunks).toString('utf8');
        const type = String(req.headers['content-type'] ?? '');
        let body: unknown;
        if (raw && type.includes('json')) {
          try {
            body = JSON.parse(raw);
          } catch {
            return send(req, res, fail(400, 'malformed_json', 'The request body is not valid JSON'));
          }
        }
        const form = type.includes('x-www-form-urlencoded') ? new URLSearchParams(raw) : new URLSearchParams();
        const method = req.method ?? 'GET';
        const found = compiled.find((r) => r.method === method && r.regex.test(url.pathname));
        if (!found) return send(req, res, fail(404, 'route_not_found', `No endpoint ${method} ${url.pathname}`));
        const params = Object.fromEntries(
          Object.entries(found.regex.exec(url.pathname)!.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]),
        );
        const r: Req = { method, path: url.pathname, query: url.searchParams, headers: req.headers, body, raw, form, params };
        // Prefer: code=… (the document's fault injection on the provider's operations), before anything else
        const prefer = /code=(\d{3})/.exec(String(req.headers.prefer ?? ''))?.[1];
        if (prefer && url.pathname.startsWith('/v1/') && Number(prefer) >= 400) {
          const status = Number(prefer);
          const forced = fail(status, 'forced_status', 'Status forced by the Prefer header');
          if (status === 429 || status === 503) forced.headers = { 'retry-after': '1' };
          return send(req, res, forced);
        }
        if (found.auth === 'partner') {
          const id = req.headers['x-partner-client-id'];
          const secret = req.headers['x-partner-client-secret'];
          if (id === undefined || secret === undefined)
            return send(
              req,
              res,
              fail(401, 'partner_credentials_missing', 'X-Partner-Client-Id and X-Partner-Client-Secret headers are required'),
            );
          if (id !== partner.clientId || secret !== partner.clientSecret)
            return send(req, res, fail(401, 'partner_credentials_invalid', 'The partner credentials are not valid'));
          r.partner = partner;
        }
        const answer = await found.handle(r);
        let json = answer.json;
        let status = answer.status;
        let headers = answer.headers;
        const routeName = `${method} ${found.pattern}`;
        for (const d of options.drifts ?? []) {
          if (d.route !== routeName || typeof json !== 'object' || json === null || answer.status >= 300) continue;
          json = structuredClone(json);
          d.change?.(json as Record<string, unknown>);
          if (d.status !== undefined) status = d.status;
          if (d.headers !== undefined) headers = { ...headers, ...d.headers };
          applied.set(d.id, (applied.get(d.id) ?? 0) + 1);
        }
        send(req, res, { ...answer, status, json, headers });
      })().catch((err: unknown) => send(req, res, fail(500, 'internal_error', (err as Error).message)));
    });
  });

  function send(req: IncomingMessage, res: ServerResponse, a: Res): void {
    const headers: Record<string, string | string[]> = {
      'x-request-id': String(req.headers['x-request-id'] ?? `req-${hex(8)}`),
      // a provider's session cookies: two of them, each its own header line
      'set-cookie': [`double_session=${hex(8)}; Path=/; HttpOnly`, `double_region=eu-north; Path=/`],
      ...a.headers,
    };
    let payload: Buffer;
    if (a.html !== undefined) {
      headers['content-type'] = 'text/html; charset=utf-8';
      payload = Buffer.from(a.html);
    } else if (a.json !== undefined) {
      headers['content-type'] = 'application/json; charset=utf-8';
      payload = Buffer.from(JSON.stringify(a.json));
    } else payload = Buffer.alloc(0);
    if (payload.length > 0 && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      headers['content-encoding'] = 'gzip';
      payload = gzipSync(payload);
    }
    res.writeHead(a.status, headers).end(payload);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const ticker = setInterval(() => world.fireDue(), 25);
  ticker.unref();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    partner,
    world,
    applied,
    async close() {
      clearInterval(ticker);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
