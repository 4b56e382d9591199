/**
 * Record → scenario: what a sandbox's journal and delivery log saw, turned into scenario steps
 * that replay it on a fresh sandbox (docs/scenarios-and-cli.md, "Recording a session").
 *
 * Each partner request becomes a `request` step with the body it sent and the status it got;
 * ids, tokens and links obsim handed out become captured variables, referenced where they are
 * used again; clock advances, sandbox triggers, fault profiles and webhook registrations become
 * their own step kinds; each delivery becomes an `expectWebhook` after the request that caused
 * it. What cannot be replayed is said in a comment beside the step or atop the file, never
 * silently left out.
 */
import { placeDeliveries, type DraftDelivery, type DraftEntry } from './scenario-draft-placement.js';
import {
  DraftVariables,
  formatDuration,
  generatedValues,
  kindOf,
  stableView,
  templateOf,
  type GeneratedValue,
} from './scenario-draft-values.js';

export type { DraftDelivery, DraftEntry };

export interface DraftSource {
  name: string;
  /** What was recorded, for the file's first comment (`sandbox sb_… entries #3–#41`). */
  origin: string;
  /** Oldest first. */
  entries: DraftEntry[];
  /** Oldest first. */
  deliveries: DraftDelivery[];
  /** The journal dropped entries that would have been in the range (its cap). */
  truncated: boolean;
  /** Why the range is empty, when it is (said in the file and by the CLI). */
  emptyBecause?: string;
  /** Gather why answers' values are not expected (`dropped` of the draft): a HAR import's summary. */
  explainDropped?: boolean;
}

export type DraftStep = Record<string, unknown>;

