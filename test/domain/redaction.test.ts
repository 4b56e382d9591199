/**
 * What in a URL is a secret (src/domain/redaction.ts), against the cases OpenTelemetry's semantic
 * conventions for `url.full` name (userinfo; signed-URL parameters) and the ones receivers use.
 */
import t from 'tap';
import { redactUrl } from '../../src/domain/redaction.js';

t.test('userinfo and secret query values are redacted, everything else kept as it was', async (t) => {
  const cases: [string, string][] = [
    ['https://user:pass@hooks.example/x', 'https://REDACTED:REDACTED@hooks.example/x'],
    ['https://user@hooks.example/x', 'https://REDACTED@hooks.example/x'],
    ['https://hooks.example/x?token=t1&shop=9', 'https://hooks.example/x?token=REDACTED&shop=9'],
    ['https://s3.example/o?X-Amz-Signature=abc&X-Amz-Date=1', 'https://s3.example/o?X-Amz-Signature=REDACTED&X-Amz-Date=1'],
    [
      'https://hooks.example/x?sig=1&access_token=2&api_key=3&client_secret=4&password=5',
      'https://hooks.example/x?sig=REDACTED&access_token=REDACTED&api_key=REDACTED&client_secret=REDACTED&password=REDACTED',
    ],
    ['https://hooks.example/x?page=2&id=7', 'https://hooks.example/x?page=2&id=7'],
    ['https://hooks.example/plain', 'https://hooks.example/plain'],
    ['not a url', 'not a url'],
  ];
  for (const [raw, redacted] of cases) t.equal(redactUrl(raw), redacted, raw);
});
