/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the HTTP Archive format browsers'
 * developer tools open and other tools read: the request journal (GET /_sandbox/requests?format=har,
 * obsim logs export --har) and the shadow's exchanges (GET /_shadow/exchanges?format=har) are
 * written with this one function. Credentials are redacted before they get here.
 */

export interface HarExchange {
  /** ISO 8601 (wall clock). */
  startedDateTime: string;
  timeMs: number;
  method: string;
  /** Absolute URL with its query. */
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: { mimeType: string; text: string };
  status: number;
  responseHeaders: Record<string, string>;
  responseBody?: { mimeType: string; text: string };
  comment?: string;
}

const list = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value }));

export function harLog(creator: { name: string; version: string }, exchanges: readonly HarExchange[]) {
  return {
    log: {
      version: '1.2',
      creator,
      entries: exchanges.map((e) => {
        const url = new URL(e.url);
        const requestSize = e.requestBody ? Buffer.byteLength(e.requestBody.text) : 0;
        const responseSize = e.responseBody ? Buffer.byteLength(e.responseBody.text) : 0;
        return {
          startedDateTime: e.startedDateTime,
          time: e.timeMs,
          request: {
            method: e.method,
            url: url.toString(),
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: list(e.requestHeaders),
            queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
            ...(e.requestBody ? { postData: { mimeType: e.requestBody.mimeType, text: e.requestBody.text } } : {}),
            headersSize: -1,
            bodySize: requestSize,
          },
          response: {
            status: e.status,
            statusText: '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: list(e.responseHeaders),
            content: { size: responseSize, mimeType: e.responseBody?.mimeType ?? 'x-unknown', text: e.responseBody?.text ?? '' },
            redirectURL: e.responseHeaders.location ?? '',
            headersSize: -1,
            bodySize: responseSize,
          },
          cache: {},
          timings: { send: 0, wait: e.timeMs, receive: 0 },
          ...(e.comment ? { comment: e.comment } : {}),
        };
      }),
    },
  };
}

export type HarLog = ReturnType<typeof harLog>;
