/**
 * The shadow's HTTP plumbing: what passes through it (hop-by-hop headers are the proxy's own), a
 * body as JSON when it is JSON, and one request to the upstream (or the partner's receiver) with
 * its answer read whole.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { request as undiciRequest } from 'undici';

/** Hop-by-hop headers (RFC 9110 7.6.1) and what the proxy sets itself: never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'host',
  'content-length',
]);

export const passOn = (headers: Record<string, string | string[] | undefined>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || HOP_BY_HOP.has(k.toLowerCase())) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
};

export function jsonOf(text: string, contentType: string | undefined): unknown {
  if (text === '' || (contentType !== undefined && !/json/i.test(contentType))) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface Sent {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  /** How long the answer took (ms). */
  ms: number;
}

/** One request, its answer read whole; rejects when the other side cannot be reached. */
export async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  timeoutMs: number,
): Promise<Sent> {
  const began = performance.now();
  const res = await undiciRequest(url, {
    method: method as 'GET',
    headers,
    body: body && body.length ? body : undefined,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: passOn(res.headers), bytes, ms: Math.round(performance.now() - began) };
}

/**
 * An answer's text for comparing it: the partner gets the bytes as the upstream sent them
 * (compressed when it asked), the comparison reads what they say.
 */
export function decodedText(bytes: Buffer, contentEncoding: string | undefined): string {
  const encoding = contentEncoding?.trim().toLowerCase();
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(bytes).toString('utf8');
    if (encoding === 'br') return brotliDecompressSync(bytes).toString('utf8');
    if (encoding === 'deflate') return inflateSync(bytes).toString('utf8');
  } catch {
    // not what it says it is: compared as it came (uncomparable: not JSON)
  }
  return bytes.toString('utf8');
}
