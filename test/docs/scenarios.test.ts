import t from 'tap';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { STEP_KINDS } from '../../schemas/scenario.js';
import { replaceBlock, shippedScenariosMarkdown, stepReferenceMarkdown } from '../../src/scenarios/docs.js';
import { buildCli } from '../../src/cli.js';

const readme = readFileSync(resolve(import.meta.dirname, '../../docs/scenarios-and-cli.md'), 'utf8');
const section = readme.slice(
  readme.indexOf('## Scenarios and the command line'),
  readme.indexOf('\n## ', readme.indexOf('## Scenarios and the command line') + 5),
);

t.test('README step reference and shipped-scenario list are the generated ones', async (t) => {
  const regenerate = 'regenerate: replaceBlock(README, "scenario-steps" | "scenario-list", …) from src/scenarios/docs.ts';
  t.equal(replaceBlock(readme, 'scenario-steps', stepReferenceMarkdown()), readme, `step reference is current (${regenerate})`);
  t.equal(replaceBlock(readme, 'scenario-list', shippedScenariosMarkdown()), readme, `shipped scenario list is current (${regenerate})`);
  for (const kind of Object.keys(STEP_KINDS)) t.match(section, `#### \`${kind}\``, `${kind} documented`);
});

t.test('README documents every option of scenario run and listen', async (t) => {
  const program = buildCli();
  const scenario = program.commands.find((c) => c.name() === 'scenario')!;
  const run = scenario.commands.find((c) => c.name() === 'run')!;
  const listen = program.commands.find((c) => c.name() === 'listen')!;
  for (const opt of [...run.options, ...listen.options]) t.match(section, opt.long!, `${opt.long} documented`);
  for (const sub of scenario.commands) t.match(section, `obsim scenario ${sub.name()}`, `scenario ${sub.name()} documented`);
});
