/**
 * A request's logger is made when the request logs something (src/plugins/request-logger.ts):
 * what it writes is what Fastify's own child would have written (every line names the request by
 * the id its answer carries in x-request-id), and a request that logs nothing makes no child.
 */
import { Writable } from 'node:stream';
import t from 'tap';
import { build, json, PARTNER } from '../helpers/app.js';

/** Log lines as pino wrote them (one JSON object a line). */
function lines(): { stream: Writable; lines: Record<string, unknown>[] } {
  const out: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) out.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { stream, lines: out };
}

t.test('with request logging on, every line of a request names it by the id of its answer', async (t) => {
  const log = lines();
  const app = await build(t, { logger: { level: 'info', stream: log.stream }, config: { requestLog: true } });
  const res = await app.inject({ method: 'GET', url: '/v1/partner/merchants/999999/onboarding-status', headers: PARTNER });
  t.equal(res.statusCode, 404);
  const id = res.headers['x-request-id'];
  t.match(id, /^req_[0-9a-f]{24}$/);
  const mine = log.lines.filter((l) => l.reqId === id);
  t.same(
    mine.map((l) => l.msg),
    ['incoming request', 'request completed'],
  );
  t.equal((mine[0].req as { url: string }).url, '/v1/partner/merchants/999999/onboarding-status');
  t.equal((mine[1].res as { statusCode: number }).statusCode, 404);
  // a caller's own id is the one its lines carry
  const named = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'ci-run-42' } });
  t.equal(named.headers['x-request-id'], 'ci-run-42');
  t.same(
    log.lines.filter((l) => l.reqId === 'ci-run-42').map((l) => l.msg),
    ['incoming request', 'request completed'],
  );
});

t.test('a request that logs nothing makes no child logger; one that logs makes one', async (t) => {
  const log = lines();
  const app = await build(t, { logger: { level: 'info', stream: log.stream } });
  let children = 0;
  const child = app.log.child.bind(app.log);
  app.log.child = (...args: Parameters<typeof child>) => {
    children++;
    return child(...args);
  };
  const m = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Log ApS' } }),
  );
  const paid = await app.inject({
    method: 'POST',
    url: '/v1/partner/payments',
    headers: PARTNER,
    payload: { merchantClientId: m.clientId, amount: 12.5, referenceNumber: 'log-1' },
  });
  t.equal(paid.statusCode, 200);
  t.equal(children, 0, 'nothing logged, no child made');
  t.same(log.lines, []);
  // the database refuses the COMMIT: the request logs it, through a child bound to its id
  app.db.exec("CREATE TRIGGER refuse BEFORE INSERT ON payments BEGIN SELECT RAISE(ABORT, 'refused by a test'); END");
  const refused = await app.inject({
    method: 'POST',
    url: '/v1/partner/payments',
    headers: PARTNER,
    payload: { merchantClientId: m.clientId, amount: 12.5, referenceNumber: 'log-2' },
  });
  t.equal(refused.statusCode, 500);
  t.equal(children, 1);
  const errors = log.lines.filter((l) => l.level === 50);
  t.equal(errors.length, 1);
  t.equal(errors[0].reqId, refused.headers['x-request-id']);
});
