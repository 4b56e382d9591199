/**
 * `obsim faults show|set|clear` against a listening simulator: a shipped profile with a seed, a
 * profile file, the seed printed so a run can be replayed, the injected counts, a refused profile
 * on one line with its JSON pointer (exit 2), clear.
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

t.test('obsim faults: set, show, clear; refused profiles on one line', async (t) => {
  const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent', clockFrozen: true }, () => undefined);
  t.teardown(() => server.close());
  const dir = mkdtempSync(join(tmpdir(), 'obsim-faults-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { OBSIM_BASE_URL: server.url };

  const none = await runObsim(['faults', 'show'], { env });
  t.equal(none.code, 0);
  t.equal(none.stdout, 'sandbox default: no fault profile\n');

  const outage = await runObsim(['faults', 'set', '--profile', 'provider-outage', '--seed', '7'], { env });
  t.equal(outage.code, 0, outage.stderr);
  t.match(outage.stdout, /^sandbox default: seed 7 \(provider-outage\), set /);
  t.match(outage.stdout, /#0 error 503 instead on every operation at rate 1 from .* to .*: 0 injected/);
  t.match(outage.stdout, /#1 webhook_drop on every event at rate 1/);
  const refused = await fetch(`${server.url}/v1/partner/merchants`, {
    headers: { 'x-partner-client-id': 'sandbox-partner', 'x-partner-client-secret': 'sandbox-secret' },
  });
  t.equal(refused.status, 503, 'the outage is on');

  const shown = await runObsim(['faults', 'show', '--json'], { env });
  const profile = JSON.parse(shown.stdout);
  t.match(profile, { sandboxId: 'default', active: true, seed: 7, profile: 'provider-outage', injected: [1, 0] });

  const file = join(dir, 'chaos.yaml');
  writeFileSync(
    file,
    'rules:\n  - kind: latency\n    operation: createPayment\n    rate: 0.25\n    latency: { distribution: uniform, minMs: 10, maxMs: 50 }\n',
  );
  const fromFile = await runObsim(['faults', 'set', '--file', file], { env });
  t.equal(fromFile.code, 0, fromFile.stderr);
  t.match(fromFile.stdout, /^sandbox default: seed \d+, set /, 'a seed chosen, and printed');
  t.match(fromFile.stdout, /#0 latency .* on createPayment at rate 0\.25: 0 injected/);

  writeFileSync(file, 'rules:\n  - { kind: error, rate: 0.1, status: 503 }\n  - { kind: error, rate: 3, status: 503 }\n');
  const bad = await runObsim(['faults', 'set', '--file', file], { env });
  t.equal(bad.code, 2);
  t.equal(bad.stderr.trim(), 'obsim faults: PUT /_sandbox/faults answered 400: rules[1].rate must be <= 1 (at /rules/1/rate)');
  const nothing = await runObsim(['faults', 'set'], { env });
  t.equal(nothing.code, 2);
  t.match(nothing.stderr, /give --profile, --file or both/);

  const cleared = await runObsim(['faults', 'clear'], { env });
  t.equal(cleared.stdout, 'sandbox default: no fault profile\n');
});
