/**
 * obsim/testcontainers against the image CI builds (podman, through its Docker-compatible API
 * socket): the container is started with an HTTP wait on /healthz, answers on its mapped port, and
 * the module's client and sandboxes work against it; the docs example runs as written.
 *
 * Needs OBSIM_TESTCONTAINERS_IMAGE (the image) and DOCKER_HOST (the API socket): .ci/run builds
 * the image while the suite runs and starts `podman system service` once it is built; with
 * OBSIM_TESTCONTAINERS_WAIT_MS the test waits that long for the socket to appear (a file named
 * after the socket plus `.failed` says the image build failed: no more waiting). Without them the
 * test is skipped, visibly, outside CI; in CI (CI=true) their absence is a failure, never a silent
 * pass.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { ObsimContainer } from '../../src/testcontainers.js';
import { ROOT } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

const image = process.env.OBSIM_TESTCONTAINERS_IMAGE;
const ready = image !== undefined && process.env.DOCKER_HOST !== undefined;
t.setTimeout(scaled(300_000));

t.test(
  'ObsimContainer: started with an HTTP wait, typed client and sandboxes against the image',
  { skip: !ready && !process.env.CI ? 'no container engine here (set OBSIM_TESTCONTAINERS_IMAGE and DOCKER_HOST; .ci/run does)' : false },
  async (t) => {
    t.ok(ready, 'OBSIM_TESTCONTAINERS_IMAGE and DOCKER_HOST are set (CI builds the image and starts the podman API socket)');
    if (!ready) return;
    process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
    const socket = /^unix:\/\/(.+)$/.exec(process.env.DOCKER_HOST ?? '')?.[1];
    const waitMs = Number(process.env.OBSIM_TESTCONTAINERS_WAIT_MS ?? 0);
    const waiting = () => socket && !existsSync(socket) && !existsSync(`${socket}.failed`);
    for (const deadline = Date.now() + waitMs; waiting() && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 250));
    }
    if (socket) t.ok(existsSync(socket), `the container API socket is there (${socket})`);
    const obsim = await new ObsimContainer(image).withClock({ start: '2026-01-15T09:00:00Z', frozen: true }).start();
    t.teardown(() => obsim.stop());
    t.match(obsim.getBaseUrl(), /^http:\/\/[^:]+:\d+$/);
    const health = await fetch(`${obsim.getBaseUrl()}/healthz`);
    t.equal(health.status, 200, 'healthy as soon as start() resolves');
    const clock = await obsim.client().api.GET('/_sandbox/clock');
    t.match(clock.data, { now: '2026-01-15T09:00:00.000Z', frozen: true }, 'withClock reached the container');
    const box = await obsim.createSandbox();
    const paid = await box.client.payAndSettle({ amount: 25 });
    t.equal(paid.status, 'paid');
    t.same(obsim.getCredentials(), { clientId: 'sandbox-partner', clientSecret: 'sandbox-secret' });

    // the docs example, as written (OBSIM_IMAGE names the image)
    const docs = readFileSync(join(ROOT, 'docs/testing-with-obsim.md'), 'utf8');
    const example = docs.match(/<!-- example:testcontainers -->\n```js\n([\s\S]*?)```/)?.[1];
    t.ok(example, 'the docs have the example');
    // written under tmp/ (git-ignored) with the package name pointed at the source
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    const file = join(ROOT, 'tmp', `testcontainers-example-${process.pid}.mjs`);
    writeFileSync(file, example!.replace("'obsim/testcontainers'", `'${new URL('../../src/testcontainers.ts', import.meta.url).href}'`));
    t.teardown(() => rmSync(file, { force: true }));
    const module = pathToFileURL(file).href;
    process.env.OBSIM_IMAGE = image;
    const logs: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => void logs.push(args.join(' '));
    try {
      await import(module);
    } finally {
      console.log = log;
    }
    t.match(logs.join('\n'), /^http:\/\/\S+ sandbox-partner paid$/m, 'the example printed the base URL, the partner and paid');
  },
);
