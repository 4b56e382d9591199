/**
 * The web console at /console: see and drive a sandbox in a browser. Server-rendered pages
 * (pages.ts) over the public HTTP API (api.ts, with the signed-in partner's credentials), htmx
 * for in-place updates and Server-Sent Events for live ones. Not in the OpenAPI document.
 *
 * Every route here translates a form or a page view into API calls; the rules stay behind the
 * API. A state-changing form needs the session (cookie, session.ts) and its CSRF token; a
 * missing, forged or expired session answers the sign-in page (401).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { components } from '../../client/api.js';
import { ApiError } from '../../domain/errors.js';
import { lazyRequire } from '../../lazy.js';
import { html } from '../hosted/layout.js';
import { consoleApi, isError, withQuery, type ApiAnswer, type ConsoleApi } from './api.js';
import { CONSOLE_CSS, CONSOLE_JS, consolePage, sendConsolePage, type Flash } from './layout.js';
import * as pages from './pages.js';
import {
  createSessions,
  FLASH_COOKIE,
  newToken,
  sameToken,
  SESSION_COOKIE,
  SESSION_TTL_S,
  SIGN_IN_COOKIE,
  type ConsoleSession,
} from './session.js';

type S = components['schemas'];
type Form = Record<string, string | string[] | undefined>;

declare module 'fastify' {
  interface FastifyRequest {
    consoleSession: ConsoleSession | null;
    /** The request's cookies (parsed in the console's onRequest hook). */
    cookies: Record<string, string | undefined>;
  }
}

// loaded at the first console request, not at start-up (start-up time is part of obsim's promise)
const cookieCodec = lazyRequire<typeof import('cookie')>('cookie');

interface CookieOptions {
  path: string;
  httpOnly: boolean;
  sameSite: 'strict';
  secure: boolean;
  maxAge?: number;
}

/** Live updates are coalesced: at most one `changed` per this many ms per browser. */
const LIVE_COALESCE_MS = 250;
const LIVE_HEARTBEAT_MS = 15_000;

const ID = /^[0-9]{1,15}$/;
const TOKEN_ID = /^[A-Za-z0-9_-]{1,200}$/;
const ACTION = /^[a-z][a-z-]{0,39}$/;
const BACK = /^\/console(?:\/[A-Za-z0-9_\-/]*)?(?:\?[A-Za-z0-9_\-=&%.+]*)?$/;

