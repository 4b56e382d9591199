/**
 * A provider that drifted, on demand: a proxy in front of an obsim (the stand-in for the real
 * sandbox, which these machines cannot reach) that applies one seeded mutation from the drift
 * catalogue (test/drift/catalogue.ts) to the answers it passes back, or to the webhook deliveries
 * the obsim behind it makes to the shadow. The shadow under test sits in front of this proxy.
 *
 *   partner (scenario runner) → shadow → mutating proxy → obsim (upstream)
 *   obsim's deliveries → mutating proxy /wh/… → shadow's receiver → the partner's URL
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export type AnswerMutation =
  | { op: 'remove'; pointer: string }
  | { op: 'add'; pointer: string; value: unknown; when?: { pointer: string; equals: unknown } }
  | { op: 'rename'; pointer: string; to: string }
  | { op: 'set'; pointer: string; value: unknown }
  | { op: 'status'; status: number }
  | { op: 'header'; name: string; value?: string };

export type WebhookMutation =
  | { op: 'drop' }
  | { op: 'duplicate' }
  | { op: 'delay'; ms: number }
  | { op: 'reorder' }
  | { op: 'resign' }
  | { op: 'payload'; mutation: AnswerMutation };

export interface Mutation {
  /** `METHOD path` of the answer to change (the path without its query, a RegExp source), and which match (1 = the first). */
  answer?: { route: string; nth?: number; mutation: AnswerMutation };
  /** The event whose (first) delivery to change. */
  webhook?: { event: string; mutation: WebhookMutation };
}

const tokens = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));

function parentOf(doc: unknown, pointer: string): { parent: Record<string, unknown> | unknown[]; key: string } | undefined {
  const path = tokens(pointer);
  const key = path.pop();
  let node: unknown = doc;
  for (const t of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[t];
  }
  if (node === null || typeof node !== 'object' || key === undefined) return undefined;
  return { parent: node as Record<string, unknown>, key };
}

const get = (doc: unknown, pointer: string): unknown => {
  const at = parentOf(doc, pointer);
  return at ? (at.parent as Record<string, unknown>)[at.key] : undefined;
};

/** Apply a body mutation to a parsed JSON document (in place); false when it did not apply. */
export function mutateJson(doc: unknown, m: AnswerMutation): boolean {
  if (m.op === 'status' || m.op === 'header') return false;
  if (m.op === 'add' && m.when && get(doc, m.when.pointer) !== m.when.equals) return false;
  const at = parentOf(doc, m.pointer);
  if (!at) return false;
  const parent = at.parent as Record<string, unknown>;
  if (m.op === 'remove') {
    if (!(at.key in parent)) return false;
    delete parent[at.key];
  } else if (m.op === 'add' || m.op === 'set') parent[at.key] = m.value;
  else if (m.op === 'rename') {
    if (!(at.key in parent)) return false;
    // the renamed field keeps its place among the others
    const entries = Object.entries(parent).map(([k, v]) => (k === at.key ? [m.to, v] : [k, v]));
    for (const k of Object.keys(parent)) delete parent[k];
    Object.assign(parent, Object.fromEntries(entries));
  }
  return true;
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length']);
const forwardable = (h: IncomingMessage['headers'] | Record<string, string | string[] | undefined>) =>
  Object.fromEntries(
    Object.entries(h)
      .filter(([k, v]) => v !== undefined && !HOP.has(k))
      .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
  );

export interface MutatingProxy {
  url: string;
  /** Where the shadow's receiver is (set once the shadow listens): deliveries go there. */
  shadowUrl: string;
  /** Whether the mutation was applied (a catalogue entry that never applied tests nothing). */
  applied: boolean;
  close(): Promise<void>;
}

export async function startMutatingProxy(upstream: string, mutation: Mutation): Promise<MutatingProxy> {
  let seen = 0;
  let held: (() => Promise<void>) | undefined;
  const state: MutatingProxy = { url: '', shadowUrl: '', applied: false, close: async () => undefined };

  async function answer(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const up = await request(`${upstream}${req.url}`, {
      method: req.method as 'GET',
      headers: forwardable(req.headers),
      body: body.length ? body : undefined,
    });
    let bytes = Buffer.from(await up.body.arrayBuffer());
    let status = up.statusCode;
    const headers = forwardable(up.headers);
    const a = mutation.answer;
    const path = (req.url ?? '').split('?')[0];
    if (a && new RegExp(`^${a.route}$`).test(`${req.method} ${path}`) && ++seen === (a.nth ?? 1)) {
      const m = a.mutation;
      if (m.op === 'status') {
        status = m.status;
        state.applied = true;
      } else if (m.op === 'header') {
        if (m.value === undefined) delete headers[m.name];
        else headers[m.name] = m.value;
        state.applied = true;
      } else {
        const doc = JSON.parse(bytes.toString('utf8')) as unknown;
        if (mutateJson(doc, m)) {
          state.applied = true;
          bytes = Buffer.from(JSON.stringify(doc));
        }
      }
    }
    res.writeHead(status, headers).end(bytes);
  }

  async function deliver(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const target = `${state.shadowUrl}${(req.url ?? '').slice('/wh'.length)}`;
    const headers = forwardable(req.headers);
    const send = async (b: Buffer, h: Record<string, string>) => {
      await request(target, { method: 'POST', headers: h, body: b }).then((r) => r.body.dump());
    };
    res.writeHead(200).end();
    const w = mutation.webhook;
    const event = (JSON.parse(body.toString('utf8')) as { event?: string }).event;
    const release = held;
    held = undefined;
    if (!w || event !== w.event || state.applied) {
      await send(body, headers);
      if (release) await release();
      return;
    }
    state.applied = true;
    const m = w.mutation;
    if (m.op === 'drop') return;
    if (m.op === 'duplicate') {
      await send(body, headers);
      await send(body, headers);
    } else if (m.op === 'delay') setTimeout(() => void send(body, headers), m.ms);
    else if (m.op === 'reorder') {
      // held back until the next delivery has gone (or five seconds have passed: a busy machine
      // may take more than one to cause the next)
      held = () => send(body, headers);
      setTimeout(() => {
        const h = held;
        held = undefined;
        // the flow may be over (the shadow closed): nothing to tell
        void h?.().catch(() => undefined);
      }, 5000).unref();
    } else if (m.op === 'resign') {
      const wrong = createHmac('sha256', 'not-the-registration-secret').update(body).digest('hex');
      await send(body, { ...headers, 'x-webhook-signature': wrong });
    } else {
      const doc = JSON.parse(body.toString('utf8')) as unknown;
      mutateJson(doc, m.mutation);
      await send(Buffer.from(JSON.stringify(doc)), headers);
    }
  }

  const server = createServer((req, res) => {
    void readBody(req).then((body) =>
      (req.url?.startsWith('/wh/') ? deliver(req, res, body) : answer(req, res, body)).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(502).end(String(err));
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
