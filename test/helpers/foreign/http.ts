/** The double's small HTTP vocabulary (./provider.ts routes requests to handlers of this shape). */
import type { IncomingMessage } from 'node:http';
import { hex, type Partner } from './state.js';

export interface Req {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
  raw: string;
  form: URLSearchParams;
  params: Record<string, string>;
  partner?: Partner;
}

export interface Res {
  status: number;
  json?: unknown;
  html?: string;
  headers?: Record<string, string>;
}

export type Handler = (req: Req) => Res | Promise<Res>;
export interface Route {
  method: string;
  pattern: string;
  auth: 'partner' | 'none' | 'bearer';
  handle: Handler;
}

/** An error answer in the document's one error shape (a 400 lists what it refused in `details`). */
export const fail = (status: number, code: string, message: string, where?: { field: string; in: string }): Res => ({
  status,
  json: {
    status,
    code,
    message,
    ...(where ? { field: where.field, in: where.in } : {}),
    ...(where && status === 400 ? { details: [{ field: where.field, in: where.in, message }] } : {}),
    requestId: `req-${hex(8)}`,
  },
});
