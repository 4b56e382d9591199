/**
 * What an `obsim mcp` session knows: where obsim answers, the credentials it was started with,
 * the sandboxes it created (their credentials, which only it may show), and the current sandbox
 * every tool acts on unless told another. All calls are plain HTTP to a running obsim.
 */
import type { Credentials } from '../client/index.js';

export interface SessionOptions {
  baseUrl: string;
  /** The credentials of the sandbox the session starts on (--sandbox with its secret, or the default partner). */
  credentials: Credentials;
  adminKey?: string;
  /** The contract version every provider request names (obsim mcp --contract-version). */
  contractVersion?: string;
}

interface KnownSandbox {
  credentials: Credentials;
  /** Created by this session: its credentials and webhook secrets may be shown. */
  own: boolean;
  defaultMerchant?: { merchantId: number; clientId: string };
}

/** A call obsim refused: the tool reports it (isError) with obsim's own error body. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    method: string,
    path: string,
  ) {
    const detail =
      body && typeof body === 'object' && 'message' in body
        ? `${(body as { code?: string }).code}: ${String(body.message)}`
        : JSON.stringify(body);
    super(`${method} ${path} answered ${status} ${detail}`);
  }
}

export interface CallOptions {
  query?: Record<string, unknown>;
  body?: unknown;
  /** An AIS bearer token instead of the partner headers. */
  bearer?: string;
  /** The admin key instead of a sandbox's credentials (sandbox management). */
  admin?: boolean;
  sandbox?: string;
}

export class Session {
  private readonly sandboxes = new Map<string, KnownSandbox>();
  current: string;

  constructor(readonly options: SessionOptions) {
    this.current = options.credentials.clientId;
    this.sandboxes.set(options.credentials.clientId, { credentials: options.credentials, own: false });
  }

  /** A sandbox this session created becomes the current one. */
  adopt(sandboxId: string, credentials: Credentials, defaultMerchant?: KnownSandbox['defaultMerchant']): void {
    this.sandboxes.set(sandboxId, { credentials, own: true, defaultMerchant });
    this.current = sandboxId;
  }

  forget(sandboxId: string): void {
    this.sandboxes.delete(sandboxId);
    if (this.current === sandboxId) this.current = this.options.credentials.clientId;
  }

  /** The sandbox a tool acts on: the one it names, or the current one. */
  sandbox(id: string | undefined): KnownSandbox & { id: string } {
    const sandboxId = id ?? this.current;
    const known = this.sandboxes.get(sandboxId);
    if (!known) {
      throw new ApiCallError(
        400,
        {
          code: 'sandbox_unknown_to_session',
          message: `sandbox ${sandboxId} was not created in this session, and its credentials are not known: create one with create_sandbox, or start obsim mcp with --sandbox ${sandboxId} and its secret (OBSIM_PARTNER_CLIENT_SECRET)`,
        },
        'MCP',
        sandboxId,
      );
    }
    return { id: sandboxId, ...known };
  }

  /** Whether the secrets of this sandbox (its webhooks', its tokens) may be shown. */
  owns(id: string | undefined): boolean {
    return this.sandbox(id).own;
  }

  async call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const headers: Record<string, string> = {};
    if (options.admin) {
      if (this.options.adminKey) headers['x-obsim-admin-key'] = this.options.adminKey;
    } else if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
    else {
      const { credentials } = this.sandbox(options.sandbox);
      headers['x-partner-client-id'] = credentials.clientId;
      headers['x-partner-client-secret'] = credentials.clientSecret;
    }
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.contractVersion !== undefined && path.startsWith('/v1/'))
      headers['obsim-contract-version'] = this.options.contractVersion;
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined && v !== null) query.set(k, String(v));
    const url = `${this.options.baseUrl}${path}${query.size ? `?${query}` : ''}`;
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    } catch (err) {
      throw new ApiCallError(
        0,
        { code: 'obsim_unreachable', message: `cannot reach ${this.options.baseUrl} (${(err as Error).message})` },
        method,
        path,
      );
    }
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: kept as text */
    }
    if (!res.ok) throw new ApiCallError(res.status, body, method, path);
    return body as T;
  }
}
