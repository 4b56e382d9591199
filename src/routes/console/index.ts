/**
 * The web console at /console: see and drive a sandbox in a browser. Server-rendered pages over
 * the public HTTP API (api.ts, with the signed-in partner's credentials), htmx for in-place
 * updates and Server-Sent Events for live ones. Not in the OpenAPI document.
 *
 * This file holds what every page needs: the session and CSRF hooks, sign-in and sign-out, the
 * static assets and the live stream. Each page (pages/) has its handlers and its view, and
 * draws with the shared layout (layout.ts, views.ts) and helpers (kit.ts). Every route
 * translates a form or a page view into API calls; the rules stay behind the API. A
 * state-changing form needs the session (cookie, session.ts) and its CSRF token; a missing,
 * forged or expired session answers the sign-in page (401).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { html } from '../hosted/layout.js';
import { consoleApi, withQuery } from './api.js';
import { consoleKit, first, LIVE_COALESCE_MS, LIVE_HEARTBEAT_MS, safeBack, type Form } from './kit.js';
import { CONSOLE_CSS, CONSOLE_JS } from './layout.js';
import { bankRoutes } from './pages/banks.js';
import { consentRoutes } from './pages/consents.js';
import { contractRoutes } from './pages/contract.js';
import { merchantRoutes } from './pages/merchants.js';
import { overviewRoutes } from './pages/overview.js';
import { paymentRoutes } from './pages/payments.js';
import { readinessRoutes } from './pages/readiness.js';
import { recordingRoutes } from './pages/recording.js';
import { requestRoutes } from './pages/requests.js';
import { scenarioRoutes } from './pages/scenarios.js';
import { webhookRoutes } from './pages/webhooks.js';
import { createSessions, SESSION_COOKIE, SESSION_TTL_S, SIGN_IN_COOKIE, sameToken, type ConsoleSession } from './session.js';

declare module 'fastify' {
  interface FastifyRequest {
    consoleSession: ConsoleSession | null;
    /** The request's cookies (parsed in the console's onRequest hook). */
    cookies: Record<string, string | undefined>;
  }
}

const PAGES = [
  overviewRoutes,
  merchantRoutes,
  paymentRoutes,
  consentRoutes,
  webhookRoutes,
  requestRoutes,
  recordingRoutes,
  readinessRoutes,
  contractRoutes,
  scenarioRoutes,
  bankRoutes,
];

/** Static assets: htmx and its SSE extension from node_modules, the stylesheet from layout.ts. */
function loadAssets(): Map<string, { type: string; body: Buffer | string }> {
  const require = createRequire(import.meta.url);
  const htmxDir = dirname(require.resolve('htmx.org/package.json'));
  const sseDir = dirname(require.resolve('htmx-ext-sse/package.json'));
  return new Map([
    ['htmx.min.js', { type: 'text/javascript; charset=utf-8', body: readFileSync(join(htmxDir, 'dist/htmx.min.js')) }],
    ['sse.js', { type: 'text/javascript; charset=utf-8', body: readFileSync(join(sseDir, 'dist/sse.min.js')) }],
    ['console.css', { type: 'text/css; charset=utf-8', body: CONSOLE_CSS }],
    ['console.js', { type: 'text/javascript; charset=utf-8', body: CONSOLE_JS }],
  ]);
}

