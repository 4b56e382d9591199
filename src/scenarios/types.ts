/** Types of a loaded scenario (hand-written mirror of schemas/scenario.ts; the loader validates). */
import type { BankProfileInput } from '../domain/bank-profiles.js';
import type { FaultProfileInput } from '../domain/chaos-profiles.js';
import type { RequestMatcher } from '../domain/journal.js';
import type { Requirements } from '../domain/readiness-requirements.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export interface Expectation {
  status?: number | number[];
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RequestStep {
  method: Method;
  path: string;
  query?: Record<string, string | number | boolean>;
  auth?: 'partner' | 'bearer' | 'none';
  token?: string;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  form?: Record<string, string | number | boolean>;
  expect?: Expectation;
  capture?: Record<string, string>;
}

export interface ControlStep {
  merchant?: number | string;
  payment?: number | string;
  consent?: string;
  delivery?: number | string;
  reset?: true;
  action?: string;
  body?: Record<string, unknown>;
  expect?: Expectation;
  capture?: Record<string, string>;
}

export type AdvanceClockStep = string | { by?: string; to?: string };

export interface RegisterWebhookStep {
  events: string[];
  as?: string;
  url?: string;
}

export interface ExpectWebhookStep {
  event: string;
  data?: unknown;
  webhook?: string;
  within?: string | number;
  timeoutMs?: number;
  signature?: 'valid' | 'ignore';
  eventId?: string;
  capture?: Record<string, string>;
}

export type ExpectNoWebhookStep = Omit<ExpectWebhookStep, 'signature' | 'capture' | 'eventId'>;

export interface ExpectRequestStep {
  request: RequestMatcher;
  count?: number;
  atLeast?: number;
  atMost?: number;
  timeoutMs?: number;
}

export interface ExpectNoRequestStep {
  request: RequestMatcher;
  timeoutMs?: number;
}

export interface ExpectReportStep {
  verdict?: 'met' | 'unmet';
  requirements?: Requirements;
  items?: Record<string, 'met' | 'unmet' | 'not_applicable'>;
}

/** A fault profile as PUT /_sandbox/faults takes it, or `clear`. */
export type FaultsStep = 'clear' | FaultProfileInput;

/** A bank's profile as PUT /_sandbox/banks/{bankId} takes it, or `reset: true`. */
export type BankStep = { bankId: string; reset?: true } & BankProfileInput;

export type WaitStep = number | { ms: number };

export type SetStep = Record<string, unknown>;

/** A scenario file whose steps run here (relative to the including file). */
export type IncludeStep = string;

export interface StepMap {
  request: RequestStep;
  control: ControlStep;
  advanceClock: AdvanceClockStep;
  registerWebhook: RegisterWebhookStep;
  expectWebhook: ExpectWebhookStep;
  expectNoWebhook: ExpectNoWebhookStep;
  expectRequest: ExpectRequestStep;
  expectNoRequest: ExpectNoRequestStep;
  expectReport: ExpectReportStep;
  faults: FaultsStep;
  bank: BankStep;
  wait: WaitStep;
  set: SetStep;
  include: IncludeStep;
}

export type Step = { name?: string } & { [K in keyof StepMap]?: StepMap[K] };

export interface Scenario {
  name: string;
  description?: string;
  tags?: string[];
  covers?: string[];
  variables?: Record<string, unknown>;
  /** The contract version it runs under (docs/contract-versions.md). */
  contractVersion?: string;
  steps: Step[];
  file?: string;
  /** Every file its `include` steps bring in, directly or not (absolute paths; set by the loader). */
  includes?: string[];
}
