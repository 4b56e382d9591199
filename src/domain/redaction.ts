/**
 * Secrets never leave in what obsim writes for others to read (trace attributes, logs, the
 * shadow's reports): the one rule for what in a URL is a secret.
 *
 * A URL's userinfo is redacted as OpenTelemetry's semantic conventions say for `url.full`
 * (`https://REDACTED:REDACTED@host/`), and so is the value of every query parameter whose name
 * says it holds one (a token, a key, a signature, a password, a session, a code).
 */

export const REDACTED = 'REDACTED';

/** A property, header or query parameter name that names a secret: `token`, `access_token`, `apiKey`, `X-Amz-Signature`, `sig`, `password`, … */
export const SECRET_NAME =
  /(token|secret|passw(or)?d|pwd|signature|^sig$|[_-]sig$|api[_-]?key|^key$|[_-]key$|authorization$|credential|session|cookie)/i;

/** In a URL's query also `code` (an OAuth authorization code) and `auth`. */
const secretQueryName = (name: string): boolean => SECRET_NAME.test(name) || /^(code|auth)$/i.test(name);

/** `raw` with its userinfo and secret query values replaced by REDACTED; a string that is not a URL as it is. */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  let changed = false;
  if (url.username !== '' || url.password !== '') {
    url.username = REDACTED;
    url.password = url.password === '' ? '' : REDACTED;
    changed = true;
  }
  for (const name of new Set(url.searchParams.keys())) {
    if (!secretQueryName(name)) continue;
    url.searchParams.set(name, REDACTED);
    changed = true;
  }
  return changed ? url.toString() : raw;
}

/** A JSON Web Token wherever it stands in a string (a bearer token, an AIS token pasted into a field). */
export const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g;
const HTTP_URL = /^https?:\/\//i;

/** A string as it may be kept: its JWTs and its URL's secrets out. */
export function redactString(s: string): string {
  const noJwt = s.replace(JWT, REDACTED);
  return HTTP_URL.test(noJwt) ? redactUrl(noJwt) : noJwt;
}

/** Nesting kept in a body; anything deeper is replaced whole, so depth never hides a secret. */
export const MAX_DEPTH = 32;

/**
 * A JSON value as it may leave obsim (the shadow's kept exchanges, an imported HAR's scenario):
 * every value under a name that says it holds a secret (SECRET_NAME) replaced, every JWT and URL
 * secret out of every string. `keep(value)` spares a value the caller stands in for otherwise (a
 * HAR import writes a token an earlier answer handed out as the variable that captures it).
 */
export function redactJsonSecrets(value: unknown, keep: (value: string) => boolean = () => false, key = '', depth = 0): unknown {
  if (value !== null && typeof value === 'object' && depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactJsonSecrets(v, keep, key, depth + 1));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactJsonSecrets(v, keep, k, depth + 1)]));
  if (typeof value === 'string' && keep(value)) return value;
  if (key !== '' && SECRET_NAME.test(key) && (typeof value === 'string' || typeof value === 'number')) return REDACTED;
  return typeof value === 'string' ? redactString(value) : value;
}

/** Whether a query parameter's name says it holds a secret (as in a URL: also `code` and `auth`). */
export const isSecretQueryName = secretQueryName;
