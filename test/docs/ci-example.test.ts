/**
 * The README's ready-to-copy GitHub Actions job ("CI: the simulator as a service container") stays
 * runnable: it is valid YAML, every OBSIM_* variable it sets is a real setting (SETTINGS in
 * src/config.ts, or an env of `obsim scenario run`), the values parse, the service port is the
 * image's port, and every `obsim scenario run` command in the section uses only flags the CLI has.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import t from 'tap';
import { parse } from 'yaml';
import { buildCli } from '../../src/cli.js';
import { loadConfig, SETTINGS } from '../../src/config.js';
import { ROOT } from '../helpers/process.js';

const readme = readFileSync(join(ROOT, 'docs/container-and-ci.md'), 'utf8');
const section = /### CI: the simulator as a service container[^\n]*\n([\s\S]*?)(?=\n#{2,3} )/.exec(readme)?.[1] ?? '';
const yamlText = /```ya?ml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';

interface Job {
  services?: Record<string, { image?: string; ports?: string[]; env?: Record<string, unknown> }>;
  env?: Record<string, unknown>;
  steps?: { run?: string; env?: Record<string, unknown> }[];
}

const subcommand = (cmd: Command, name: string) => cmd.commands.find((c) => c.name() === name)!;
const scenarioRun = subcommand(subcommand(buildCli(), 'scenario'), 'run');
const runOptions = scenarioRun.options;
const settingEnvs = new Set<string>(SETTINGS.map((s) => s.env));
const runEnvs = new Set(runOptions.map((o) => o.envVar).filter((e): e is string => e !== undefined));

/** Every `obsim scenario run …` command in a shell text, line continuations joined. */
/** The arguments of each `obsim scenario run …` command; a bare mention of the command name in prose is not a command. */
function scenarioRunCommands(text: string): string[] {
  return [...text.replace(/\\\n\s*/g, ' ').matchAll(/obsim scenario run\b([^\n`]*)/g)]
    .map((m) => m[1].trim())
    .filter((args) => args !== '');
}

t.test('the README CI example is valid YAML with a job, an obsim service and steps', async (t) => {
  t.ok(section, 'README has the CI section');
  t.ok(yamlText, 'the section has a yaml block');
  const doc = parse(yamlText) as { jobs: Record<string, Job> };
  const jobs = Object.values(doc.jobs ?? {});
  t.equal(jobs.length, 1, 'one job');
  t.ok(jobs[0]?.services?.obsim, 'an obsim service container');
  t.ok((jobs[0]?.steps ?? []).length > 0, 'steps');
});

t.test('every OBSIM_* variable in the CI example exists, and the service configuration parses', async (t) => {
  const doc = parse(yamlText) as { jobs: Record<string, Job> };
  const job = Object.values(doc.jobs)[0];
  const service = job.services!.obsim;
  const serviceEnv = Object.fromEntries(Object.entries(service.env ?? {}).map(([k, v]) => [k, String(v)]));
  const serviceNames = Object.keys(serviceEnv).filter((k) => k.startsWith('OBSIM_'));
  t.ok(serviceNames.length >= 2, `the service sets OBSIM_* variables (${serviceNames.join(', ')})`);
  for (const name of serviceNames) t.ok(settingEnvs.has(name), `service env ${name} is a setting in SETTINGS`);
  const config = loadConfig({}, { OBSIM_DB: ':memory:', ...serviceEnv });
  t.equal(config.environment, serviceEnv.OBSIM_ENVIRONMENT ?? 'sandbox', 'the values parse to a configuration');

  // anywhere else in the section (job env, step env, `-e` flags in run scripts, the prose)
  const elsewhere = new Set([...section.matchAll(/\bOBSIM_[A-Z0-9_]+/g)].map((m) => m[0]));
  for (const name of serviceNames) elsewhere.delete(name);
  for (const name of elsewhere)
    t.ok(settingEnvs.has(name) || runEnvs.has(name), `${name} is a setting or an env of \`obsim scenario run\``);

  const port = SETTINGS.find((s) => s.key === 'port')!.default;
  t.same(
    (service.ports ?? []).map((p) => String(p).split(':').at(-1)),
    [String(port)],
    `the service maps the image's port ${port}`,
  );
  t.match(JSON.stringify(job), new RegExp(`localhost:${port}/healthz`), 'the job waits on /healthz');
});

t.test('every `obsim scenario run` in the CI section uses flags the CLI has', async (t) => {
  const known = new Set(runOptions.flatMap((o) => [o.long, o.short]).filter((f): f is string => f !== undefined));
  const doc = parse(yamlText) as { jobs: Record<string, Job> };
  const runs = Object.values(doc.jobs).flatMap((j) => (j.steps ?? []).map((s) => s.run ?? ''));
  const commands = [...runs.flatMap(scenarioRunCommands), ...scenarioRunCommands(section.replace(yamlText, ''))];
  t.ok(commands.length >= 2, `found ${commands.length} scenario run commands (in the job and in the text)`);
  for (const command of commands) {
    const flags = command.split(/\s+/).filter((w) => w.startsWith('-'));
    t.ok(flags.length > 0, `flags in: ${command}`);
    for (const flag of flags) t.ok(known.has(flag.split('=')[0]), `obsim scenario run ${flag.split('=')[0]} exists`);
    // the shipped scenarios live in /app/scenarios in the image (WORKDIR /app, COPY … ./scenarios)
    if (command.includes('/app/scenarios')) {
      t.match(
        readFileSync(join(ROOT, 'Dockerfile'), 'utf8'),
        /WORKDIR \/app[\s\S]*COPY --from=\S+ \S*\/scenarios \.\/scenarios/,
        'the image has /app/scenarios',
      );
    }
  }
});
