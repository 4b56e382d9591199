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
