/**
 * What can be verified about the image without a container engine: the Dockerfile's stages,
 * user, port, environment, healthcheck and start command stay consistent with package.json,
 * the configuration table and the CLI, and the start command really starts the server here.
 * (The real image is built and smoke-tested by ../shared/tools/container-smoke.sh in .ci/run.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { loadConfig, SETTINGS } from '../../src/config.js';
import { envOf, execForm, healthcheckOf, parseDockerfile, type Stage } from '../helpers/dockerfile.js';
import { ROOT, runnable, startCmd } from '../helpers/process.js';
import { scaled } from '../helpers/speed.js';

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

const dockerfile = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  scripts: Record<string, string>;
  engines: { node: string };
  dependencies: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
const final = dockerfile.stages.at(-1)!;
const runs = (stage: Stage) =>
  stage.instructions
    .filter((i) => i.keyword === 'RUN')
    .map((i) => i.args)
    .join('\n');
const last = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword).at(-1);
const defaultPort = SETTINGS.find((s) => s.key === 'port')!.default;

t.test('multi-stage on an official Node LTS Debian slim image', async (t) => {
  t.ok(dockerfile.stages.length >= 2, 'at least a build stage and a runtime stage');
  for (const stage of dockerfile.stages) {
    const m = /^(?:docker\.io\/(?:library\/)?)?node:(\d+)-(bookworm|bullseye|trixie)-slim$/.exec(stage.from);
    t.ok(m, `${stage.name ?? 'stage'} FROM ${stage.from} is node:<major>-<debian>-slim`);
    if (m) {
      t.equal(Number(m[1]) % 2, 0, 'an LTS (even) major');
      const min = Number(/>=\s*(\d+)/.exec(pkg.engines.node)?.[1]);
      t.ok(Number(m[1]) >= min, `Node ${m[1]} satisfies engines ${pkg.engines.node}`);
    }
  }
});

t.test("the build stage installs the lockfile, keeps the SQLite driver's binary for the image's platform and builds dist", async (t) => {
  const build = dockerfile.stages[0];
  const script = runs(build);
  t.match(script, /npm ci\b/, 'installs exactly the lockfile');
  t.notMatch(
    script,
    /apt-get|node-gyp|build-from-source/,
    'nothing compiled: better-sqlite3 carries its Node-API binaries in its npm package',
  );
  t.match(script, /getPrebuildPath\(\)/, "the driver's own lookup names the binary kept for this platform");
  t.match(script, /find node_modules\/better-sqlite3\/prebuilds[^\n]*-delete/, "the other platforms' binaries are dropped");
  t.match(script, /new \(require\('better-sqlite3'\)\)/, 'the driver is loaded once to prove the binary kept is the right one');
  t.match(script, /npm run build:image/, 'compiles TypeScript');
  t.match(script, /npm ci --omit=dev/, 'installs the production dependencies only');
  t.match(
    script,
    /"typescript@\$\(node -p "require\('\.\/package\.json'\)\.devDependencies\.typescript"\)"/,
    "the compiler at package.json's version",
  );
  // the image's JavaScript is what `npm run build` emits: the same compiler run, the type check and
  // the declarations (which the image does not carry) left out, then the same precompile step
  const [tsc, ...rest] = pkg.scripts.build.split(' && ');
  t.equal(
    pkg.scripts['build:image'],
    [`${tsc} --noCheck --declaration false`, ...rest].join(' && '),
    'build:image is build without the type check',
  );
  t.ok('better-sqlite3' in pkg.dependencies, 'better-sqlite3 is a production dependency');
});

t.test('the runtime stage: production files only, non-root, port, environment', async (t) => {
  const copies = final.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
  t.ok(
    copies.every((c) => c.startsWith('--from=')),
    'everything comes from the build stage (no source tree)',
  );
  t.ok(
    copies.some((c) => /\bnode_modules\b/.test(c)),
    'node_modules (pruned)',
  );
  t.ok(
    copies.some((c) => /\bdist\b/.test(c)),
    'dist',
  );
  t.ok(
    copies.some((c) => /\bscenarios\b/.test(c)),
    'the shipped scenarios (read at runtime by /_sandbox/scenarios and `obsim scenario run <name>`)',
  );
  t.ok(
    copies.some((c) => /\bpersonas\b/.test(c)),
    'the shipped personas (read at runtime by POST /_sandbox/sandboxes { persona } and serve --persona)',
  );
  t.ok(
    copies.some((c) => /\bpackage\.json\b/.test(c)),
    'package.json ("type": "module"; marks the package root)',
  );
  t.notOk(runs(final).match(/apt-get|npm (ci|install)/), 'no compilers or installs in the runtime stage');

  const user = last(final, 'USER')?.args;
  t.ok(user, 'USER is set');
  t.notOk(user === 'root' || user === '0' || user?.startsWith('0:'), `runs as ${user}, not root`);

  const expose = last(final, 'EXPOSE')?.args;
  t.equal(expose?.split('/')[0], String(defaultPort), 'EXPOSE is the configured default port');

  const env = envOf(final);
  t.equal(env.HOST, '0.0.0.0', 'listens on every interface in the container');
  t.equal(env.OBSIM_DB, ':memory:', 'in-memory database by default');
  const known = new Set(SETTINGS.map((s) => s.env));
  for (const name of Object.keys(env)) {
    if (['NODE_ENV', 'PATH', 'NODE_OPTIONS', 'NODE_COMPILE_CACHE'].includes(name)) continue;
    t.ok(known.has(name), `ENV ${name} is a documented setting`);
  }
  const config = loadConfig({}, env);
  t.equal(config.port, defaultPort, 'the image ENV parses to a valid configuration');
  t.equal(config.host, '0.0.0.0');

  // Node's compile cache: written at build time by a command that loads the server, then owned
  // by the runtime user (Node updates it when a start compiles something the warm-up did not)
  const cache = env.NODE_COMPILE_CACHE;
  t.ok(cache?.startsWith('/app/'), 'the compile cache lives in the image');
  t.match(runs(final), /node dist\/src\/bin\.js openapi/, 'warmed by loading the app at build time');
  t.ok(runs(final).includes(`chown -R node:node ${cache}`), 'writable by the runtime user');

  const dataDir = runs(final).match(/mkdir -p (\/\S+)/)?.[1];
  t.equal(dataDir, '/data', 'a /data directory for the documented volume');
  t.match(runs(final), /chown[^\n]*node[^\n]*\/data/, 'writable by the runtime user');
  t.match(readFileSync(join(ROOT, 'README.md'), 'utf8'), /OBSIM_DB=\/data\/obsim\.sqlite/, 'README documents the volume');
});

t.test('HEALTHCHECK probes /healthz with node (no curl in slim images)', async (t) => {
  const hc = healthcheckOf(final);
  t.ok(hc, 'HEALTHCHECK present');
  t.equal(hc!.command[0], 'node');
  t.match(hc!.command.join(' '), /\/healthz/);
  t.match(hc!.command.join(' '), /process\.env\.PORT/, 'follows the PORT setting');
  t.ok(hc!.options.interval && hc!.options.timeout && hc!.options.retries, 'interval, timeout and retries set');
});

t.test('CMD is the package bin running `serve`, same as npm start', async (t) => {
  const cmd = execForm(last(final, 'CMD')!.args);
  t.equal(cmd[0], 'node', 'exec form with node as PID 1 receives SIGTERM itself');
  t.equal(cmd[1], pkg.bin.obsim, 'the package.json bin');
  t.equal(cmd[2], 'serve');
  t.equal(pkg.scripts.start, cmd.join(' '), 'npm start runs the same command');
  t.equal(last(final, 'WORKDIR')?.args, '/app');
  const stop = last(final, 'STOPSIGNAL')?.args;
  t.ok(stop === undefined || stop === 'SIGTERM');
});

t.test('.dockerignore keeps the context small without hiding build inputs', async (t) => {
  const ignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const must of ['node_modules', 'dist', '.git', 'data']) t.ok(ignore.includes(must), `ignores ${must}`);
  // src, schemas and fixtures are compiled into dist (fixtures: sandbox banks, users, companies);
  // scenarios, personas, the OpenAPI documents and the docs' pages are copied into the runtime
  // stage (`obsim mcp` serves the last two): without any of them the image build fails
  const needed = [
    'src',
    'schemas',
    'fixtures',
    'scenarios',
    'personas',
    'openapi.json',
    'openapi-controls.json',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
  ];
  for (const path of needed) {
    t.ok(existsSync(join(ROOT, path)), `${path} exists`);
    t.notOk(ignore.includes(path), `keeps ${path}`);
    const files = statSync(join(ROOT, path)).isDirectory() ? readdirSync(join(ROOT, path)).map((f) => `${path}/${f}`) : [];
    const excluded = [path, ...files].filter((f) => dockerIgnored(ignore, f));
    t.same(excluded, [], `no .dockerignore pattern excludes ${path}${files.length ? ` or the ${files.length} files in it` : ''}`);
  }
  t.notOk(dockerIgnored(ignore, 'docs/partner-api.md'), "keeps the docs' pages");
  t.ok(dockerIgnored(ignore, 'docs/images/console-overview.png'), 'but not their screenshots');
  t.ok(
    dockerIgnored(ignore, 'test/x.test.ts') && dockerIgnored(ignore, 'a.sqlite') && !dockerIgnored(ignore, 'src/app.ts'),
    'the matcher itself works',
  );
});

/**
 * Whether Docker would leave `path` out of the build context: the last pattern matching the path
 * or one of its parent directories wins; `!pattern` re-includes. Patterns follow Go's
 * filepath.Match plus `**` (what Docker implements).
 */
