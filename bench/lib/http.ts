/** JSON calls for fixture setup (not on the measured path). */
export interface JsonResponse<T = any> {
  status: number;
  body: T;
}

export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as T };
}

/** Like call() but throws unless the status is 2xx. */
export async function ok<T = any>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await call<T>(base, method, path, body, headers);
  if (res.status < 200 || res.status >= 300) {
    throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  return res.body;
}