const first = (v: unknown): string | undefined => (Array.isArray(v) ? first(v[0]) : typeof v === 'string' ? v : undefined);
const safeBack = (v: unknown, fallback: string): string => {
  const s = first(v);
  return s !== undefined && BACK.test(s) && !s.includes('//') ? s : fallback;
};

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
  const sessions = createSessions(app.meta);
  const environment = app.config.environment;
  const secure = app.publicUrl.startsWith('https:');
  const cookieOptions: CookieOptions = { path: '/console', httpOnly: true, sameSite: 'strict', secure };
  // Fastify sends each set-cookie header given, in order
  const setCookie = (reply: FastifyReply, name: string, value: string, options: CookieOptions) =>
    reply.header('set-cookie', cookieCodec().stringifySetCookie({ name, value, ...options }));
  const clearCookie = (reply: FastifyReply, name: string) =>
    reply.header('set-cookie', cookieCodec().stringifySetCookie({ name, value: '', ...cookieOptions, maxAge: 0, expires: new Date(0) }));
  let assets: ReturnType<typeof loadAssets> | undefined;
  const hide = { schema: { hide: true } };

  // ------------------------------------------------------------ helpers

  function takeFlash(request: FastifyRequest, reply: FastifyReply): Flash | undefined {
    const raw = request.cookies[FLASH_COOKIE];
    if (!raw) return undefined;
    clearCookie(reply, FLASH_COOKIE);
    try {
      const f = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Flash;
      return (f.tone === 'ok' || f.tone === 'bad') && typeof f.text === 'string' ? { tone: f.tone, text: f.text.slice(0, 500) } : undefined;
    } catch {
      return undefined;
    }
  }

  function setFlash(reply: FastifyReply, flash: Flash): void {
    setCookie(reply, FLASH_COOKIE, Buffer.from(JSON.stringify(flash)).toString('base64url'), { ...cookieOptions, maxAge: 60 });
  }

  const describe = (answer: ApiAnswer<unknown>): string =>
    isError(answer)
      ? `${answer.status} ${answer.body.code}: ${answer.body.message}${answer.body.field ? ` (field ${answer.body.field})` : ''}`
      : '';

  function signIn(reply: FastifyReply, status: number, opts: { error?: string; clientId?: string; next?: string } = {}): FastifyReply {
    const token = newToken();
    setCookie(reply, SIGN_IN_COOKIE, token, { ...cookieOptions, maxAge: 3600 });
    const body = pages.signInBody({ token, environment, ...opts });
    return sendConsolePage(reply, consolePage({ title: 'Sign in', section: '', body, environment }), status);
  }

  function show(request: FastifyRequest, reply: FastifyReply, title: string, section: string, body: ReturnType<typeof html>, status = 200) {
    // a boosted navigation (also the GET a boosted form's redirect leads to) shows its own URL
    if (request.headers['hx-boosted'] === 'true') reply.header('HX-Push-Url', request.url);
    const flash = takeFlash(request, reply);
    return sendConsolePage(reply, consolePage({ title, section, body, session: request.consoleSession!, environment, flash }), status);
  }

  /** An API read the page cannot do without: its refusal is the page (404 for a missing resource, the error otherwise). */
  function refused(request: FastifyRequest, reply: FastifyReply, section: string, answer: ApiAnswer<unknown>) {
    return show(
      request,
      reply,
      answer.status === 404 ? 'Not found' : 'Refused',
      section,
      html`<p class="notice bad" role="alert">${describe(answer)}</p>`,
      answer.status,
    );
  }

  const api = (request: FastifyRequest): ConsoleApi => consoleApi(app, request.consoleSession!);

  /**
   * Run one API action for a form and say what happened: back where the form came from, or, for
   * an action that made something, to what it made (`done` answers the text and the page).
   */
  async function act<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    call: () => Promise<ApiAnswer<T>>,
    done: string | ((made: T) => { text: string; to: string }),
    fallback: string,
  ) {
    const answer = await call();
    const back = safeBack((request.body as Form | undefined)?.back, fallback);
    if (isError(answer)) {
      setFlash(reply, { tone: 'bad', text: describe(answer) });
      return reply.redirect(back, 303);
    }
    const next = typeof done === 'string' ? { text: done, to: back } : done(answer.body);
    setFlash(reply, { tone: 'ok', text: next.text });
    return reply.redirect(next.to, 303);
  }

  const query = (request: FastifyRequest) => request.query as Form;
  const pick = (q: Form, ...names: string[]) =>
    Object.fromEntries(names.map((n) => [n, first(q[n])])) as Record<string, string | undefined>;

  // ------------------------------------------------------------ session and CSRF

  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.cookie;
    request.cookies = header ? cookieCodec().parseCookie(header) : {};
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

  // ------------------------------------------------------------ overview and clock

  app.get('/console', hide, async (request, reply) => {
    const answer = await api(request).get<S['SandboxOverview']>('/_sandbox/overview');
    if (isError(answer)) return refused(request, reply, '/console', answer);
    return show(request, reply, 'Overview', '/console', pages.overviewBody(answer.body, request.consoleSession!, request.url));
  });

  app.post('/console/clock/advance', hide, async (request, reply) => {
    const duration = first((request.body as Form).duration)?.trim() ?? '';
    return act(
      request,
      reply,
      () => api(request).post('/_sandbox/clock/advance', { duration }),
      `Advanced the clock by ${duration}.`,
      '/console',
    );
  });
  for (const move of ['freeze', 'resume'] as const) {
    app.post(`/console/clock/${move}`, hide, async (request, reply) =>
      act(
        request,
        reply,
        () => api(request).post(`/_sandbox/clock/${move}`),
        move === 'freeze' ? 'The clock is frozen.' : 'The clock runs.',
        '/console',
      ),
    );
  }

  // ------------------------------------------------------------ merchants

  app.post('/console/merchants/test', hide, async (request, reply) => {
    const companyName = first((request.body as Form).companyName) ?? '';
    return act(
      request,
      reply,
      () => api(request).post<{ merchantId: number }>('/v1/partner/merchants/test', { companyName }),
      (m) => ({ text: `Created test merchant ${m.merchantId}.`, to: `/console/merchants/${m.merchantId}` }),
      '/console',
    );
  });

  app.get('/console/merchants', hide, async (request, reply) => {
    const q = pick(query(request), 'status', 'q', 'cursor');
    const answer = await api(request).get<S['SandboxMerchantList']>(withQuery('/_sandbox/merchants', q));
    if (isError(answer)) return refused(request, reply, '/console/merchants', answer);
    return show(
      request,
      reply,
      'Merchants',
      '/console/merchants',
      pages.merchantsBody(answer.body, { status: q.status, q: q.q }, request.url),
    );
  });

  app.get<{ Params: { id: string } }>('/console/merchants/:id', hide, async (request, reply) => {
    if (!ID.test(request.params.id)) throw new ApiError('route_not_found');
    const answer = await api(request).get<S['SandboxMerchant']>(`/_sandbox/merchants/${request.params.id}`);
    if (isError(answer)) return refused(request, reply, '/console/merchants', answer);
    const m = answer.body;
    return show(
      request,
      reply,
      `Merchant ${m.merchant.companyName}`,
      '/console/merchants',
      pages.merchantBody(m, request.consoleSession!, request.url),
    );
  });

  app.post<{ Params: { id: string; action: string } }>('/console/merchants/:id/:action', hide, async (request, reply) => {
    const { id, action } = request.params;
    if (!ID.test(id) || !ACTION.test(action)) throw new ApiError('route_not_found');
    return act(
      request,
      reply,
      () => api(request).post(`/_sandbox/merchants/${id}/${action}`),
      `${action}: done for merchant ${id}.`,
      `/console/merchants/${id}`,
    );
  });

  // ------------------------------------------------------------ payments

  app.get('/console/payments', hide, async (request, reply) => {
    const q = pick(query(request), 'status', 'referenceNumber', 'cursor');
    const [list, merchants] = await Promise.all([
      api(request).get<S['SandboxPaymentList']>(withQuery('/_sandbox/payments', q)),
      api(request).get<S['SandboxMerchantList']>('/_sandbox/merchants?status=activated&limit=200'),
    ]);
    if (isError(list)) return refused(request, reply, '/console/payments', list);
    if (isError(merchants)) return refused(request, reply, '/console/payments', merchants);
    const body = pages.paymentsBody(
      list.body,
      merchants.body,
      { status: q.status, referenceNumber: q.referenceNumber },
      request.consoleSession!,
      request.url,
    );
    return show(request, reply, 'Payments', '/console/payments', body);
  });

  app.post('/console/payments', hide, async (request, reply) => {
    const form = request.body as Form;
    const amount = Number(first(form.amount));
    return act(
      request,
      reply,
      () =>
        api(request).post<{ paymentId: number }>('/v1/partner/payments', {
          merchantClientId: first(form.merchantClientId),
          amount: Number.isFinite(amount) ? amount : first(form.amount),
          referenceNumber: first(form.referenceNumber),
        }),
      (p) => ({ text: `Created payment ${p.paymentId}.`, to: `/console/payments/${p.paymentId}` }),
      '/console/payments',
    );
  });

  app.get<{ Params: { id: string } }>('/console/payments/:id', hide, async (request, reply) => {
    if (!ID.test(request.params.id)) throw new ApiError('route_not_found');
    const answer = await api(request).get<S['SandboxPayment']>(`/_sandbox/payments/${request.params.id}`);
    if (isError(answer)) return refused(request, reply, '/console/payments', answer);
    return show(
      request,
      reply,
      `Payment ${request.params.id}`,
      '/console/payments',
      pages.paymentBody(answer.body, request.consoleSession!, request.url),
    );
  });

  app.post<{ Params: { id: string; action: string } }>('/console/payments/:id/:action', hide, async (request, reply) => {
    const { id, action } = request.params;
    if (!ID.test(id) || !ACTION.test(action)) throw new ApiError('route_not_found');
    const reason = action === 'fail' ? first((request.body as Form).reason) : undefined;
    return act(
      request,
      reply,
      () => api(request).post(`/_sandbox/payments/${id}/${action}`, reason === undefined ? undefined : { reason }),
      `${action}: done for payment ${id}.`,
      `/console/payments/${id}`,
    );
  });

  // ------------------------------------------------------------ consents

  app.get('/console/consents', hide, async (request, reply) => {
    const q = pick(query(request), 'userId', 'status', 'cursor');
    const answer = await api(request).get<S['SandboxConsentList']>(withQuery('/_sandbox/consents', q));
    if (isError(answer)) return refused(request, reply, '/console/consents', answer);
    const body = pages.consentsBody(answer.body, { userId: q.userId, status: q.status }, request.consoleSession!, request.url);
    return show(request, reply, 'Consents', '/console/consents', body);
  });

  app.post<{ Params: { id: string; action: string } }>('/console/consents/:id/:action', hide, async (request, reply) => {
    const { id, action } = request.params;
    if (!TOKEN_ID.test(id) || !ACTION.test(action)) throw new ApiError('route_not_found');
    return act(
      request,
      reply,
      () => api(request).post(`/_sandbox/consents/${id}/${action}`),
      `${action}: done for consent ${id}.`,
      '/console/consents',
    );
  });

  // ------------------------------------------------------------ webhooks and deliveries

  app.get('/console/webhooks', hide, async (request, reply) => {
    const q = pick(query(request), 'event', 'state', 'outcome');
    const [hooks, deliveries] = await Promise.all([
      api(request).get<S['SandboxWebhookList']>('/_sandbox/webhooks'),
      api(request).get<S['SandboxDeliveryList']>(withQuery('/_sandbox/deliveries', q)),
    ]);
    if (isError(hooks)) return refused(request, reply, '/console/webhooks', hooks);
    if (isError(deliveries)) return refused(request, reply, '/console/webhooks', deliveries);
    return show(
      request,
      reply,
      'Webhooks and deliveries',
      '/console/webhooks',
      pages.webhooksBody(hooks.body, deliveries.body, q, request.consoleSession!, request.url),
    );
  });

  app.post('/console/webhooks', hide, async (request, reply) => {
    const form = request.body as Form;
    const events = Array.isArray(form.events) ? form.events : form.events === undefined ? [] : [form.events];
    return act(
      request,
      reply,
      () => api(request).post('/v1/partner/webhooks', { url: first(form.url), events }),
      'Webhook registered.',
      '/console/webhooks',
    );
  });

  app.post<{ Params: { id: string } }>('/console/webhooks/:id/test', hide, async (request, reply) => {
    if (!TOKEN_ID.test(request.params.id)) throw new ApiError('route_not_found');
    return act(
      request,
      reply,
      () => api(request).post(`/v1/partner/webhooks/${request.params.id}/test`),
      'Test delivery queued.',
      '/console/webhooks',
    );
  });

  app.get<{ Params: { id: string } }>('/console/deliveries/:id', hide, async (request, reply) => {
    if (!ID.test(request.params.id)) throw new ApiError('route_not_found');
    const answer = await api(request).get<S['SandboxDelivery']>(`/_sandbox/deliveries/${request.params.id}`);
    if (isError(answer)) return refused(request, reply, '/console/webhooks', answer);
    return show(
      request,
      reply,
      `Delivery ${request.params.id}`,
      '/console/webhooks',
      pages.deliveryBody(answer.body, request.consoleSession!, request.url),
    );
  });

  app.post<{ Params: { id: string } }>('/console/deliveries/:id/redeliver', hide, async (request, reply) => {
    const { id } = request.params;
    if (!ID.test(id)) throw new ApiError('route_not_found');
    return act(
      request,
      reply,
      () => api(request).post<S['SandboxDelivery']>(`/_sandbox/deliveries/${id}/redeliver`),
      (d) => ({ text: `Redelivery ${d.id} of delivery ${id} queued.`, to: `/console/deliveries/${d.id}` }),
      '/console/webhooks',
    );
  });

  // ------------------------------------------------------------ requests and scenarios

  app.get('/console/requests', hide, async (request, reply) => {
    const q = pick(query(request), 'method', 'status', 'code', 'pathPrefix', 'cursor');
    const answer = await api(request).get<S['JournalList']>(withQuery('/_sandbox/requests', q));
    const off = isError(answer) && answer.body.code === 'journal_off';
    if (isError(answer) && !off) return refused(request, reply, '/console/requests', answer);
    const body = pages.requestsBody(isError(answer) ? undefined : answer.body, q, request.url, off);
    return show(request, reply, 'Requests', '/console/requests', body);
  });

  app.get<{ Params: { id: string } }>('/console/requests/:id', hide, async (request, reply) => {
    if (!TOKEN_ID.test(request.params.id)) throw new ApiError('route_not_found');
    const answer = await api(request).get<S['JournalEntry']>(`/_sandbox/requests/${request.params.id}`);
    if (isError(answer)) return refused(request, reply, '/console/requests', answer);
    return show(request, reply, `Request ${answer.body.method} ${answer.body.path}`, '/console/requests', pages.requestBody(answer.body));
  });

  app.get('/console/scenarios', hide, async (request, reply) => {
    const answer = await api(request).get<S['SandboxScenarioList']>('/_sandbox/scenarios');
    if (isError(answer)) return refused(request, reply, '/console/scenarios', answer);
    return show(request, reply, 'Scenarios', '/console/scenarios', pages.scenariosBody(answer.body, request.consoleSession!));
  });

  app.post('/console/scenarios/run', hide, async (request, reply) => {
    const form = request.body as Form;
    const [list, run] = await Promise.all([
      api(request).get<S['SandboxScenarioList']>('/_sandbox/scenarios'),
      api(request).post<S['SandboxScenarioRunResult']>('/_sandbox/scenarios/run', {
        name: first(form.name),
        isolate: first(form.isolate) === 'true',
      }),
    ]);
    if (isError(list)) return refused(request, reply, '/console/scenarios', list);
    if (isError(run)) return refused(request, reply, '/console/scenarios', run);
    return show(request, reply, 'Scenarios', '/console/scenarios', pages.scenariosBody(list.body, request.consoleSession!, run.body));
  });
}