function dockerIgnored(patterns: string[], path: string): boolean {
  const toRegex = (pattern: string) =>
    new RegExp(
      `^${pattern
        .replace(/^\/+|\/+$/g, '')
        .split(/(\*\*\/?|\*|\?)/)
        .map((part) =>
          part === '**/'
            ? '(?:.*/)?'
            : part === '**'
              ? '.*'
              : part === '*'
                ? '[^/]*'
                : part === '?'
                  ? '[^/]'
                  : part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
        )
        .join('')}$`,
    );
  const prefixes = path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const re = toRegex(negated ? raw.slice(1) : raw);
    if (prefixes.some((p) => re.test(p))) ignored = !negated;
  }
  return ignored;
}

t.test('the image start command starts the server on this machine; the healthcheck passes', async (t) => {
  const cmd = execForm(last(final, 'CMD')!.args);
  const { fromSource } = runnable(cmd);
  if (fromSource) t.comment('dist/ not built: running the same entry point from source (src/bin.ts via tsx)');
  const env = { ...envOf(final), HOST: '127.0.0.1', PORT: '0' };
  const server = await startCmd(cmd, env);
  t.teardown(() => void server.child.kill('SIGKILL'));
  t.match(server.stdout(), /obsim sandbox simulator listening on http:\/\/127\.0\.0\.1:\d+/);
  t.match(server.stdout(), /database:\s+:memory:/);

  const res = await fetch(`${server.url}/healthz`);
  t.equal(res.status, 200);
  t.match(await res.json(), { status: 'ok', environment: 'sandbox' });

  const hc = healthcheckOf(final)!.command;
  const probe = (port: number) =>
    spawnSync(process.execPath, hc.slice(1), { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, timeout: scaled(10_000) });
  t.equal(probe(server.port).status, 0, 'HEALTHCHECK command exits 0 while healthy');

  server.child.kill('SIGTERM');
  const exit = await server.exited;
  t.same(exit, { code: 0, signal: null }, 'exits 0 on SIGTERM');
  t.equal(probe(server.port).status, 1, 'HEALTHCHECK command exits 1 when nothing answers');
});

