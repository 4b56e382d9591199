/**
 * Checking what the fuzzer sent (test/helpers/fuzz.ts): a digest of every table's rows (a
 * rejected request changes none), the figures a run keeps, and the per-request check of status,
 * error shape and state.
 */
import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { RouteEntry } from '../../src/app.js';
import { PARTNER, schemaErrors } from './app.js';
import type { FuzzRequest } from './fuzz-values.js';
import { isApiRoute } from './fuzz.js';

// ------------------------------------------------------------------------------- checking

/**
 * sha256 over every table (rows sorted), the state a partner could observe. The request journal
 * (its pages, and the highest id it handed out, in meta) is left out: recording every request,
 * the refused ones too, is its job.
 *
 * The fuzzer takes two of these per request, thousands of requests per run: each SQL text is
 * prepared once per database and kept (preparing ~25 statements per digest was two thirds of its
 * cost: 1.2 ms a digest, 0.35 ms with them kept). The list of tables is read every time.
 */
const prepared = new WeakMap<object, Map<string, Statement>>();
function statement(app: FastifyInstance, sql: string): Statement {
  let kept = prepared.get(app.db);
  if (!kept) prepared.set(app.db, (kept = new Map()));
  let s = kept.get(sql);
  if (!s) kept.set(sql, (s = app.db.prepare(sql)));
  return s;
}

/** A digest of each table's rows (the excluded tables left out), to say which ones a request changed. */
export function tableDigests(
  app: FastifyInstance,
  exclude: readonly string[] = ['schema_migrations', 'journal_pages'],
): Map<string, string> {
  const tables = (statement(app, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]).filter(
    (t) => !exclude.includes(t),
  );
  const digests = new Map<string, string>();
  for (const t of tables) {
    // an excluded table's AUTOINCREMENT counter is excluded with it
    let where = t === 'sqlite_sequence' ? ` WHERE name NOT IN (${exclude.map((x) => `'${x}'`).join(', ')})` : '';
    if (t === 'meta' && exclude.includes('journal_pages')) where = " WHERE key <> 'journal_last_id'";
    // a sandbox's last use is bookkeeping the sweeper writes every 30 s, whatever a request does
    const columns =
      t === 'sandboxes'
        ? (statement(app, `PRAGMA table_info("${t}")`).all() as { name: string }[])
            .map((c) => `"${c.name}"`)
            .filter((c) => c !== '"last_used_ms"')
            .join(', ')
        : '*';
    const rows = statement(app, `SELECT ${columns} FROM "${t}"${where}`)
      .raw()
      .all()
      .map((r) => JSON.stringify(r))
      .sort();
    digests.set(t, createHash('sha256').update(rows.join('\n')).digest('hex'));
  }
  return digests;
}

/** The tables whose rows differ between two `tableDigests`. */
const changedTables = (before: Map<string, string>, after: Map<string, string>): string[] =>
  [...new Set([...before.keys(), ...after.keys()])].filter((t) => before.get(t) !== after.get(t));

export interface FuzzFigures {
  cases: number;
  fiveXx: number;
  offShape: number;
  stateChanged: number;
  bypass: number;
  byStatus: Record<string, number>;
}

export function newFigures(): FuzzFigures {
  return { cases: 0, fiveXx: 0, offShape: 0, stateChanged: 0, bypass: 0, byStatus: {} };
}

/** Await in-flight webhook deliveries (if the worker exists) so the digest is stable. */
export async function settle(app: FastifyInstance): Promise<void> {
  const worker = (app as unknown as { webhooks?: { drain?: () => Promise<void> } }).webhooks;
  if (worker?.drain) await worker.drain();
}

/** Apps whose clock an accepted request may have set running since the fuzzer last froze it. */
const mayHaveMovedClock = new WeakMap<FastifyInstance, boolean>();

/**
 * Send one request and check the properties. Returns the problems (empty = fine) and updates
 * the figures.
 */
export async function sendAndCheck(
  app: FastifyInstance,
  route: RouteEntry,
  req: FuzzRequest,
  figures: FuzzFigures,
): Promise<{ problems: string[]; res: LightMyRequestResponse }> {
  // an accepted clock resume (an earlier case) lets the clock run, and a payment's settlement could
  // then fire between the two digests: the clock stands still while a request is checked. Only an
  // accepted request can have moved it since the last freeze (a refused one that did would be
  // reported by its own check below: the clock's state is in the tables), so the freeze, a
  // request of its own, is sent after those (one case in nine) and not before every case.
  if (mayHaveMovedClock.get(app) ?? true) {
    await app.inject({ method: 'POST', url: '/_sandbox/clock/freeze', headers: PARTNER });
    mayHaveMovedClock.set(app, false);
  }
  await settle(app);
  const before = tableDigests(app);
  const res = await app.inject({ method: req.method as 'POST', url: req.url, headers: req.headers, payload: req.payload });
  if (res.statusCode < 400) mayHaveMovedClock.set(app, true);
  await settle(app);
  figures.cases++;
  figures.byStatus[res.statusCode] = (figures.byStatus[res.statusCode] ?? 0) + 1;
  const problems: string[] = [];
  const where = `${req.method} ${req.url.slice(0, 120)} [${req.label}]`;
  if (res.statusCode >= 500) {
    figures.fiveXx++;
    problems.push(`${res.statusCode} for ${where}: ${res.body.slice(0, 300)}`);
  }
  if (res.statusCode >= 400) {
    const ct = String(res.headers['content-type'] ?? '');
    if (ct.includes('json') || isApiRoute(route)) {
      let body: unknown;
      try {
        body = JSON.parse(res.body);
      } catch {
        body = res.body;
      }
      const errs = schemaErrors('ErrorBody', body);
      if ((body as { status?: number })?.status !== res.statusCode)
        errs.push(`status field ${(body as { status?: number })?.status} != ${res.statusCode}`);
      if (errs.length) {
        figures.offShape++;
        problems.push(`error body off-shape (${errs.join('; ')}) for ${where}: ${res.body.slice(0, 200)}`);
      }
    }
    const changed = changedTables(before, tableDigests(app));
    if (changed.length > 0) {
      figures.stateChanged++;
      problems.push(`state changed by a rejected request (${res.statusCode}) ${where}: ${changed.join(', ')}`);
    }
  } else if (req.mustReject && res.statusCode < 300) {
    figures.bypass++;
    problems.push(`accepted (${res.statusCode}) a request that must be rejected: ${where}: ${res.body.slice(0, 200)}`);
  }
  return { problems, res };
}

/** Stable 32-bit seed for a route from a base seed. */
export function routeSeed(base: number, route: RouteEntry): number {
  return createHash('sha256').update(`${base}:${route.method} ${route.url}`).digest().readInt32LE(0);
}
