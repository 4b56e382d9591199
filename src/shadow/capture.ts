/**
 * What the shadow keeps of an exchange or a delivery, secrets redacted: the one policy every
 * output reads from (the report as JSON, HTML and JUnit, both HAR exports), applied when an
 * exchange is kept, so nothing kept ever held a secret.
 *
 * - Headers: Authorization, Cookie, Set-Cookie, the partner's secret, the admin key, and any
 *   header whose name says it holds a secret.
 * - JSON and form bodies: every value under a name that says it holds one (`secret`,
 *   `clientSecret`, `client_secret`, `token`, `access_token`, `password`, …), every JWT wherever it
 *   stands, and every URL's userinfo and secret query values.
 * - URLs (the request's own path and query too): userinfo and secret query values
 *   (src/domain/redaction.ts).
 */
import { CREDENTIAL_HEADERS, isSecretName, REDACTED, redactJsonSecrets, redactString, redactUrl } from '../domain/redaction.js';

/** The credentials, and what only travels to or from a proxy or a browser. */
const SECRET_HEADERS: ReadonlySet<string> = new Set([...CREDENTIAL_HEADERS, 'proxy-authorization', 'set-cookie']);

export type Headers = Record<string, string | string[]>;

/** Headers as kept: a secret's value replaced (a bearer keeps its scheme). */
export function redactHeaders(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (SECRET_HEADERS.has(lower) || (isSecretName(lower) && !lower.startsWith('x-webhook'))) {
      out[lower] = lower === 'authorization' && typeof value === 'string' ? value.replace(/^(\w+)\s+.*$/, `$1 ${REDACTED}`) : REDACTED;
    } else out[lower] = Array.isArray(value) ? value.map(redactString) : redactString(value);
  }
  return out;
}

/** A body as kept: JSON and forms by the rule above, anything else with its JWTs and URL secrets out. */
export function redactBody(text: string, contentType: string | undefined): string {
  if (text === '') return text;
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.stringify(redactJsonSecrets(JSON.parse(text)));
    } catch {
      /* not JSON after all */
    }
  }
  if (type.includes('x-www-form-urlencoded')) {
    const form = new URLSearchParams(text);
    const out = new URLSearchParams();
    for (const [k, v] of form) out.append(k, isSecretName(k) ? REDACTED : redactString(v));
    return out.toString();
  }
  return redactString(text);
}

/** A request's path and query as kept. */
export const redactPath = (pathAndQuery: string): string => {
  const kept = redactUrl(`http://h${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`);
  return kept.startsWith('http://h') ? kept.slice('http://h'.length) : pathAndQuery;
};
