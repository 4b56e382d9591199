/**
 * Attacks on the partner credentials (/v1/partner/*). Every attack must be rejected with its
 * documented 401 code; the figure printed is "rejected with the right code / attacks". Bearer
 * tokens and header injection over a real socket: token-attacks.test.ts.
 */
import t from 'tap';
import { PARTNER } from '../helpers/app.js';
import { buildTwo } from '../helpers/partner.js';
import { run, type Attack } from '../helpers/attacks.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));

t.test('partner credential attacks', async (t) => {
  const app = await buildTwo(t);
  const secret = PARTNER['x-partner-client-secret'];
  const id = PARTNER['x-partner-client-id'];
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'a' ? 'b' : 'a') + s.slice(i + 1);
  const list = { method: 'GET' as const, url: '/v1/partner/merchants' };
  const attacks: Attack[] = [
    ...[...secret].map((_, i) => ({
      ...list,
      name: `secret wrong at char ${i}`,
      headers: { ...PARTNER, 'x-partner-client-secret': flip(secret, i) },
      status: 401,
      code: 'partner_credentials_invalid',
    })),
    {
      ...list,
      name: 'secret one char short',
      headers: { ...PARTNER, 'x-partner-client-secret': secret.slice(0, -1) },
      status: 401,
      code: 'partner_credentials_invalid',
    },
    {
      ...list,
      name: 'secret one char long',
      headers: { ...PARTNER, 'x-partner-client-secret': `${secret}x` },
      status: 401,
      code: 'partner_credentials_invalid',
    },
    {
      ...list,
      name: 'secret upper case',
      headers: { ...PARTNER, 'x-partner-client-secret': secret.toUpperCase() },
      status: 401,
      code: 'partner_credentials_invalid',
    },
    {
      ...list,
      name: 'id wrong by one char',
      headers: { ...PARTNER, 'x-partner-client-id': flip(id, 0) },
      status: 401,
      code: 'partner_credentials_invalid',
    },
    {
      ...list,
      name: "other partner's secret",
      headers: { ...PARTNER, 'x-partner-client-secret': 'other-secret' },
      status: 401,
      code: 'partner_credentials_invalid',
    },
    { ...list, name: 'no secret', headers: { 'x-partner-client-id': id }, status: 401, code: 'partner_credentials_missing' },
    {
      ...list,
      name: 'empty secret',
      headers: { ...PARTNER, 'x-partner-client-secret': '' },
      status: 401,
      code: 'partner_credentials_missing',
    },
    {
      ...list,
      name: 'overlong secret (64 KiB)',
      headers: { ...PARTNER, 'x-partner-client-secret': 's'.repeat(65536) },
      status: 401,
      code: 'partner_credentials_invalid',
    },
    {
      ...list,
      name: 'bearer token instead of partner headers',
      headers: { authorization: 'Bearer x.y.z' },
      status: 401,
      code: 'partner_credentials_missing',
    },
  ];
  const right = await run(app, t, attacks, {});
  t.comment(`partner credential attacks: ${right}/${attacks.length} rejected with the right 401 code`);
  t.equal(right, attacks.length);
});
