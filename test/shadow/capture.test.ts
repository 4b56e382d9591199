/**
 * What the shadow keeps of a body or a header (docs/drift.md, "What is redacted"): secrets named
 * by their property or header, JWTs wherever they stand, URL userinfo and secret query values;
 * and nothing hidden by nesting a body deeper than a walk of it can go.
 */
import t from 'tap';
import { redactBody, redactHeaders, redactPath } from '../../src/shadow/capture.js';

const SECRET = 's3cr3t-value-41';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJl';

t.test('a JSON body: secret-named values, JWTs and URL secrets out, the rest as sent', async (t) => {
  const kept = JSON.parse(
    redactBody(
      JSON.stringify({
        clientSecret: SECRET,
        nested: [{ client_secret: SECRET, note: `Bearer ${JWT}` }],
        url: `https://user:${SECRET}@example.test/cb?access_token=${SECRET}&page=2`,
        amount: 125.5,
      }),
      'application/json',
    ),
  );
  t.same(kept, {
    clientSecret: 'REDACTED',
    nested: [{ client_secret: 'REDACTED', note: 'Bearer REDACTED' }],
    url: 'https://REDACTED:REDACTED@example.test/cb?access_token=REDACTED&page=2',
    amount: 125.5,
  });
});

t.test('a form body and headers', async (t) => {
  t.equal(redactBody(`client_id=p1&client_secret=${SECRET}`, 'application/x-www-form-urlencoded'), 'client_id=p1&client_secret=REDACTED');
  t.same(redactHeaders({ Authorization: `Bearer ${SECRET}`, 'x-partner-client-secret': SECRET, 'set-cookie': [SECRET], accept: 'json' }), {
    authorization: 'Bearer REDACTED',
    'x-partner-client-secret': 'REDACTED',
    'set-cookie': 'REDACTED',
    accept: 'json',
  });
  t.equal(redactPath(`/pay?token=${SECRET}&lang=da`), '/pay?token=REDACTED&lang=da');
});

t.test('a secret nested deeper than a walk goes is not kept', async (t) => {
  const depth = 5_000;
  const body = `${'{"a":'.repeat(depth)}{"clientSecret":"${SECRET}"}${'}'.repeat(depth)}`;
  t.doesNotThrow(() => JSON.parse(body), 'the body is JSON');
  const kept = redactBody(body, 'application/json');
  t.notMatch(kept, SECRET);
  t.ok(JSON.parse(kept), 'what is kept is JSON');
});
