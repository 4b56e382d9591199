/**
 * Where readiness reports are computed (src/readiness/reporter.ts): for a file database, on a
 * worker thread with its own read-only connection, after the journal is flushed; the same report
 * as the serving thread computes; the entries since the last report read incrementally, the ones
 * the journal's bounds dropped forgotten; a failed worker falls back to the serving thread.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import t from 'tap';
import { build, schemaErrors } from '../helpers/app.js';
import { call, testMerchant } from '../helpers/partner.js';
import { createReportMaker, providerOperations } from '../../src/readiness/collect.js';
import { createReporter, reportWorker } from '../../src/readiness/reporter.js';

async function fileApp(t: Parameters<typeof build>[0], config: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-reporter-'));
  const app = await build(t, { config: { db: join(dir, 'obsim.sqlite'), ...config } });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return app;
}
type App = Awaited<ReturnType<typeof build>>;

/** A partner's traffic: a merchant, payments (two with one referenceNumber), refusals, reads. */
async function traffic(app: App, payments: number, tag: string): Promise<void> {
  const m = await testMerchant(app);
  for (let i = 0; i < payments; i++) {
    const p = await call(app, 'POST', '/v1/partner/payments', {
      merchantClientId: m.clientId,
      amount: 10,
      referenceNumber: `${tag}-${i % (payments - 1)}`,
    });
    await call(app, 'GET', `/v1/partner/payments/${p.body.paymentId}/status`);
    await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: -1, referenceNumber: `${tag}-bad` });
  }
}

function reporterOf(app: App, warnings: unknown[] = [], startWorker?: (data: unknown) => Worker) {
  const reporter = createReporter({
    db: app.db,
    store: app.store,
    journal: app.journal!,
    operations: () => providerOperations(app.routeTable),
    log: { warn: (obj) => void warnings.push(obj) },
    ...(startWorker ? { startWorker } : {}),
  });
  t.teardown(() => reporter.close());
  return reporter;
}

/** A report without its instant, for comparing two. */
const timeless = ({ generatedAt: _, ...rest }: { generatedAt: string }) => rest;

t.test('a file database: computed on the worker, the same report as the serving thread computes', async (t) => {
  const app = await fileApp(t);
  await traffic(app, 6, 'w');
  const reporter = reporterOf(app);
  const onWorker = await reporter.report('sandbox-partner', 'sandbox-partner');
  t.equal(reporter.computedOnWorker, 1, 'the worker computed it');
  t.same(schemaErrors('SandboxReadinessReport', onWorker), []);
  t.equal(onWorker.journal.entries, 1 + 6 * 3, 'every entry recorded, though the journal had not written them yet');
  t.ok(
    onWorker.smells.some((s) => s.code === 'duplicate_reference_number'),
    'the smells read from the pages the worker read',
  );
  const { upTo, oldestKept, truncated } = app.journal!.position('sandbox-partner');
  const here = createReportMaker(providerOperations(app.routeTable), app.store).report({
    partnerId: 'sandbox-partner',
    sandboxId: 'sandbox-partner',
    upTo,
    oldestKept,
    truncated,
  });
  t.same(timeless(onWorker), timeless(here));
});

t.test(
  'on Linux the worker runs below the serving thread (nice 10), which keeps its own',
  { skip: process.platform !== 'linux' || getPriority() !== 0 ? 'Linux, at nice 0' : false },
  async (t) => {
    const app = await fileApp(t);
    const niceOf = () =>
      readdirSync('/proc/self/task').map((tid) =>
        Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]),
      );
    const before = niceOf().filter((n) => n === 10).length;
    const reporter = reporterOf(app);
    await reporter.report('sandbox-partner', 'sandbox-partner');
    t.equal(niceOf().filter((n) => n === 10).length, before + 1, 'one more thread at nice 10: the worker');
    t.equal(Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[16]), 0, 'the serving thread at 0');
  },
);

t.test('the next report reads the entries since; the ones the bounds dropped are gone from it', async (t) => {
  const app = await fileApp(t, { journalMaxEntries: 20 });
  const reporter = reporterOf(app);
  await traffic(app, 3, 'a');
  const first = await reporter.report('sandbox-partner', 'sandbox-partner');
  t.equal(first.journal.entries, 10);
  t.equal(first.journal.truncated, false);
  await traffic(app, 5, 'b');
  const second = await reporter.report('sandbox-partner', 'sandbox-partner');
  t.equal(second.journal.entries, 20, 'as many as the journal keeps');
  t.equal(second.journal.truncated, true);
  const calls = (r: typeof first, id: string) => r.operations.find((o) => o.operationId === id)!.calls;
  t.equal(calls(second, 'createTestMerchant'), 1, "the first traffic's merchant creation is gone, the second's kept");
  const kept = (await call(app, 'GET', '/_sandbox/requests?limit=100')).body.items as { id: number }[];
  const evidence = second.operations.flatMap((o) => o.evidence);
  t.ok(
    evidence.every((id) => kept.some((e) => e.id === id)),
    'every piece of evidence is a kept journal entry',
  );
  t.equal(reporter.computedOnWorker, 2);
});

t.test('a worker that fails: the report is computed on the serving thread, and the log says so once', async (t) => {
  const app = await fileApp(t);
  await traffic(app, 2, 'f');
  const warnings: unknown[] = [];
  const reporter = reporterOf(app, warnings, () => new Worker('process.exit(3)', { eval: true }));
  const r = await reporter.report('sandbox-partner', 'sandbox-partner');
  t.equal(r.journal.entries, 7);
  t.equal(reporter.computedOnWorker, 0);
  await reporter.report('sandbox-partner', 'sandbox-partner');
  t.equal(warnings.length, 1, 'one warning');
});

t.test('close() lets the worker close its read connection: once the serving connection closes, the WAL goes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-reporter-close-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'obsim.sqlite');
  const app = await build(t, { config: { db: path } });
  await traffic(app, 2, 'c');
  let ended = false;
  const reporter = reporterOf(app, [], (data) => reportWorker(data).on('exit', () => (ended = true)));
  await reporter.report('sandbox-partner', 'sandbox-partner');
  t.equal(reporter.computedOnWorker, 1, 'the worker computed a report (and holds a connection)');
  await reporter.close();
  t.ok(ended, 'close() resolves once the worker has ended: a process exiting right after leaves no connection open');
  await app.close();
  t.notOk(existsSync(`${path}-wal`), 'no WAL file left: the worker closed its connection before the serving one');
});

t.test('a database in memory: computed on the serving thread, no worker', async (t) => {
  const app = await build(t);
  await traffic(app, 2, 'm');
  const reporter = reporterOf(app);
  t.equal((await reporter.report('sandbox-partner', 'sandbox-partner')).journal.entries, 7);
  t.equal(reporter.computedOnWorker, 0);
});

t.test('GET /_sandbox/report on a file database answers the report', async (t) => {
  const app = await fileApp(t);
  await traffic(app, 2, 'r');
  const r = await call(app, 'GET', '/_sandbox/report');
  t.equal(r.status, 200);
  t.same(schemaErrors('SandboxReadinessReport', r.body), []);
  t.equal(r.body.journal.entries, 7);
});
