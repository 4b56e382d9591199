/** What the journal is told of an answered request, and what its live stream carries. */
import type { FaultMark } from '../domain/chaos.js';
import type { JournalEntry, StoredBody } from './pages.js';

/** What the HTTP layer knows of an answered request. */
export interface AnsweredRequest {
  partnerId: string;
  /** When it was answered on its sandbox's clock (ms). */
  atMs: number;
  method: string;
  path: string;
  query: unknown;
  params: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** The request body as the journal keeps it (`requestBody()`, taken before validation changed it). */
  body: StoredBody;
  status: number;
  payload: unknown;
  /** The answer is JSON Fastify serialized (a JSON content type). */
  payloadIsJson: boolean;
  durationMs: number;
  requestId: string;
  /** The W3C trace id of the request's span. */
  traceId?: string;
  /** The contract version that served it (docs/contract-versions.md); absent: the base. */
  contractVersion?: string;
  /** The fault the sandbox's profile injected (docs/chaos.md), if any. */
  fault?: FaultMark | null;
}

/** What the live stream carries. */
export type LiveEvent =
  | { type: 'request'; entry: JournalEntry }
  | {
      type: 'delivery';
      delivery: {
        id: number;
        eventId: string;
        event: string | null;
        url: string;
        state: string;
        statusCode: number | null;
        outcome: string;
        durationMs: number;
        /** What the sandbox's fault profile did to it (docs/chaos.md), if anything. */
        fault?: FaultMark;
      };
    };
