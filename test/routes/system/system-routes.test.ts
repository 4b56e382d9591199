/**
 * The system routes besides the API: GET /docs (the browsable reference, swagger-ui served from
 * the simulator itself) and GET /healthz, 200 while the database answers and 503 in the one
 * ErrorBody when it does not.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { build, json, schemaErrors } from '../../helpers/app.js';

t.test("GET /docs answers 200 HTML that loads only the simulator's own assets and its OpenAPI document", async (t) => {
  const app = await build(t);
  const res = await app.inject({ url: '/docs' });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/html/);
  t.match(res.body, /<!DOCTYPE html>/i);
  t.match(res.body, /<div id="swagger-ui">/);
  const assets = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  t.ok(assets.length >= 3, `the page references its scripts and styles: ${assets.join(', ')}`);
  t.same(
    assets.filter((a) => !a.startsWith('/docs/static/')),
    [],
    'no external assets (works offline)',
  );
  for (const asset of assets) {
    const r = await app.inject({ url: asset });
    t.equal(r.statusCode, 200, `${asset} is served`);
  }

  // the page switches between the two documents, the provider's first; both are served, as committed
  const initializer = await app.inject({ url: '/docs/static/swagger-initializer.js' });
  t.equal(initializer.statusCode, 200);
  t.match(
    initializer.body,
    /"urls":\[\{"url":"\/openapi\.json","name":"Provider API"\},\{"url":"\/_sandbox\/openapi\.json","name":"obsim controls"\}\]/,
  );
  for (const [url, file] of [
    ['/openapi.json', 'openapi.json'],
    ['/_sandbox/openapi.json', 'openapi-controls.json'],
  ]) {
    const doc = await app.inject({ url });
    t.equal(doc.statusCode, 200, `${url} answers without credentials`);
    t.same(json(doc), JSON.parse(readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8')), `${url} is ${file}`);
  }
});

t.test('GET /healthz: 200 while the database answers, 503 in ErrorBody when it does not', async (t) => {
  const app = await build(t);
  const ok = await app.inject({ url: '/healthz' });
  t.equal(ok.statusCode, 200);
  t.match(json(ok), { status: 'ok', environment: 'sandbox', time: app.clock.iso() });

  app.db.close(); // the database becomes unusable under the running app
  const down = await app.inject({ url: '/healthz' });
  t.equal(down.statusCode, 503);
  t.match(down.headers['content-type'], /^application\/json/);
  const body = json(down);
  t.same(schemaErrors('ErrorBody', body), [], 'the one error shape (also checked by --validate-responses, on in tests)');
  t.match(body, { status: 503, code: 'storage_unavailable', message: /the database does not answer/ });
  t.equal(body.requestId, down.headers['x-request-id']);
});
