/**
 * The console's only way to the data: the public HTTP API, called in-process with the signed-in
 * partner's credentials (app.inject runs the same routes, validation, auth and journal as a
 * request from outside). Whatever the console shows or does, a script can.
 *
 * Reads carry `X-Obsim-Console: read`, which keeps them out of the partner's request journal
 * (a console open in a browser would otherwise fill the journal its tests assert on); actions
 * are journaled like any other request.
 */
import type { FastifyInstance } from 'fastify';
import type { ConsoleSession } from './session.js';

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

/** The error shape every refused call answers. */
export interface ApiErrorBody {
  status: number;
  code: string;
  message: string;
  field?: string;
}

export const isError = (answer: ApiAnswer<unknown>): answer is ApiAnswer<ApiErrorBody> => answer.status >= 400;

export type ConsoleApi = ReturnType<typeof consoleApi>;

export function consoleApi(app: FastifyInstance, credentials: Pick<ConsoleSession, 'clientId' | 'secret'>) {
  async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<ApiAnswer<T>> {
    const res = await app.inject({
      method,
      url,
      headers: {
        'x-partner-client-id': credentials.clientId,
        'x-partner-client-secret': credentials.secret,
        'x-obsim-console': method === 'GET' ? 'read' : 'action',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = res.body;
    return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
  }
  return {
    get: <T>(url: string) => call<T>('GET', url),
    post: <T>(url: string, body?: unknown) => call<T>('POST', url, body),
    put: <T>(url: string, body: unknown) => call<T>('PUT', url, body),
    delete: <T>(url: string) => call<T>('DELETE', url),
  };
}

/** `path?query` from the defined, non-empty values of `params`. */
export function withQuery(path: string, params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
