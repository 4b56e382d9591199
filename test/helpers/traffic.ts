/**
 * The shipped scenarios' full traffic, as a partner sees it, in a form two builds can be compared
 * in (test/contracts/unchanged.test.ts; written by scripts/record-shipped-traffic.ts):
 *
 * - every provider request a scenario made (`/v1/…` and the hosted pages): method, path, body, the
 *   answer's status, content type, obsim's own answer headers and body;
 * - every event delivered or queued (the delivery log's event and body);
 * - the journal's entries for those requests (what it keeps of each).
 *
 * One simulator on a frozen clock runs the scenarios in name order, so ids and instants are the
 * same on every run. What a run draws at random (a scenario's `${uuid}` or `${random.amount}`, a
 * webhook secret, a token) is replaced by the place it first appeared: two runs of the same build
 * give the same text, and two builds give the same text when every answer, delivery and entry is
 * the same (equal values stay equal, different ones stay different).
 */
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { expandPaths, loadScenarioFile, shippedScenariosDir } from '../../src/scenarios/loader.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { injectTransport, type Transport } from '../../src/scenarios/transport.js';

const PARTNER = { 'x-partner-client-id': 'sandbox-partner', 'x-partner-client-secret': 'sandbox-secret' };
/** The answer headers obsim chooses itself (not Date, lengths or connection headers). */
const ANSWER_HEADERS = [
  'content-type',
  'obsim-contract-version',
  'deprecation',
  'sunset',
  'link',
  'location',
  'retry-after',
  'www-authenticate',
];
const isProvider = (path: string) => path.startsWith('/v1/') || /^\/(pay|consent|onboarding)\//.test(path);

export interface ScenarioTraffic {
  name: string;
  passed: boolean;
  exchanges: unknown[];
  deliveries: unknown[];
  journal: unknown[];
}

function recording(transport: Transport, into: unknown[]): Transport {
  return {
    description: transport.description,
    request: async (req) => {
      const res = await transport.request(req);
      const path = req.path.split('?')[0];
      if (isProvider(path)) {
        const headers = Object.fromEntries(ANSWER_HEADERS.filter((h) => res.headers[h] !== undefined).map((h) => [h, res.headers[h]]));
        into.push({
          method: req.method,
          path: req.path,
          body: req.body ?? null,
          status: res.status,
          headers,
          answer: res.json ?? res.text,
        });
      }
      return res;
    },
  };
}

/**
 * node:crypto's random sources drawn from a seeded generator while `fn` runs, so that what a
 * scenario draws (`${uuid}`, `${unique}`, a random user whose bank data depends on its id) and what
 * obsim draws (ids, secrets, tokens) are the same on every run. Named imports of node:crypto are
 * live bindings: syncBuiltinESMExports() makes them read the replacements.
 */
async function seeded<T>(fn: (reseed: (name: string) => void) => Promise<T>): Promise<T> {
  let state = 0x9e3779b9;
  // each story starts from its own state: what background work (deliveries, spans) drew during the
  // previous one cannot move what this one draws at its start (its run id, so its users' bank data)
  const reseed = (name: string) => {
    state = crypto.createHash('sha256').update(name).digest().readUInt32LE(0) || 1;
  };
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256)));
  const original = { randomBytes: crypto.randomBytes, randomUUID: crypto.randomUUID, randomInt: crypto.randomInt };
  const c = crypto as unknown as Record<string, unknown>;
  c.randomBytes = (n: number, cb?: (err: null, b: Buffer) => void) => {
    const b = bytes(n);
    if (cb) return void queueMicrotask(() => cb(null, b));
    return b;
  };
  c.randomUUID = () => {
    const h = bytes(16).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  c.randomInt = (a: number, b?: number) => {
    const [min, max] = b === undefined ? [0, a] : [a, b];
    return min + Math.floor(next() * (max - min));
  };
  syncBuiltinESMExports();
  try {
    return await fn(reseed);
  } finally {
    Object.assign(c, original);
    syncBuiltinESMExports();
  }
}

/** Run every shipped scenario on `app` (the default partner, in name order) and keep what a partner saw. */
export async function shippedTraffic(app: FastifyInstance): Promise<ScenarioTraffic[]> {
  return seeded((reseed) => runShipped(app, reseed));
}

async function runShipped(app: FastifyInstance, reseed: (name: string) => void): Promise<ScenarioTraffic[]> {
  const transport = injectTransport(app);
  const out: ScenarioTraffic[] = [];
  let journalAfter = 0;
  let deliveriesAfter = 0;
  for (const file of expandPaths([shippedScenariosDir()]).sort()) {
    const scenario = loadScenarioFile(file);
    const exchanges: unknown[] = [];
    reseed(scenario.name);
    const result = await runScenario(scenario, { transport: recording(transport, exchanges) });
    const log = (await app.inject({ method: 'GET', url: '/_sandbox/deliveries?limit=500', headers: PARTNER })).json<{
      items: { id: number; event: string; body?: unknown; url: string; redeliveryOf: number | null }[];
    }>();
    const deliveries = log.items
      .filter((d) => d.id > deliveriesAfter)
      .sort((a, b) => a.id - b.id)
      .map((d) => ({ event: d.event, url: d.url, body: d.body ?? null, redelivery: d.redeliveryOf !== null }));
    deliveriesAfter = Math.max(deliveriesAfter, ...log.items.map((d) => d.id));
    const entries = (await app.inject({ method: 'GET', url: '/_sandbox/requests?limit=500', headers: PARTNER })).json<{
      items: Record<string, unknown>[];
    }>().items;
    const journal = entries
      .filter((e) => (e.id as number) > journalAfter && isProvider(e.path as string))
      .sort((a, b) => (a.id as number) - (b.id as number))
      .map(({ method, path, status, code, field, query, requestBody, responseBody, contractVersion }) => ({
        method,
        path,
        status,
        code,
        field,
        query,
        requestBody,
        responseBody,
        contractVersion,
      }));
    journalAfter = Math.max(journalAfter, ...entries.map((e) => e.id as number));
    out.push({ name: scenario.name, passed: result.passed, exchanges, deliveries, journal });
  }
  return out;
}

/** A word (an enum value, a status, an event name) is kept; anything else is named by where it first appeared. */
const keptAsIs = (s: string) => /^[A-Za-z_.-]{0,40}$/.test(s);

/**
 * `traffic` with every value a run draws anew replaced by the order it first appeared in: strings
 * with digits or longer than a word, and numbers that are not small counts or statuses. Object
 * keys and their order are kept: they are part of what is compared.
 */
export function canonicalTraffic(traffic: unknown): unknown {
  const seen = new Map<string, string>();
  const name = (kind: string, v: string) => {
    const key = `${kind}:${v}`;
    let n = seen.get(key);
    if (n === undefined) seen.set(key, (n = `<${kind}${seen.size + 1}>`));
    return n;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      // a JSON text inside a string (a request body as sent) is compared as JSON
      if ((v.startsWith('{') || v.startsWith('[')) && v.length > 1) {
        try {
          return { json: walk(JSON.parse(v)) };
        } catch {
          /* not JSON */
        }
      }
      return keptAsIs(v)
        ? v
        : v
            .split(/([^A-Za-z0-9_=+/-]+)/)
            .map((part, i) => (i % 2 === 1 || keptAsIs(part) ? part : name('s', part)))
            .join('');
    }
    if (typeof v === 'number') return Number.isInteger(v) && v >= 0 && v < 1000 ? v : name('n', String(v));
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(traffic);
}
