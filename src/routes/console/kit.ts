/**
 * What every console page's handlers share: reading the form and query, showing a page in the
 * layout (with the flash message), answering an API refusal, and running a form's action then
 * redirecting with what happened. Built once per console plugin (index.ts) and handed to each
 * page's routes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { lazyRequire } from '../../lazy.js';
import { html } from '../hosted/layout.js';
import { consoleApi, isError, type ApiAnswer, type ConsoleApi } from './api.js';
import { consolePage, sendConsolePage, type Flash } from './layout.js';
import { signInBody } from './pages/sign-in.js';
import { FLASH_COOKIE, newToken, SIGN_IN_COOKIE } from './session.js';

export type Form = Record<string, string | string[] | undefined>;

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
export const LIVE_COALESCE_MS = 250;
export const LIVE_HEARTBEAT_MS = 15_000;

export const ID = /^[0-9]{1,15}$/;
export const TOKEN_ID = /^[A-Za-z0-9_-]{1,200}$/;
export const ACTION = /^[a-z][a-z-]{0,39}$/;
const BACK = /^\/console(?:\/[A-Za-z0-9_\-/]*)?(?:\?[A-Za-z0-9_\-=&%.+]*)?$/;

export const first = (v: unknown): string | undefined => (Array.isArray(v) ? first(v[0]) : typeof v === 'string' ? v : undefined);
export const safeBack = (v: unknown, fallback: string): string => {
  const s = first(v);
  return s !== undefined && BACK.test(s) && !s.includes('//') ? s : fallback;
};

export type ConsoleKit = ReturnType<typeof consoleKit>;

export function consoleKit(app: FastifyInstance) {
  const environment = app.config.environment;
  const secure = app.publicUrl.startsWith('https:');
  const cookieOptions: CookieOptions = { path: '/console', httpOnly: true, sameSite: 'strict', secure };
  // Fastify sends each set-cookie header given, in order
  const setCookie = (reply: FastifyReply, name: string, value: string, options: CookieOptions) =>
    reply.header('set-cookie', cookieCodec().stringifySetCookie({ name, value, ...options }));
  const clearCookie = (reply: FastifyReply, name: string) =>
    reply.header('set-cookie', cookieCodec().stringifySetCookie({ name, value: '', ...cookieOptions, maxAge: 0, expires: new Date(0) }));
  const parseCookies = (header: string | undefined): Record<string, string | undefined> =>
    header ? cookieCodec().parseCookie(header) : {};
  const hide = { schema: { hide: true } };

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
    const body = signInBody({ token, environment, ...opts });
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

  return { hide, environment, cookieOptions, setCookie, clearCookie, parseCookies, describe, signIn, show, refused, api, act, query, pick };
}
