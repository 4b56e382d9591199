/**
 * What in a URL is a secret (src/domain/redaction.ts), against the cases OpenTelemetry's semantic
 * conventions for `url.full` name (userinfo; signed-URL parameters) and the ones receivers use.
 */
import t from 'tap';
import { journalHeaders, redactJson } from '../../src/domain/journal.js';
import { redactJsonSecrets, redactUrl } from '../../src/domain/redaction.js';
import { redactHeaders } from '../../src/shadow/capture.js';

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

t.test('one policy, two reaches: every credential the journal never keeps is never in what leaves obsim either', async (t) => {
  // the journal's own redaction is the oracle for the narrower reach: what it replaces must be gone from the wider one's output
  for (const name of ['token', 'accessToken', 'refreshToken', 'secret', 'clientSecret', 'password', 'adminKey']) {
    const body = { [name]: 'value-1', nested: [{ [name]: 7 }] };
    t.same(redactJson(body), { [name]: '[redacted]', nested: [{ [name]: '[redacted]' }] }, `the journal keeps no ${name}`);
    t.same(redactJsonSecrets(body), { [name]: 'REDACTED', nested: [{ [name]: 'REDACTED' }] }, `nor does what leaves obsim`);
  }
  const headers = { authorization: 'Bearer x', cookie: 's=1', 'x-obsim-admin-key': 'k', 'x-partner-client-secret': 's', accept: '*/*' };
  const kept = journalHeaders(headers);
  const leaving = redactHeaders(headers);
  for (const name of Object.keys(headers)) {
    if (kept[name] === undefined || kept[name] === headers[name as keyof typeof headers]) continue;
    t.notOk(JSON.stringify(leaving[name]).includes(headers[name as keyof typeof headers].split(' ').pop()!), `${name}: redacted by both`);
  }
  t.equal(kept.accept, '*/*');
});
