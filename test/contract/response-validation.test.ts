/**
 * --validate-responses: every JSON response is checked against the schema its route documents;
 * a violation is a loud 500 `response_validation_failed` naming it, never silently "fixed" by
 * the serializer. Deliberately broken routes are added to a fresh app before it is ready.
 */
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { buildApp } from '../../src/app.js';
import { VirtualClock } from '../../src/clock.js';
import { json, PARTNER, schemaErrors, T0 } from '../helpers/app.js';
import { scaled } from '../helpers/speed.js';

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

const Thing = {
  type: 'object',
  required: ['id', 'status'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    status: { type: 'string', enum: ['active', 'inactive'] },
    at: { type: 'string', format: 'date-time' },
  },
} as const;

async function appWithRoutes(t: { teardown(fn: () => unknown): void }, validateResponses = true): Promise<FastifyInstance> {
  const app = await buildApp({
    logger: false,
    clock: VirtualClock.create({ start: T0, frozen: true }),
    config: { db: ':memory:', validateResponses },
  });
  const response = { 200: Thing, '4xx': { $ref: 'ErrorBody#' }, '5xx': { $ref: 'ErrorBody#' } };
  const bodies: Record<string, unknown> = {
    ok: { id: 1, status: 'active', at: T0 },
    enum: { id: 1, status: 'archived' },
    extra: { id: 1, status: 'active', secretInternal: 'leak' },
    missing: { id: 1 },
    type: { id: '1', status: 'active' },
    format: { id: 1, status: 'active', at: 'yesterday' },
  };
  app.get<{ Params: { kind: string } }>('/_t/obj/:kind', { schema: { response } }, async (req) => bodies[req.params.kind]);
  app.get('/_t/created', { schema: { response } }, async (_req, reply) => reply.code(201).send({ id: 1, status: 'active' }));
  app.get('/_t/string-json', { schema: { response } }, async (_req, reply) =>
    reply.type('application/json').send(JSON.stringify({ id: 2, status: 'gone' })),
  );
  app.get('/_t/not-json', { schema: { response } }, async (_req, reply) => reply.type('application/json').send('{"id":'));
  app.get('/_t/html', { schema: { response } }, async (_req, reply) => reply.type('text/html; charset=utf-8').send('<h1>Pay</h1>'));
  app.get('/_t/redirect', { schema: { response } }, async (_req, reply) => reply.redirect('/healthz'));
  app.get('/_t/bad-error', { schema: { response } }, async (_req, reply) => reply.code(409).send({ oops: true }));
  app.get('/_t/undocumented', async () => ({ anything: 'goes' }));
  app.get('/_t/undocumented-error', async (_req, reply) => reply.code(418).send({ teapot: true }));
  await app.ready();
  t.teardown(() => app.close());
  return app;
}

t.test('a response matching its schema passes through unchanged', async (t) => {
  const app = await appWithRoutes(t);
  const res = await app.inject({ url: '/_t/obj/ok' });
  t.equal(res.statusCode, 200);
  t.same(json(res), { id: 1, status: 'active', at: T0 });
  const health = await app.inject({ url: '/healthz' });
  t.equal(health.statusCode, 200);
  const notFound = await app.inject({ url: '/nope' });
  t.equal(notFound.statusCode, 404);
  t.equal(json(notFound).code, 'route_not_found');
  const bad = await app.inject({ method: 'POST', url: '/v1/partner/merchants', headers: PARTNER, payload: {} });
  t.equal(bad.statusCode, 400, 'documented 4xx error bodies pass');
});

