/** What the proxy's thread and the replay thread of a shadow say to each other (./shadow.ts, ./worker.ts). */
import type { HeaderMap } from './proxy.js';
import type { HarSide } from './report.js';

export interface ReplayerOptions {
  upstream: string;
  /** Whether the upstream can reach the shadow's receiver (webhooks are compared). */
  webhooks: boolean;
  waitMs: number;
  lateMs: number;
  /** Bytes of everything kept (exchanges, deliveries, the backlog, the id map, trace links). */
  maxBytes: number;
  timeoutMs: number;
  /** The replay thread at the lowest scheduling priority (Linux): the partner's answers first. */
  lowPriority: boolean;
  /** Contract versions to load (`--contracts DIR`), and the one the shadow's sandbox is pinned to. */
  contracts?: string;
  contractVersion?: string;
}

/** An exchange as the proxy saw it: the partner's request (secrets and all: it is replayed) and the upstream's answer. */
export interface SeenExchange {
  index: number;
  /** Wall clock ms the request arrived. */
  arrivedAt: number;
  method: string;
  url: string;
  headers: HeaderMap;
  body: Uint8Array;
  /** False: the body was larger than the proxy captures (it streamed on; it is not replayed). */
  bodyComplete: boolean;
  registration?: { hook: string; partnerUrl: string };
  upstream: { status: number; headers: HeaderMap; body: Uint8Array; bodyComplete: boolean; ms: number };
}

export interface SeenDelivery {
  hook: string;
  at: number;
  headers: HeaderMap;
  body: Uint8Array;
}

export type ReportFormat = 'json' | 'junit' | 'html';

/** The upstream's clock (obsim's `GET /_sandbox/clock`), read at wall-clock `atWallMs`. */
export interface UpstreamClockRead {
  now: string;
  frozen: boolean;
  atWallMs: number;
}

export type ShadowRequest =
  | { type: 'exchange'; exchange: SeenExchange }
  | { type: 'skip'; index: number }
  | { type: 'delivery'; delivery: SeenDelivery }
  | { type: 'refused' }
  | { type: 'clock'; read: UpstreamClockRead | null }
  | { type: 'tick'; now: number; inFlightFloor: number | undefined }
  | { type: 'settled'; id: number; upTo: number }
  | { type: 'report'; id: number }
  | { type: 'render'; id: number; format: ReportFormat }
  | { type: 'exchanges'; id: number }
  | { type: 'har'; id: number; side: HarSide }
  | { type: 'close'; id: number };

export type ShadowReply = { type: 'ready' } | { type: 'failed'; error: string } | { type: 'answer'; id: number; value: unknown };
