/**
 * Driving the web console without a browser: sign in as a partner, read a page, post a page's
 * form with its CSRF token and read where it leads (with its flash message).
 */
import type { FastifyInstance } from 'fastify';

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export function cookieOf(res: { headers: Record<string, unknown> }, name: string): string | undefined {
  const all = ([] as string[]).concat((res.headers['set-cookie'] as string[] | string | undefined) ?? []);
  for (const c of all) {
    const m = new RegExp(`^${name}=([^;]*)`).exec(c);
    if (m) return m[1];
  }
  return undefined;
}

export const csrfIn = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)?.[1];
export const form = (fields: Record<string, string | string[]>) =>
  new URLSearchParams(
    Object.entries(fields).flatMap(([k, v]): [string, string][] => (Array.isArray(v) ? v.map((x): [string, string] => [k, x]) : [[k, v]])),
  ).toString();

export interface ConsoleSignIn {
  cookie: string;
  csrf: string;
}

/** Sign in as a partner: the session cookie and the page's CSRF token. */
export async function signIn(app: FastifyInstance, clientId = 'sandbox-partner', secret = 'sandbox-secret'): Promise<ConsoleSignIn> {
  const page = await app.inject({ method: 'GET', url: '/console/sign-in' });
  const r = await app.inject({
    method: 'POST',
    url: '/console/sign-in',
    headers: { ...FORM, cookie: `obsim_console_sign_in=${cookieOf(page, 'obsim_console_sign_in')}` },
    payload: form({ _csrf: csrfIn(page.body)!, clientId, clientSecret: secret, next: '/console' }),
  });
  const session = cookieOf(r, 'obsim_console');
  if (r.statusCode !== 303 || !session) throw new Error(`sign-in failed: ${r.statusCode} ${r.body}`);
  const overview = await app.inject({ method: 'GET', url: '/console', headers: { cookie: `obsim_console=${session}` } });
  return { cookie: `obsim_console=${session}`, csrf: csrfIn(overview.body)! };
}

/** GET a console page as the signed-in partner. */
export async function view(app: FastifyInstance, s: ConsoleSignIn, url: string): Promise<{ status: number; body: string }> {
  const r = await app.inject({ method: 'GET', url, headers: { cookie: s.cookie } });
  return { status: r.statusCode, body: r.body };
}

/**
 * POST a console form with the session's CSRF token. An action answers 303 to the page it leads
 * to: that page is read with the flash cookie it set (`to`, `page`); a form that answers a page
 * itself (a scenario run) is that page.
 */
export async function act(
  app: FastifyInstance,
  s: ConsoleSignIn,
  url: string,
  fields: Record<string, string | string[]> = {},
): Promise<{ status: number; to?: string; page: string }> {
  const r = await app.inject({ method: 'POST', url, headers: { ...FORM, cookie: s.cookie }, payload: form({ ...fields, _csrf: s.csrf }) });
  if (r.statusCode !== 303) return { status: r.statusCode, page: r.body };
  const to = r.headers.location as string;
  const flash = cookieOf(r, 'obsim_console_flash');
  const next = await app.inject({
    method: 'GET',
    url: to,
    headers: { cookie: `${s.cookie}${flash ? `; obsim_console_flash=${flash}` : ''}` },
  });
  return { status: 303, to, page: next.body };
}
