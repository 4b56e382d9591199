/**
 * HAR 1.2 files for the import tests (not a test file): one entry, a GET of a font from a CDN (not
 * a request to the provider's API), with `entry` merged over it and `log` over the log.
 */
export const harWith = (entry: Record<string, unknown> = {}, log: Record<string, unknown> = {}): string =>
  JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: [
        {
          startedDateTime: '2026-01-15T09:00:00.000Z',
          time: 12,
          request: {
            method: 'GET',
            url: 'https://cdn.example.test/font.woff2',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: [],
            queryString: [],
            headersSize: -1,
            bodySize: 0,
          },
          response: {
            status: 200,
            statusText: 'OK',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: [],
            content: { size: 0, mimeType: 'font/woff2' },
            redirectURL: '',
            headersSize: -1,
            bodySize: 0,
          },
          cache: {},
          timings: { send: 0, wait: 12, receive: 0 },
          ...entry,
        },
      ],
      ...log,
    },
  });