export async function consoleRoutes(app: FastifyInstance): Promise<void> {
  app.decorateRequest('consoleSession', null);
  app.decorateRequest('cookies', null as unknown as Record<string, string | undefined>);
  const sessions = createSessions(app.meta, app.config.shard);
  const kit = consoleKit(app);
  const { hide, cookieOptions, setCookie, clearCookie, describe, signIn, show, query } = kit;
  let assets: ReturnType<typeof loadAssets> | undefined;

  // ------------------------------------------------------------ session and CSRF

  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.cookie;
    request.cookies = kit.parseCookies(header);
    const path = request.url.split('?', 1)[0];
    if (path === '/console/sign-in' || path.startsWith('/console/assets/')) return;
    const session = await sessions.read(request.cookies[SESSION_COOKIE]);
    if (session) {
      request.consoleSession = session;
      return;
    }
    if (request.cookies[SESSION_COOKIE] !== undefined) clearCookie(reply, SESSION_COOKIE);
    if (path === '/console/live') return reply.code(401).send();
    const next = request.method === 'GET' ? safeBack(request.url, '/console') : '/console';
    // htmx (a live region, a boosted click) replaces the whole page with the sign-in page
    if (request.headers['hx-request'] === 'true') reply.header('HX-Redirect', withQuery('/console/sign-in', { next }));
    const error = request.cookies[SESSION_COOKIE] !== undefined ? 'Your session has ended or is not valid here; sign in again.' : undefined;
    return signIn(reply, 401, { next, error });
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || request.url === '/console/sign-in') return;
    if (!sameToken((request.body as Form | undefined)?._csrf, request.consoleSession!.csrf)) {
      return show(
        request,
        reply,
        'Refused',
        '',
        html`<p class="notice bad" role="alert">This form's security token is missing or wrong (CSRF check): nothing was changed. Reload the page and try again.</p>`,
        403,
      );
    }
  });

  // ------------------------------------------------------------ assets, sign-in, sign-out, live

  app.get<{ Params: { name: string } }>('/console/assets/:name', hide, async (request, reply) => {
    assets ??= loadAssets();
    const asset = assets.get(request.params.name);
    if (!asset) throw new ApiError('route_not_found');
    return reply.header('content-type', asset.type).header('cache-control', 'public, max-age=3600').send(asset.body);
  });

  app.get('/console/sign-in', hide, async (request, reply) =>
    signIn(reply, 200, { next: safeBack(first(query(request).next), '/console') }),
  );

  app.post('/console/sign-in', hide, async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    const next = safeBack(form.next, '/console');
    const clientId = first(form.clientId)?.trim() ?? '';
    const expected = request.cookies[SIGN_IN_COOKIE];
    if (!expected || !sameToken(form._csrf, expected)) {
      return signIn(reply, 403, {
        next,
        clientId,
        error: 'The sign-in form expired or did not come from this console (CSRF check); try again.',
      });
    }
    const secret = first(form.clientSecret) ?? '';
    const answer = await consoleApi(app, { clientId, secret }).get('/_sandbox/overview');
    if (answer.status !== 200)
      return signIn(reply, 401, { next, clientId, error: `Those credentials were refused (${describe(answer)}).` });
    const { token } = await sessions.issue(clientId, secret);
    clearCookie(reply, SIGN_IN_COOKIE);
    setCookie(reply, SESSION_COOKIE, token, { ...cookieOptions, maxAge: SESSION_TTL_S });
    return reply.redirect(next, 303);
  });

  app.post('/console/sign-out', hide, async (request, reply) => {
    clearCookie(reply, SESSION_COOKIE);
    return signIn(reply, 200, {});
  });

  // open live streams end when the server closes (a hijacked response would hold close() open)
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  app.get('/console/live', hide, (request, reply) => {
    let partner;
    try {
      const s = request.consoleSession!;
      partner = app.partners.authenticate(s.clientId, s.secret);
    } catch {
      return reply.code(401).send();
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': obsim console live\n\n');
    let pending: NodeJS.Timeout | undefined;
    const changed = () => {
      pending ??= setTimeout(() => {
        pending = undefined;
        res.write('event: changed\ndata: {}\n\n');
      }, LIVE_COALESCE_MS);
    };
    const { clientId, sandboxId } = partner;
    const offs = [
      app.engine.onTimersFired((id) => id === sandboxId && changed()),
      app.webhooks.onAttempt(({ delivery }) => delivery.partner_id === clientId && changed()),
      app.journal?.subscribe(clientId, changed),
    ];
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), LIVE_HEARTBEAT_MS);
    const end = () => {
      streams.delete(end);
      clearInterval(heartbeat);
      clearTimeout(pending);
      for (const off of offs) off?.();
      res.end();
    };
    streams.add(end);
    res.on('close', end);
  });

  for (const page of PAGES) page(app, kit);
}