t.test('each kind of drift is a loud 500 naming the violation', async (t) => {
  const app = await appWithRoutes(t);
  const cases: [string, string, RegExp][] = [
    ['enum', '/status', /status must be one of: active, inactive/],
    ['extra', '/secretInternal', /secretInternal is not in the documented schema/],
    ['missing', '/status', /status is required by the documented schema but missing/],
    ['type', '/id', /id must be integer/],
    ['format', '/at', /at must match format "date-time"/],
  ];
  for (const [kind, field, message] of cases) {
    const res = await app.inject({ url: `/_t/obj/${kind}` });
    t.equal(res.statusCode, 500, `${kind}: 500`);
    const body = json(res);
    t.same(schemaErrors('ErrorBody', body), [], `${kind}: the 500 is itself an ErrorBody`);
    t.equal(body.code, 'response_validation_failed', kind);
    t.equal(body.field, field, `${kind}: names the field`);
    t.equal(body.in, 'response', `${kind}: in the answer`);
    t.match(body.message, message, `${kind}: says what is wrong`);
    t.match(body.message, /GET \/_t\/obj\/:kind 200/, `${kind}: names the route and status`);
    t.equal(res.headers['x-request-id'], body.requestId);
  }
});

t.test('an undocumented status and a wrong error body are violations too', async (t) => {
  const app = await appWithRoutes(t);
  const created = await app.inject({ url: '/_t/created' });
  t.equal(created.statusCode, 500);
  t.match(json(created), { code: 'response_validation_failed', message: /status 201 is not documented/ });
  const badError = await app.inject({ url: '/_t/bad-error' });
  t.equal(badError.statusCode, 500);
  t.match(json(badError), { code: 'response_validation_failed', message: /409/ });
  const teapot = await app.inject({ url: '/_t/undocumented-error' });
  t.equal(teapot.statusCode, 500, 'an error status always needs the ErrorBody, even on a route without schemas');
  const free = await app.inject({ url: '/_t/undocumented' });
  t.equal(free.statusCode, 200, 'routes with no response schema at all (hidden documents) are not checked');
});

t.test('already-serialized JSON is checked as sent; HTML, redirects and empty bodies are not', async (t) => {
  const app = await appWithRoutes(t);
  const str = await app.inject({ url: '/_t/string-json' });
  t.equal(str.statusCode, 500);
  t.match(json(str), { code: 'response_validation_failed', field: 'status' });
  t.match(str.headers['content-type'], /application\/json/);
  t.equal(Number(str.headers['content-length']), Buffer.byteLength(str.body));
  const broken = await app.inject({ url: '/_t/not-json' });
  t.equal(broken.statusCode, 500);
  t.match(json(broken).message, /not valid JSON/);
  const html = await app.inject({ url: '/_t/html' });
  t.equal(html.statusCode, 200);
  t.equal(html.body, '<h1>Pay</h1>');
  const redirect = await app.inject({ url: '/_t/redirect' });
  t.equal(redirect.statusCode, 302);
});

t.test('off by default: the serializer silently drops the extra property (why the mode exists)', async (t) => {
  const app = await appWithRoutes(t, false);
  const res = await app.inject({ url: '/_t/obj/extra' });
  t.equal(res.statusCode, 200);
  t.same(json(res), { id: 1, status: 'active' });
});

t.test('every JSON API operation (/v1, /_sandbox, /healthz) documents a response body', async (t) => {
  const app = await buildApp({ logger: false, config: { db: ':memory:' } });
  await app.ready();
  t.teardown(() => app.close());
  type Paths = Record<string, Record<string, { responses?: Record<string, { content?: unknown }> }>>;
  // the two published documents together hold every operation (the provider's /v1, obsim's controls)
  const paths: [string, Paths[string]][] = [];
  for (const kind of ['provider', 'controls'] as const) paths.push(...Object.entries((await app.openapiDocument(kind)).paths as Paths));
  const missing: string[] = [];
  for (const [path, ops] of paths) {
    if (!/^\/(v1|_sandbox|healthz)/.test(path)) continue;
    for (const [method, op] of Object.entries(ops)) {
      const documented = Object.entries(op.responses ?? {}).filter(
        ([status, r]) => /^[23]/.test(status) && (r.content || status === '204' || status.startsWith('3')),
      );
      const errors = Object.keys(op.responses ?? {}).filter((status) => /^[45]/.test(status));
      if (documented.length === 0 || errors.length === 0) missing.push(`${method.toUpperCase()} ${path}`);
    }
  }
  t.same(missing, [], 'operations without a documented success body or error body');
});
