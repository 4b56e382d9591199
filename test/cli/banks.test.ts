/**
 * `obsim banks show|set|reset` against a listening simulator: a shipped profile, a profile file
 * with a seed, one line per bank saying what its profile changes, a refused profile on one line
 * with its JSON pointer (exit 2), an unknown bank, reset one and all.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { defaultConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { runObsim } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));

t.test('obsim banks: set, show, reset; refusals on one line', async (t) => {
  const server = await startServer(
    { ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent', clockFrozen: true, clockStart: '2026-01-15T09:00:00.000Z' },
    () => undefined,
  );
  t.teardown(() => server.close());
  const dir = mkdtempSync(join(tmpdir(), 'obsim-banks-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { OBSIM_BASE_URL: server.url };

  const none = await runObsim(['banks', 'show'], { env });
  t.equal(none.code, 0, none.stderr);
  t.equal(none.stdout.split('\n').filter(Boolean).length, 5);
  t.match(none.stdout, /^nordlys-bank {6}DK healthy {2}no profile$/m);

  const outage = await runObsim(['banks', 'set', 'nordlys-bank', '--profile', 'outage-1h'], { env });
  t.equal(outage.code, 0, outage.stderr);
  t.equal(
    outage.stdout,
    'nordlys-bank      DK down     profile outage-1h; down from 2026-01-15T09:00:00.000Z until 2026-01-15T10:00:00.000Z\n',
  );

  const file = join(dir, 'degraded.yaml');
  writeFileSync(file, 'profile: degraded\nfailureRate: 0.5\nais:\n  pageSize: 25\n');
  const degraded = await runObsim(['banks', 'set', 'fjord-sparekasse', '--file', file, '--seed', '7'], { env });
  t.equal(degraded.code, 0, degraded.stderr);
  t.match(degraded.stdout, 'fjord-sparekasse  DK degraded profile degraded; degraded; failureRate 0.5, seed 7; ais pageSize=25');

  const json = JSON.parse((await runObsim(['banks', 'show', 'fjord-sparekasse', '--json'], { env })).stdout);
  t.match(json, { bankId: 'fjord-sparekasse', health: 'degraded', profile: { failureRate: 0.5, seed: 7, ais: { pageSize: 25 } } });

  writeFileSync(file, 'settlement:\n  cutOff: "3pm"\n');
  const bad = await runObsim(['banks', 'set', 'nordlys-bank', '--file', file], { env });
  t.equal(bad.code, 2);
  t.match(bad.stderr, 'obsim banks: PUT /_sandbox/banks/nordlys-bank answered 400: settlement.cutOff must match pattern');
  t.match(bad.stderr, '(at /settlement/cutOff)');
  const unknown = await runObsim(['banks', 'show', 'no-bank'], { env });
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, '"no-bank" is not a sandbox bank; one of: nordlys-bank');
  t.match(unknown.stderr, '(at /bankId)');
  const nothing = await runObsim(['banks', 'set', 'nordlys-bank'], { env });
  t.equal(nothing.code, 2);
  t.match(nothing.stderr, 'give --profile, --file or both');

  const one = await runObsim(['banks', 'reset', 'fjord-sparekasse'], { env });
  t.equal(one.stdout, 'fjord-sparekasse  DK healthy  no profile\n');
  const all = await runObsim(['banks', 'reset', '--all'], { env });
  t.equal(all.code, 0, all.stderr);
  t.notMatch(all.stdout, /profile /);
  const neither = await runObsim(['banks', 'reset'], { env });
  t.equal(neither.code, 2);
});