t.test('every package the runtime code imports is a production dependency (the image prunes dev ones)', async (t) => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.ts')) files.push(join(dir, e.name));
    }
  };
  for (const dir of ['src', 'schemas', 'fixtures']) if (existsSync(join(ROOT, dir))) walk(join(ROOT, dir));
  const used = new Map<string, string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const specs = [
      ...[...text.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]),
      ...[...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]),
      ...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]),
    ];
    for (const spec of specs) {
      if (spec.startsWith('.') || spec.startsWith('node:')) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      used.set(name, file.replace(ROOT, ''));
    }
  }
  t.ok(used.size > 5, `found ${used.size} runtime packages`);
  // an optional peer dependency is the consumer's to install (obsim/testcontainers imports
  // testcontainers; nothing the image runs imports that module)
  const optionalPeers = Object.keys(pkg.peerDependenciesMeta ?? {}).filter((n) => pkg.peerDependenciesMeta?.[n].optional);
  for (const [name, file] of used) {
    if (optionalPeers.includes(name)) {
      t.match(file, /^\/?src\/testcontainers\.ts$/, `${name} (optional peer dependency) is imported only by the module that needs it`);
      continue;
    }
    t.ok(name in pkg.dependencies, `${name} (imported by ${file}) is in dependencies`);
  }
});

t.test('dist is what the image runs', { skip: !existsSync(join(ROOT, 'dist/src/bin.js')) && 'dist not built' }, async (t) => {
  const head = readFileSync(join(ROOT, 'dist/src/bin.js'), 'utf8').split('\n')[0];
  t.equal(head, '#!/usr/bin/env node', 'bin keeps its shebang (also linked as `obsim` in the image)');
});
