/**
 * The OpenAPI documents and /docs are built on first use (src/plugins/swagger.ts): a start loads
 * neither @fastify/swagger nor swagger-ui (with @fastify/static), and the first read loads them
 * and answers as they always did: the committed documents byte for byte, swagger-ui's assets with
 * their validators and lengths (HEAD too), and this simulator's 404 for a path swagger-ui lacks.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import t from 'tap';
import { build, json, schemaErrors } from '../../helpers/app.js';

const require = createRequire(import.meta.url);
const DOC_PACKAGES = /node_modules\/@fastify\/(swagger|swagger-ui|static)\//;
const docPackagesLoaded = () => Object.keys(require.cache).filter((file) => DOC_PACKAGES.test(file));

t.test('a start loads no documentation package; the first read of a document loads them', async (t) => {
  const app = await build(t);
  t.same(docPackagesLoaded(), [], 'nothing of @fastify/swagger, swagger-ui or @fastify/static after the start');
  t.notOk(app.hasDecorator('swagger'), 'the app itself carries no swagger decorator');

  const health = await app.inject({ url: '/healthz' });
  t.equal(health.statusCode, 200);
  t.same(docPackagesLoaded(), [], 'nor after an API request');

  const doc = await app.inject({ url: '/openapi.json' });
  t.equal(doc.statusCode, 200);
  t.same(json(doc), JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8')), 'the committed document');
  t.ok(
    docPackagesLoaded().some((f) => f.includes('@fastify/swagger/')),
    'loaded by the first read',
  );
  t.equal(await app.openapiDocument('provider'), await app.openapiDocument('provider'), 'built once');
});

t.test("/docs from the documents app: swagger-ui's answers, HEAD lengths, validators, and obsim's 404", async (t) => {
  const app = await build(t);
  const page = await app.inject({ url: '/docs' });
  t.equal(page.statusCode, 200);
  t.match(page.headers['content-type'], /^text\/html/);
  t.match(page.headers['x-request-id'], /^req_[0-9a-f]{24}$/, "the simulator's own request id");

  const css = await app.inject({ url: '/docs/static/swagger-ui.css' });
  t.equal(css.statusCode, 200);
  t.match(css.headers['content-type'], /^text\/css/);
  t.match(css.headers['content-security-policy'], /default-src 'self'/, "swagger-ui's CSP (staticCSP)");
  const head = await app.inject({ method: 'HEAD', url: '/docs/static/swagger-ui.css' });
  t.equal(head.statusCode, 200);
  t.equal(head.headers['content-length'], String(css.rawPayload.length), "HEAD tells the GET's length");
  t.equal(head.rawPayload.length, 0, 'HEAD sends no body');

  const again = await app.inject({ url: '/docs/static/swagger-ui.css', headers: { 'if-none-match': String(css.headers.etag) } });
  t.equal(again.statusCode, 304, 'a cached asset is not sent again');

  const missing = await app.inject({ url: '/docs/static/no-such-file.js' });
  t.equal(missing.statusCode, 404);
  t.same(schemaErrors('ErrorBody', json(missing)), [], 'the one error shape');
  t.match(json(missing), { status: 404, code: 'route_not_found' });
});
