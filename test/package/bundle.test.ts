/**
 * The one-file bundle (scripts/bundle.mjs, dist/bundle/src/cli.mjs): `obsim serve` from
 * dist/src/bin.js runs from it after a build, and everything that finds files or packages at run
 * time still does from there: the precompiled schemas, the shipped personas and scenarios, the
 * lazily loaded packages (yaml, undici), the swagger UI's static files and the console's assets.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { inCI } from '../helpers/browser.js';
import { ROOT, runnable } from '../helpers/process.js';

t.setTimeout(120_000);
const BUNDLE = join(ROOT, 'dist/bundle/src/cli.mjs');
const stale = runnable(['node', 'dist/src/bin.js']).fromSource;
const skip = stale && !inCI() ? 'dist/ is older than the sources: run `npm run build` to test the bundle' : false;

t.test('obsim serve runs from the bundle, and what it loads at run time is found', { skip }, async (t) => {
  t.ok(existsSync(BUNDLE), 'npm run build wrote the bundle');
  t.ok(statSync(BUNDLE).mtimeMs >= statSync(join(ROOT, 'dist/src/bin.js')).mtimeMs, 'not older than bin.js');

  const received: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(body);
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.teardown(() => receiver.close());

  // bin.js in a child whose argv is `obsim serve …`; it reports whether the bundle's code ran
  const script = `
    process.argv = [process.argv[0], ${JSON.stringify(join(ROOT, 'dist/src/bin.js'))}, 'serve', '--port', '0', '--db', ':memory:', '--persona', 'shop-with-history'];
    await import(${JSON.stringify(join(ROOT, 'dist/src/bin.js'))});
    console.log('BUNDLE=' + (globalThis[Symbol.for('obsim.bundle')] === true));
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', OBSIM_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => child.kill('SIGKILL'));
  for (let i = 0; i < 600 && !/BUNDLE=/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
  t.match(out, /BUNDLE=true/, `bin.js started from the bundle (stderr: ${err.slice(0, 500)})`);
  const url = /listening on (http:\/\/\S+)/.exec(out)![1];
  t.match(out, /console:\s+http:\/\/\S+\/console/);

  const H = { 'x-partner-client-id': 'sandbox-partner', 'x-partner-client-secret': 'sandbox-secret', 'content-type': 'application/json' };
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${url}${path}`, { headers });
  t.equal((await get('/healthz')).status, 200);
  const openapi = (await (await get('/openapi.json')).json()) as { paths: Record<string, unknown> };
  t.ok(openapi.paths['/v1/partner/payments'], '/openapi.json (@fastify/swagger, outside the bundle)');
  t.equal((await get('/docs/static/index.html')).status, 200, "the swagger UI's static files");
  t.equal((await get('/console/assets/htmx.min.js')).status, 200, "the console's htmx, from node_modules");
  t.equal((await get('/console/sign-in')).status, 200);
  const history = (await (await get('/_sandbox/payments?referenceNumber=order-1001', H)).json()) as {
    items: { payment: { status: string } }[];
  };
  t.match(history.items, [{ payment: { status: 'paid' } }], 'the shipped persona shop-with-history was built');

  await fetch(`${url}/v1/partner/webhooks`, {
    method: 'POST',
    headers: H,
    body: JSON.stringify({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, events: ['merchant.activated'] }),
  });
  const run = (await (
    await fetch(`${url}/_sandbox/scenarios/run`, { method: 'POST', headers: H, body: JSON.stringify({ name: 'payment-paid' }) })
  ).json()) as {
    passed: boolean;
  };
  t.equal(run.passed, true, 'a shipped scenario (YAML, loaded lazily) runs');
  await fetch(`${url}/v1/partner/merchants/test`, { method: 'POST', headers: H, body: JSON.stringify({ companyName: 'Bundle ApS' }) });
  for (let i = 0; i < 100 && !received.some((b) => b.includes('Bundle ApS')); i++) await new Promise((r) => setTimeout(r, 50));
  t.ok(
    received.some((b) => b.includes('merchant.activated')),
    'a webhook was delivered (undici, loaded lazily)',
  );

  child.kill('SIGTERM');
  t.equal(await exited, 0, 'stops cleanly');
});
