/**
 * HAR → scenario, the round trip (docs/partner-tools.md "A HAR becomes a scenario"): every
 * shipped scenario is run in a sandbox of its own, that sandbox's traffic is exported as HAR
 * (GET /_sandbox/requests?format=har), the HAR — validated against the registry's har-schema — is
 * imported, and the import passes when run on a fresh sandbox. One obsim for the whole file,
 * in-process. No secret of the original run appears in an import.
 */
import t from 'tap';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { defaultConfig } from '../../src/config.js';
import { lifecycleSettings } from '../../src/domain/settings.js';
import { importHar } from '../../src/har-import/import.js';
import { expandPaths, loadScenarioFile, parseScenarioText, shippedScenariosDir, validateScenario } from '../../src/scenarios/loader.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { injectTransport } from '../../src/scenarios/transport.js';
import { build, json } from '../helpers/app.js';
import { failure } from '../helpers/scenarios.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(300_000));

const schema = JSON.parse(readFileSync(new URL('../../scenarios/scenario.schema.json', import.meta.url), 'utf8')) as object;
const validate = addFormats.default(new Ajv({ strict: false, allErrors: true })).compile(schema);
const settings = lifecycleSettings(defaultConfig());

t.test('every shipped scenario: run it, export its traffic as HAR, import it, run the import on a fresh sandbox', async (t) => {
  const app = await build(t);
  const transport = injectTransport(app);
  const files = expandPaths([shippedScenariosDir()]);
  t.ok(files.length >= 20, 'the shipped suite');
  for (const file of files) {
    const scenario = loadScenarioFile(file);
    await t.test(scenario.name, async (t) => {
      const frozenSandbox = async (name: string) =>
        json<{ sandboxId: string; credentials: { clientId: string; clientSecret: string } }>(
          await app.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: { name, clock: { frozen: true } } }),
        );
      const partner = (await frozenSandbox(scenario.name)).credentials;
      const original = await runScenario(scenario, { transport, partner });
      t.ok(original.passed, `the original passes${failure(original)}`);
      const res = await app.inject({
        method: 'GET',
        url: '/_sandbox/requests?format=har&limit=500',
        headers: { 'x-partner-client-id': partner.clientId, 'x-partner-client-secret': partner.clientSecret },
      });
      t.equal(res.statusCode, 200);
      const imported = importHar(res.body, { name: `${scenario.name}-imported`, origin: `${scenario.name}.har`, settings });
      t.ok(validate(parse(imported.yaml)), `the import validates against scenario.schema.json ${JSON.stringify(validate.errors)}`);
      for (const secret of [partner.clientSecret, '[redacted]', 'whsec_']) t.notOk(imported.yaml.includes(secret), `no ${secret} in it`);
      t.notMatch(imported.yaml, /eyJ[\w-]+\.[\w-]+\./, 'no token');
      t.equal(imported.summary.skipped.length, 0, 'nothing of obsim’s own traffic is skipped');
      const replay = await runScenario(validateScenario(parseScenarioText(imported.yaml, 'imported.yaml'), 'imported.yaml'), {
        transport,
        partner: (await frozenSandbox(`${scenario.name}-replay`)).credentials,
      });
      t.ok(replay.passed, `the import passes on a fresh sandbox${failure(replay)}\n${imported.yaml}`);
    });
  }
});
