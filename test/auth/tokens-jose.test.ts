/**
 * TokenService (src/auth/tokens.ts) agrees with jose end to end: a token (signed by fast-jwt) is
 * exactly what jose's SignJWT gives for its claims, and verification agrees with jose's jwtVerify
 * at every instant (a verdict is remembered for the rest of its clock second only, so time and a
 * changed token are always seen).
 */
import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import t from 'tap';
import { ApiError } from '../../src/domain/errors.js';
import { VirtualClock } from '../../src/clock.js';
import type { TokenPermission } from '../../src/domain/consent.js';
import { CLOCK_TOLERANCE_S, TOKEN_AUDIENCE, TokenService } from '../../src/auth/tokens.js';

const secret = new TextEncoder().encode('a-test-secret-that-is-at-least-32-characters-long');
const T0 = Date.parse('2026-01-15T09:00:00.000Z');

function service(clock: VirtualClock) {
  return new TokenService({ secret, environment: 'sandbox', clockFor: () => clock, ttlMs: 3_600_000 });
}

t.test('signed tokens are byte-identical to jose SignJWT with the same claims', async (t) => {
  const clock = VirtualClock.create({ start: new Date(T0), frozen: true });
  const tokens = service(clock);
  for (const permissions of [
    ['ais:accounts:read'],
    ['ais:balance:read', 'ais:transactions:read', 'ais:balance:read'],
  ] as TokenPermission[][]) {
    const { token, claims } = await tokens.sign({ userId: 'user-ü "quoted"', merchantId: 100001, permissions });
    const viaJose = await new SignJWT({ merchantId: 100001, permissions: [...new Set(permissions)] })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('user-ü "quoted"')
      .setIssuer('obsim-sandbox')
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(claims.issuedAt)
      .setExpirationTime(claims.expiresAt)
      .setJti(claims.tokenId)
      .sign(secret);
    t.equal(token, viaJose);
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], currentDate: new Date(T0) });
    t.equal(payload.sub, 'user-ü "quoted"');
  }
});

async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    const claims = (await p) as { userId: string };
    return `ok:${claims.userId}`;
  } catch (err) {
    return err instanceof ApiError ? err.code : `thrown:${String(err)}`;
  }
}

t.test('verification agrees with jose jwtVerify at every instant around expiry', async (t) => {
  const clock = VirtualClock.create({ start: new Date(T0), frozen: true });
  const tokens = service(clock);
  const { token } = await tokens.sign({ userId: 'u1', merchantId: 100001, permissions: ['ais:accounts:read'] });
  const exp = decodeJwt(token).exp!;
  t.equal(await outcome(tokens.verify(token)), 'ok:u1');
  const nowS = () => Math.floor(clock.nowMs() / 1000);
  const viaJose = async () => {
    try {
      await jwtVerify(token, secret, { algorithms: ['HS256'], currentDate: clock.now(), clockTolerance: CLOCK_TOLERANCE_S });
      return 'ok:u1';
    } catch {
      return 'token_expired';
    }
  };
  // walk the clock over the expiry boundary, in steps that straddle whole seconds and the tolerance
  clock.advanceTo((exp - CLOCK_TOLERANCE_S - 2) * 1000);
  const seen = new Set<string>();
  while (nowS() <= exp + CLOCK_TOLERANCE_S + 2) {
    const expected = await viaJose();
    t.equal(await outcome(tokens.verify(token)), expected, `at ${clock.iso()} (${nowS() - exp}s after exp)`);
    seen.add(expected);
    clock.advance(250);
  }
  t.same([...seen].sort(), ['ok:u1', 'token_expired'], 'both sides of the boundary were seen');
});

t.test('claims are fresh objects: a caller cannot change what the next request sees', async (t) => {
  const clock = VirtualClock.create({ start: new Date(T0), frozen: true });
  const tokens = service(clock);
  const { token } = await tokens.sign({ userId: 'u2', merchantId: 7, permissions: ['ais:balance:read'] });
  const first = await tokens.verify(token);
  first.permissions.push('ais:accounts:read');
  (first as { userId: string }).userId = 'someone-else';
  const second = await tokens.verify(token);
  t.equal(second.userId, 'u2');
  t.same(second.permissions, ['ais:balance:read']);
});

t.test('a bad token is rejected every time', async (t) => {
  const clock = VirtualClock.create({ start: new Date(T0), frozen: true });
  const tokens = service(clock);
  const { token } = await tokens.sign({ userId: 'u3', merchantId: 7, permissions: ['ais:balance:read'] });
  const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
  t.equal(await outcome(tokens.verify(tampered)), 'token_invalid');
  t.equal(await outcome(tokens.verify(tampered)), 'token_invalid');
  t.equal(await outcome(tokens.verify('not-a-jwt')), 'token_malformed');
});

t.test('verdicts are remembered within their second only, bounded, errors included', async (t) => {
  const clock = VirtualClock.create({ start: new Date(T0), frozen: true });
  const tokens = service(clock);
  const { token } = await tokens.sign({ userId: 'u4', merchantId: 7, permissions: ['ais:balance:read'] });
  t.equal(await outcome(tokens.verify(token)), 'ok:u4');
  t.equal(await outcome(tokens.verify(token)), 'ok:u4', 'same second: same verdict');
  const wrong = `${token.split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}`;
  t.equal(await outcome(tokens.verify(wrong)), 'token_invalid');
  t.equal(await outcome(tokens.verify(wrong)), 'token_invalid', 'an error verdict keeps its code');
  clock.advance(3_600_000 + (CLOCK_TOLERANCE_S + 1) * 1000);
  t.equal(await outcome(tokens.verify(token)), 'token_expired', 'a new second is verified again');
  for (let i = 0; i < 1500; i++) await tokens.verify(`x.${i}.y`).catch(() => undefined);
  const kept = (tokens as unknown as { verdicts: Map<string, unknown> }).verdicts.size;
  t.ok(kept <= 1000, `at most 1000 verdicts kept (${kept})`);
});
