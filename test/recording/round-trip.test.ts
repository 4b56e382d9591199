/**
 * Record → scenario, the round trip (docs/scenarios-and-cli.md "Recording a session"): every
 * shipped scenario is run in a sandbox of its own, that sandbox is recorded
 * (GET /_sandbox/scenario-draft), and the recording — validated against scenario.schema.json —
 * passes when run with --isolate on a fresh sandbox. No secret ever appears in a recording.
 */
import t from 'tap';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { expandPaths, loadScenarioFile, parseScenarioText, shippedScenariosDir, validateScenario } from '../../src/scenarios/loader.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { injectTransport } from '../../src/scenarios/transport.js';
import { build, json } from '../helpers/app.js';
import { failure } from '../helpers/scenarios.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(240_000));

const schema = JSON.parse(readFileSync(new URL('../../scenarios/scenario.schema.json', import.meta.url), 'utf8')) as object;
const validate = addFormats.default(new Ajv({ strict: false, allErrors: true })).compile(schema);

t.test('every shipped scenario: run it, record it, run the recording on a fresh sandbox', async (t) => {
  const app = await build(t);
  const transport = injectTransport(app);
  const files = expandPaths([shippedScenariosDir()]);
  t.ok(files.length >= 20, 'the shipped suite');
  for (const file of files) {
    const scenario = loadScenarioFile(file);
    await t.test(scenario.name, async (t) => {
      // frozen clocks, the original's and the replay's: the stories move time with advanceClock
      // only, so a busy machine (a payment left unopened past the settle delay on a running clock)
      // cannot make the original a story the replay never tells
      const frozenSandbox = async (name: string) =>
        json<{ sandboxId: string; credentials: { clientId: string; clientSecret: string } }>(
          await app.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: { name, clock: { frozen: true } } }),
        );
      const created = await frozenSandbox(scenario.name);
      const partner = created.credentials;
      const partnerHeaders = { 'x-partner-client-id': partner.clientId, 'x-partner-client-secret': partner.clientSecret };
      const original = await runScenario(scenario, { transport, partner });
      t.ok(original.passed, `the original passes${failure(original)}`);
      const res = await app.inject({
        method: 'GET',
        url: `/_sandbox/scenario-draft?name=${scenario.name}-recorded`,
        headers: partnerHeaders,
      });
      t.equal(res.statusCode, 200);
      t.match(res.headers['content-type'], /^application\/yaml/);
      const yaml = res.body;
      t.ok(validate(parse(yaml)), `the recording validates against scenario.schema.json ${JSON.stringify(validate.errors)}`);
      for (const secret of [partner.clientSecret, 'sandbox-secret', '[redacted]', 'whsec_'])
        t.notOk(yaml.includes(secret), `no ${secret} in it`);
      t.notMatch(yaml, /eyJ[\w-]+\.[\w-]+\./, 'no token');
      t.match(
        yaml,
        new RegExp(`^# Recorded by obsim from sandbox ${created.sandboxId}, journal entries #\\d+–#\\d+`),
        'it says what it recorded',
      );
      const recorded = validateScenario(parseScenarioText(yaml, 'recorded.yaml'), 'recorded.yaml');
      // every request the journal kept, but sandbox reads (steps only when a later step uses what they answer)
      const journal = json<{ items: { method: string; path: string }[] }>(
        await app.inject({ method: 'GET', url: '/_sandbox/requests?limit=500', headers: partnerHeaders }),
      ).items.filter((e) => !(e.method === 'GET' && e.path.startsWith('/_sandbox/')));
      t.ok(journal.length > 0);
      t.ok(
        recorded.steps.filter((s) => s.expectWebhook === undefined).length >= journal.length,
        'every request, trigger and clock move of the original is a step',
      );
      const replay = await runScenario(recorded, { transport, partner: (await frozenSandbox(`${scenario.name}-replay`)).credentials });
      t.ok(replay.passed, `the recording passes on a fresh sandbox${failure(replay)}\n${yaml}`);
      const webhooksExpected = scenario.steps.filter((s) => s.expectWebhook !== undefined).length;
      t.ok(
        recorded.steps.filter((s) => s.expectWebhook !== undefined).length >= webhooksExpected,
        'every delivery the original expected is expected',
      );
    });
  }
});
