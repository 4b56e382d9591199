import t from 'tap';
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parse } from 'yaml';
import { scenarioJsonSchema, STEP_KINDS } from '../../schemas/scenario.js';
import { expandPaths, loadScenarioFile, shippedScenariosDir } from '../../src/scenarios/loader.js';
import { STEP_HANDLERS } from '../../src/scenarios/steps/index.js';

const dir = shippedScenariosDir();

t.test('scenarios/scenario.schema.json is exactly the schema of schemas/scenario.ts', async (t) => {
  const onDisk = JSON.parse(readFileSync(join(dir, 'scenario.schema.json'), 'utf8'));
  t.same(
    onDisk,
    JSON.parse(JSON.stringify(scenarioJsonSchema)),
    'regenerate with: obsim scenario schema --out scenarios/scenario.schema.json',
  );
});

t.test('every step kind of the schema has a handler, and no handler is missing from the schema', async (t) => {
  t.same(Object.keys(STEP_HANDLERS).sort(), Object.keys(STEP_KINDS).sort());
});

t.test('every shipped scenario is valid against the JSON file an editor would use, and loads', async (t) => {
  const ajv = new Ajv({ strict: false, allowUnionTypes: true });
  const validate = ajv.compile(JSON.parse(readFileSync(join(dir, 'scenario.schema.json'), 'utf8')));
  const files = expandPaths([dir]);
  t.ok(files.length >= 15, `${files.length} shipped scenarios`);
  const names = new Set<string>();
  for (const file of files) {
    const doc = parse(readFileSync(file, 'utf8'));
    t.ok(validate(doc), `${basename(file)} ${JSON.stringify(validate.errors ?? [])}`);
    const s = loadScenarioFile(file);
    t.equal(s.name, basename(file, extname(file)), 'name = file name');
    t.notOk(names.has(s.name), 'unique name');
    names.add(s.name);
    t.ok(s.description, `${s.name} has a description`);
    t.match(readFileSync(file, 'utf8'), /^# yaml-language-server: \$schema=\.\/scenario\.schema\.json/, 'points editors at the schema');
  }
});

// Coverage of every state and event is checked by observation, not by the declared `covers:`
// tags: see test/scenarios/shipped.test.ts.