export interface ScenarioDraft {
  scenario: { name: string; description: string; tags: string[]; steps: DraftStep[] } | null;
  /** A comment to write above each step (same index), or undefined. */
  stepComments: (string | undefined)[];
  /** Comments for the top of the file: what was recorded and what could not be. */
  notes: string[];
  /** What the caller should be told (empty range, dropped entries, steps that may not replay). */
  warnings: string[];
  /** With `explainDropped`: reason → the answers' keys not expected for it. */
  dropped?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Headers a replay sends as they were (credentials and the runner's own headers are the runner's). */
const REPLAYED_HEADERS = ['idempotency-key', 'prefer', 'x-request-id'];
const CONTROL_PATH = /^\/_sandbox\/(merchants|payments|consents|deliveries)\/([^/]+)\/([^/]+)$/;
const CONTROL_TARGET = { merchants: 'merchant', payments: 'payment', consents: 'consent', deliveries: 'delivery' } as const;
/** Journal reads of the recording itself: never steps. */
const NOT_STEPS = /^\/_sandbox\/(scenario-draft|requests|report)(\/|$)/;

interface Pending {
  step: DraftStep;
  comment?: string;
  /** A read kept only for what it captures: dropped when nothing it captures is used. */
  forCaptures?: boolean;
}

export function draftScenario(source: DraftSource): ScenarioDraft {
  const notes = [`Recorded by obsim from ${source.origin}.`];
  const warnings: string[] = [];
  if (source.truncated) {
    const w =
      'The journal had dropped its oldest entries (its cap: --journal-max-entries / --journal-max-bytes) before this range was recorded: the first steps may use ids created by requests that are no longer there, and those steps will fail on a fresh sandbox.';
    notes.push(w);
    warnings.push(w);
  }
  if (source.entries.length === 0) {
    const w = source.emptyBecause ?? 'Nothing to record: the journal has no entries in this range.';
    notes.push(w, 'No steps were written: a scenario needs at least one.');
    warnings.push(w);
    return { scenario: null, stepComments: [], notes, warnings };
  }

  const vars = new DraftVariables();
  if (source.explainDropped) vars.dropped = new Map();
  const out: Pending[] = [];
  const sentStrings = new Set<string>();
  const webhookNames = new Map<string, string>();
  const placed = placeDeliveries(source.entries, source.deliveries);
  const skippedDeliveries: string[] = [];
  let tokenSeen = false;
  /** Said of entries that are not steps, written above the next step. */
  const carried: string[] = [];
  let previousAt = Date.parse(source.entries[0].at);

  const pushDeliveries = (afterIndex: number) => {
    for (const d of placed.get(afterIndex) ?? []) {
      const as = webhookNames.get(d.delivery.webhookId);
      if (!as) {
        skippedDeliveries.push(`${d.delivery.event} (delivery ${d.delivery.id})`);
        continue;
      }
      vars.step = out.length;
      const step: Record<string, unknown> = { event: d.delivery.event };
      if (webhookNames.size > 1) step.webhook = as;
      const data = d.data === undefined ? undefined : stableView(d.data, vars, '');
      if (data !== undefined && !(typeof data === 'object' && data !== null && Object.keys(data).length === 0)) step.data = data;
      if (d.within) step.within = d.within;
      out.push({
        step: { expectWebhook: step },
        comment: d.delivery.redeliveryOf !== null ? 'a redelivery (same X-Webhook-Id)' : undefined,
      });
    }
  };

  source.entries.forEach((e, index) => {
    const nowMs = Date.parse(e.at);
    vars.step = out.length;
    const pending = entryStep(e, { vars, sentStrings, webhookNames, previousAt, tokenSeen });
    previousAt = nowMs;
    if (typeof pending === 'string') carried.push(pending);
    else if (pending) {
      if (e.path === '/v1/auth/generate-token' && e.status < 300) tokenSeen = true;
      if (e.note) pending.comment = [e.note, pending.comment].filter(Boolean).join('; ');
      if (carried.length > 0) pending.comment = [...carried.splice(0), pending.comment].filter(Boolean).join('; ');
      out.push(pending);
    }
    for (const v of requestValues(e)) sentStrings.add(v);
    pushDeliveries(index);
  });

  notes.push(...carried);
  if (skippedDeliveries.length > 0) {
    const w = `Deliveries to webhooks registered before the recorded range are not expected (a scenario can only watch webhooks it registers): ${skippedDeliveries.slice(0, 10).join(', ')}${skippedDeliveries.length > 10 ? ', …' : ''}.`;
    notes.push(w);
    warnings.push(w);
  }
  const kept = dropUnusedCaptures(out, vars.lastUse);
  return {
    scenario: {
      name: source.name,
      description: `Recorded from ${source.origin}.`,
      tags: ['recorded'],
      steps: kept.map((p) => p.step),
    },
    stepComments: kept.map((p) => p.comment),
    notes,
    warnings,
    dropped: vars.dropped,
  };
}

interface EntryState {
  vars: DraftVariables;
  sentStrings: Set<string>;
  webhookNames: Map<string, string>;
  previousAt: number;
  tokenSeen: boolean;
}

/** The entry's step; a string when it has none, only something to say (in a comment on the next step). */
function entryStep(e: DraftEntry, s: EntryState): Pending | string | undefined {
  if (NOT_STEPS.test(e.path)) return undefined;
  const nowMs = Date.parse(e.at);
  if (e.status === 0) {
    return `${e.method} ${e.path} was not answered: fault rule ${e.fault?.rule ?? '?'} dropped the connection (a replay cannot expect no answer)`;
  }
  const ok = e.status >= 200 && e.status < 300;
  const body = (e.requestBody ?? {}) as Record<string, unknown>;

  if (e.method === 'POST' && e.path === '/_sandbox/clock/advance' && ok) {
    let ms: number | undefined;
    if (typeof body.ms === 'number') ms = body.ms;
    else if (typeof body.duration === 'string') return { step: { advanceClock: body.duration } };
    else if (typeof body.to === 'string') ms = Math.max(0, Date.parse(body.to) - s.previousAt);
    if (ms === undefined) return undefined;
    return { step: { advanceClock: formatDuration(ms) } };
  }
  if (e.method === 'POST' && e.path === '/_sandbox/reset') return { step: { control: { reset: true, expect: { status: e.status } } } };
  const control = e.method === 'POST' ? CONTROL_PATH.exec(e.path) : null;
  if (control) {
    const target = CONTROL_TARGET[control[1] as keyof typeof CONTROL_TARGET];
    const id = decodeURIComponent(control[2]);
    const ref = s.vars.refFor(target, /^\d+$/.test(id) ? Number(id) : id);
    const step: Record<string, unknown> = { [target]: ref ?? id, action: control[3] };
    if (e.requestBody !== undefined && Object.keys(body).length > 0) step.body = templateOf(e.requestBody, s.vars, nowMs);
    const handedOut = e.handedOut ?? generatedValues(e.responseBody);
    step.expect = expectOf(e, s, handedOut);
    const capture = captures(e, s, handedOut);
    if (capture) step.capture = capture;
    const before = !ref && /^\d+$/.test(id) ? `${target} ${id} was created before the recorded range` : undefined;
    return { step: { control: step }, comment: before };
  }
  if (e.path === '/_sandbox/faults' && ok && (e.method === 'PUT' || e.method === 'DELETE')) {
    if (e.method === 'DELETE') return { step: { faults: 'clear' } };
    const seed = (e.responseBody as { seed?: unknown } | undefined)?.seed;
    return {
      step: { faults: { ...body, ...(seed !== undefined ? { seed } : {}) } },
      comment: 'the fault profile, with the seed it ran with',
    };
  }
  const bank = /^\/_sandbox\/banks\/([^/]+)$/.exec(e.path);
  if (bank && ok && (e.method === 'PUT' || e.method === 'DELETE')) {
    const bankId = decodeURIComponent(bank[1]);
    if (e.method === 'DELETE') return { step: { bank: { bankId, reset: true } } };
    const seed = (e.responseBody as { profile?: { seed?: unknown } } | undefined)?.profile?.seed;
    return {
      step: { bank: { bankId, ...body, ...(seed !== undefined ? { seed } : {}) } },
      comment: 'the bank profile, with the seed it ran with',
    };
  }
  if (e.method === 'POST' && e.path === '/v1/partner/webhooks' && ok) {
    const answer = e.responseBody as { id?: unknown } | undefined;
    const as = s.webhookNames.size === 0 ? 'webhook' : `webhook${s.webhookNames.size + 1}`;
    if (typeof answer?.id === 'string') {
      s.webhookNames.set(answer.id, as);
      s.vars.set('webhook', answer.id, `${as}.id`);
      s.vars.generated.add(answer.id);
    }
    const events = Array.isArray(body.events) ? body.events : [];
    return {
      step: { registerWebhook: { events, ...(as !== 'webhook' ? { as } : {}) } },
      comment: typeof body.url === 'string' ? `recorded for ${body.url}; a replay registers its own receiver` : undefined,
    };
  }

  const step: Record<string, unknown> = { method: e.method, path: s.vars.path(e.path) };
  if (Object.keys(e.query).length > 0) step.query = templateOf(e.query, s.vars, nowMs, '', e.path);
  const auth = e.headers.authorization !== undefined ? 'bearer' : e.headers['x-partner-client-id'] !== undefined ? undefined : 'none';
  if (auth) step.auth = auth;
  const headers: Record<string, unknown> = {};
  for (const h of REPLAYED_HEADERS) if (e.headers[h] !== undefined) headers[h] = templateOf(e.headers[h], s.vars, nowMs);
  if (Object.keys(headers).length > 0) step.headers = headers;
  const comments: string[] = [];
  if (e.requestBodyTruncated) comments.push('its body was longer than the journal keeps (--journal-body-limit): sent without one');
  else if (e.requestBody !== undefined) {
    const form = (e.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
    step[form ? 'form' : 'body'] = templateOf(e.requestBody, s.vars, nowMs, '', e.path);
  }
  if (auth === 'bearer' && !s.tokenSeen) comments.push('it used a token generated before the recorded range: pass one with --var token=…');
  if (e.status === 401 && auth === undefined) comments.push('refused for its credentials when recorded; a replay sends the runner’s');
  const handedOut = e.handedOut ?? generatedValues(e.responseBody);
  step.expect = expectOf(e, s, handedOut);
  const capture = e.path === '/v1/auth/generate-token' && ok ? { token: 'token' } : captures(e, s, handedOut);
  if (capture) step.capture = capture;
  return {
    step: { request: step },
    comment: comments.length > 0 ? comments.join('; ') : undefined,
    forCaptures: e.method === 'GET' && e.path.startsWith('/_sandbox/'),
  };
}

/** `handedOut`: the answer's generated values (generatedValues of its body). */
function expectOf(e: DraftEntry, s: EntryState, handedOut: GeneratedValue[]): Record<string, unknown> {
  const expect: Record<string, unknown> = { status: e.status };
  // what this answer hands out is volatile in this very step (its variable is set after the check)
  for (const g of handedOut) if (typeof g.value === 'string') s.vars.generated.add(g.value);
  const readForCaptures = e.method === 'GET' && e.path.startsWith('/_sandbox/');
  if (!e.responseBodyTruncated && typeof e.responseBody === 'object' && e.responseBody !== null && !readForCaptures) {
    const body = stableView(e.responseBody, s.vars, e.path);
    if (body !== undefined && !(typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0)) {
      expect.body = body;
    }
  }
  return expect;
}

/** Capture what the answer hands out that nothing sent before (a value the partner chose is not obsim's). */
function captures(e: DraftEntry, s: EntryState, handedOut: GeneratedValue[]): Record<string, string> | undefined {
  if (e.responseBodyTruncated || typeof e.responseBody !== 'object' || e.responseBody === null) return undefined;
  const out: Record<string, string> = {};
  for (const g of handedOut) {
    if (typeof g.value === 'string' && (g.value.length < 4 || g.value.includes('[redacted]') || s.sentStrings.has(g.value))) continue;
    const kind = kindOf(g.key, e.path);
    if (s.vars.nameFor(kind, g.value) !== undefined) continue;
    const name = s.vars.add(typeof g.value === 'number' ? kind : '', g.key, g.value);
    if (typeof g.value === 'string' && g.key.endsWith('Url')) s.vars.addUrlPath(g.value, name);
    out[name] = g.path;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Strings a request sent (path segments, query, body): an answer echoing one did not hand it out. */
function requestValues(e: DraftEntry): string[] {
  const values: string[] = e.path.split('/').filter((p) => p.length >= 4);
  const walk = (v: unknown) => {
    if (typeof v === 'string') values.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(e.query);
  walk(e.requestBody);
  return values;
}

/** Drop captures nothing uses (`lastUse`: each name → the last step referring to it), and the reads kept only for them. */
function dropUnusedCaptures(steps: Pending[], lastUse: ReadonlyMap<string, number>): Pending[] {
  const kept: Pending[] = [];
  steps.forEach((p, index) => {
    const kind = Object.keys(p.step)[0];
    const inner = p.step[kind] as Record<string, unknown> | undefined;
    const capture = inner && typeof inner === 'object' ? (inner.capture as Record<string, string> | undefined) : undefined;
    if (capture) {
      for (const name of Object.keys(capture)) if (name !== 'token' && !((lastUse.get(name) ?? -1) > index)) delete capture[name];
      if (Object.keys(capture).length === 0) delete inner!.capture;
    }
    if (p.forCaptures && !inner?.capture) return;
    kept.push(p);
  });
  return kept;
}
