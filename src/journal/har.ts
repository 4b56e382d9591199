/**
 * A page of the request journal as HAR 1.2 (GET /_sandbox/requests?format=har, obsim logs export
 * --har): what the journal kept of each request, credentials already redacted by it. The journal
 * keeps a request's headers, not its answer's: each response lists the x-request-id it carried
 * (and the Obsim-Contract-Version, when a contract version answered it).
 */
import { harLog, type HarLog } from '../domain/har.js';
import type { JournalEntry } from './pages.js';

function content(body: unknown, contentType: string | undefined): { mimeType: string; text: string } | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string')
    return { mimeType: contentType ?? (body.trimStart().startsWith('<') ? 'text/html' : 'text/plain'), text: body };
  return { mimeType: contentType ?? 'application/json', text: JSON.stringify(body) };
}

/** The entries (newest first, as the journal lists them) as HAR, oldest first, against `baseUrl`. */
export function journalHar(entries: readonly JournalEntry[], baseUrl: string, version: string): HarLog {
  return harLog(
    { name: 'obsim', version },
    [...entries].reverse().map((e) => {
      const url = new URL(e.path, baseUrl);
      for (const [k, v] of Object.entries(e.query)) {
        for (const value of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(value));
      }
      const request = content(e.requestBody, e.headers['content-type']);
      const response = content(e.responseBody, undefined);
      return {
        startedDateTime: e.wallAt,
        timeMs: e.durationMs,
        method: e.method,
        url: url.toString(),
        requestHeaders: e.headers,
        ...(request ? { requestBody: request } : {}),
        status: e.status,
        responseHeaders: {
          'x-request-id': e.requestId,
          // the version that answered, as the answer named it: an import of this HAR replays under it
          ...(typeof e.contractVersion === 'string' ? { 'obsim-contract-version': e.contractVersion } : {}),
          ...(response ? { 'content-type': response.mimeType } : {}),
        },
        ...(response ? { responseBody: response } : {}),
        comment: `journal entry ${e.id}, at ${e.at} on the sandbox clock${e.code ? `; ${e.code}` : ''}${e.requestBodyTruncated || e.responseBodyTruncated ? '; a body was cut at the journal body limit' : ''}`,
      };
    }),
  );
}
