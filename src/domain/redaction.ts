/**
 * obsim's one redaction policy, in two reaches:
 *
 * - **Credentials** (CREDENTIAL_HEADERS, CREDENTIAL_PROPERTIES) are never kept anywhere, not even
 *   in the request journal, which writes `[redacted]` in their place (it keeps that a header was
 *   sent, and every other value: the ids, tokens and links a recorded scenario captures).
 * - **Secrets** are never in what leaves obsim for others to read (trace attributes, logs, the
 *   shadow's reports, an imported HAR's scenario): every credential, and every value under a name
 *   that says it holds one (SECRET_NAME), every JWT, every URL's userinfo and secret query values,
 *   written `REDACTED`. A URL's userinfo is redacted as OpenTelemetry's semantic conventions say
 *   for `url.full` (`https://REDACTED:REDACTED@host/`), and so is the value of every query
 *   parameter whose name says it holds one (a token, a key, a signature, a password, a session, a code).
 *
 * The two markers stay apart: journal entries (and what is made from them) have said `[redacted]`
 * since the journal began; `REDACTED` is OpenTelemetry's word.
 */

export const REDACTED = 'REDACTED';

/** What the journal writes where a credential was. */
export const CREDENTIAL_REDACTED = '[redacted]';

/** Credential headers (lower case): the journal keeps that one was sent, never its value. */
export const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'x-obsim-admin-key', 'x-partner-client-secret'] as const;

/**
 * JSON properties whose values are credentials wherever they appear in a body: the AIS bearer
 * token (`token`), a webhook's signing secret (`secret`), a sandbox's `clientSecret`, the admin key.
 */
export const CREDENTIAL_PROPERTIES: ReadonlySet<string> = new Set([
  'token',
  'accessToken',
  'refreshToken',
  'secret',
  'clientSecret',
  'password',
  'adminKey',
]);

/** A property, header or query parameter name that names a secret: `token`, `access_token`, `apiKey`, `X-Amz-Signature`, `sig`, `password`, … */
export const SECRET_NAME =
  /(token|secret|passw(or)?d|pwd|signature|^sig$|[_-]sig$|api[_-]?key|^key$|[_-]key$|authorization$|credential|session|cookie)/i;

/** Whether a property's or header's name says it holds a secret: a credential's, or by SECRET_NAME. */
export const isSecretName = (name: string): boolean => CREDENTIAL_PROPERTIES.has(name) || SECRET_NAME.test(name);

/** In a URL's query also `code` (an OAuth authorization code) and `auth`. */
const secretQueryName = (name: string): boolean => isSecretName(name) || /^(code|auth)$/i.test(name);

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
 * every value under a name that says it holds a secret (isSecretName) replaced, every JWT and URL
 * secret out of every string. `keep(value)` spares a value the caller stands in for otherwise (a
 * HAR import writes a token an earlier answer handed out as the variable that captures it).
 */
export function redactJsonSecrets(value: unknown, keep: (value: string) => boolean = () => false, key = '', depth = 0): unknown {
  if (value !== null && typeof value === 'object' && depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactJsonSecrets(v, keep, key, depth + 1));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactJsonSecrets(v, keep, k, depth + 1)]));
  if (typeof value === 'string' && keep(value)) return value;
  if (key !== '' && isSecretName(key) && (typeof value === 'string' || typeof value === 'number')) return REDACTED;
  return typeof value === 'string' ? redactString(value) : value;
}

/** Whether a query parameter's name says it holds a secret (as in a URL: also `code` and `auth`). */
export const isSecretQueryName = secretQueryName;
