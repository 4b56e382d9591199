/**
 * A plain reverse proxy, the peer `npm run bench:drift` measures the shadow against: Node's HTTP
 * server and undici, the answer buffered and sent whole, nothing captured, replayed or compared.
 * What any Node proxy costs on this machine; the shadow costs that plus its own work.
 *
 *   node bench/lib/plain-proxy.mjs <port> <upstream>
 */
import { createServer } from 'node:http';
import { Agent, request } from 'undici';

const [port, upstream] = process.argv.slice(2);
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host']);
const agent = new Agent({ connections: 256, keepAliveTimeout: 10_000 });
const pass = (headers) => Object.fromEntries(Object.entries(headers).filter(([k, v]) => v !== undefined && !HOP.has(k)));

createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  try {
    const answer = await request(`${upstream}${req.url}`, {
      method: req.method,
      headers: pass(req.headers),
      body: chunks.length ? Buffer.concat(chunks) : undefined,
      dispatcher: agent,
    });
    const body = Buffer.from(await answer.body.arrayBuffer());
    res.writeHead(answer.statusCode, pass(answer.headers)).end(body);
  } catch {
    res.writeHead(502).end();
  }
}).listen(Number(port), '127.0.0.1');
