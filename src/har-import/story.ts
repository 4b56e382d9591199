/**
 * The story a HAR tells, as the entries of a scenario draft (src/domain/scenario-draft.ts): each
 * API request as it was, plus what the HAR shows happening between requests that a replay on
 * obsim must make happen itself.
 *
 * - A state that changed with nothing sent to cause it (a payment polled `pending`, `pending`,
 *   `paid`): the provider's clock did it. The replay advances obsim's clock before the read that
 *   saw it, by the recorded time since the state began, and at least by obsim's own delay for that
 *   change (settlement, approval, expiry), so the same read sees the same state.
 * - A visit to a hosted page in another provider's layout: replaced by the control action that
 *   gives the outcome the next read shows (paid: complete; failed: fail with its reason;
 *   authorized: authorize; awaiting approval: submit-onboarding…). A visit to obsim's own page is
 *   replayed as it was (its form posts to `${paymentUrl}`).
 *
 * States are read by the contract's capture rule: an object of an answer that holds a payment's,
 * merchant's or consent request's id and its `status` (`onboardingStatus`).
 */
import { idsHandedOut, idsUsed, queryIdKindOf, type IdKind, type IdUse, type Operation } from '../contracts/ids.js';
import { journalHeaders } from '../domain/journal.js';
import { bankPaymentStatus, FAILURE_REASONS, type FailureReason } from '../domain/payment.js';
import { isSecretName, isSecretQueryName, REDACTED, redactJsonSecrets } from '../domain/redaction.js';
import type { DraftEntry } from '../domain/scenario-draft.js';
import type { GeneratedValue } from '../domain/scenario-draft-values.js';
import type { LifecycleSettings } from '../domain/settings.js';
import type { Classified, Link } from './classify.js';
import type { ReadEntry } from './har.js';

const LIFECYCLE_KINDS: ReadonlySet<IdKind> = new Set(['payment', 'merchant', 'consentRequest']);
const CONTROL_TARGET: Partial<Record<IdKind, string>> = { payment: 'payments', merchant: 'merchants', consentRequest: 'consents' };
/** obsim's failure reasons (the domain's list): any other recorded word is not obsim's. */
const OBSIM_FAILURE_REASONS: ReadonlySet<string> = new Set(FAILURE_REASONS);

interface Observation {
  key: string;
  kind: IdKind;
  value: string;
  status: string;
  reason?: string;
  /** The pointer of the object in the answer that reports it. */
  holder: string;
}

export interface Story {
  entries: DraftEntry[];
  /** Clock moves and payer steps added, in words. */
  inferred: string[];
  /** Ids a request used that no earlier answer handed out (kept as written). */
  literals: string[];
  /** Visits whose outcome the HAR does not show. */
  unseen: string[];
  /** Words of the recorded provider obsim does not have, and the ones the replay uses instead. */
  flagged: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function at(body: unknown, pointer: string): unknown {
  let node = body;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    node = Array.isArray(node) ? node[Number(key)] : isObject(node) ? node[key] : undefined;
  }
  return node;
}

/** The states an answer reports, one per object holding a lifecycle id and its status. */
function observe(op: Operation, status: number, body: unknown): Observation[] {
  const out: Observation[] = [];
  for (const h of idsHandedOut(op, status, body)) {
    if (h.link || !LIFECYCLE_KINDS.has(h.kind)) continue;
    const holder = at(body, h.holder);
    if (!isObject(holder)) continue;
    const state = holder.onboardingStatus ?? holder.status;
    if (typeof state !== 'string') continue;
    const reason = typeof holder.failureReason === 'string' ? holder.failureReason : undefined;
    out.push({ key: `${h.kind} ${h.value}`, kind: h.kind, value: String(h.value), status: state, reason, holder: h.holder });
  }
  return out;
}

/** `/accounts/0/accountId` → `accounts[0].accountId`, the runner's capture path. */
const capturePath = (pointer: string): string =>
  pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, t) => (/^\d+$/.test(t) ? `${acc}[${t}]` : acc === '' ? t : `${acc}.${t}`), '');

/** obsim's delay for a change its own clock makes (0: none known; the recorded time alone decides). */
function obsimDelay(o: Observation, settings: LifecycleSettings): number {
  if (o.kind === 'payment' && o.status === 'paid') return settings.settleDelayMs;
  if (o.kind === 'payment' && o.status === 'failed') return o.reason === 'expired' ? settings.paymentExpiryMs : settings.settleDelayMs;
  if (o.kind === 'merchant' && o.status === 'activated') return settings.approvalDelayMs;
  return 0;
}

/** The control action that gives `outcome` (from `before`), with its body. */
function payerAction(kind: IdKind, before: string | undefined, outcome: Observation): { action: string; body?: unknown } | undefined {
  if (kind === 'payment') {
    if (outcome.status === 'paid') return { action: 'complete' };
    if (outcome.status === 'processing') return { action: 'approve' };
    if (outcome.status === 'failed') {
      if (outcome.reason === 'payer_abandoned') return { action: 'abandon' };
      if (outcome.reason === 'expired') return { action: 'expire' };
      return { action: 'fail', body: { reason: obsimReason(outcome.reason) } };
    }
  }
  if (kind === 'merchant') {
    if (outcome.status === 'awaiting_approval')
      return { action: before === 'pending_completion' || before === 'pending_partner_ais' ? 'complete-fast-track' : 'submit-onboarding' };
    if (outcome.status === 'activated') return { action: 'activate' };
    if (outcome.status === 'rejected') return { action: 'reject' };
  }
  if (kind === 'consentRequest') {
    if (outcome.status === 'authorized') return { action: 'authorize' };
    if (outcome.status === 'failed') return { action: 'deny' };
  }
  return undefined;
}

/** obsim's failure reason for the one recorded: its own, or bank_rejected for a word obsim does not have (payer_cancelled). */
const obsimReason = (recorded: string | undefined): string => (OBSIM_FAILURE_REASONS.has(recorded ?? '') ? recorded! : 'bank_rejected');

/**
 * `body` with the failure reasons of `replaced` things set to the ones the replay gives them (and
 * their bankPaymentStatus): the reads after a payer step that failed a payment with obsim's nearest
 * reason expect what obsim answers then, not the recorded provider's words. A copy when anything changed; `body` itself otherwise.
 */
function withReplayedReasons(
  body: unknown,
  observations: Observation[],
  replaced: ReadonlyMap<string, { from: string; to: string }>,
): unknown {
  const changes = observations.filter((o) => o.reason !== undefined && replaced.get(o.key)?.from === o.reason);
  if (changes.length === 0) return body;
  const copy = structuredClone(body);
  for (const o of changes) {
    const holder = at(copy, o.holder) as Record<string, unknown>;
    const to = replaced.get(o.key)!.to as FailureReason;
    holder.failureReason = to;
    // its companion follows by obsim's own rule (bank_rejected is Rejected where the provider said Cancelled)
    if ('bankPaymentStatus' in holder) holder.bankPaymentStatus = bankPaymentStatus('failed', to);
  }
  return copy;
}

const iso = (ms: number) => new Date(ms).toISOString();
/** obsim's own HAR names each entry's instant on the sandbox clock in its comment. */
const SANDBOX_INSTANT = /\bat (\d{4}-\d{2}-\d{2}T[\d:.]+Z) on the sandbox clock/;

function entryAt(e: ReadEntry): number {
  const sandbox = e.comment ? Date.parse(SANDBOX_INSTANT.exec(e.comment)?.[1] ?? '') : NaN;
  // a comment is free text: an instant it names that no clock has is not one
  return Number.isNaN(sandbox) ? e.startedMs + e.timeMs : sandbox;
}

export function tellStory(classified: Classified[], settings: LifecycleSettings): Story {
  const story: Story = { entries: [], inferred: [], literals: [], unseen: [], flagged: [] };
  /** Things the replay fails with another reason than the recorded one: key → the recorded and the replayed reason. */
  const replacedReasons = new Map<string, { from: string; to: string }>();
  const handedOutValues = new Set<string>();
  const last = new Map<string, Observation>();
  /** When each thing's current state began: recorded instant and the replay's clock moves by then. */
  const anchor = new Map<string, { recordedMs: number; virtualMs: number }>();
  const caused = new Set<string>();
  let virtualMs = 0;
  let nextId = 1;
  const literalSeen = new Set<string>();

  const cause = (key: string, recordedMs: number) => {
    caused.add(key);
    anchor.set(key, { recordedMs, virtualMs });
  };
  const causeAll = (recordedMs: number) => {
    for (const key of last.keys()) cause(key, recordedMs);
  };
  const push = (e: Omit<DraftEntry, 'id'>) => story.entries.push({ id: nextId++, ...e });

  /** The next state of `key` some answer after position `from` reports. */
  const nextObservation = (from: number, key: string): Observation | undefined => {
    for (let i = from; i < classified.length; i++) {
      const c = classified[i];
      if (c.kind !== 'api' || !c.op) continue;
      const o = observe(c.op, c.entry.status, c.entry.responseBody).find((x) => x.key === key);
      if (o) return o;
    }
    return undefined;
  };

  // each entry's next entry of the story (a page or API request), found once, not per visit
  const nextInStory: number[] = new Array<number>(classified.length);
  for (let i = classified.length - 1, next = classified.length; i >= 0; i--) {
    nextInStory[i] = next;
    if (classified[i].kind === 'page' || classified[i].kind === 'api') next = i;
  }

  classified.forEach((c, i) => {
    if (c.kind === 'aborted' || c.kind === 'left') return;
    const e = c.entry;
    const atMs = entryAt(e);
    if (c.kind === 'page') {
      const key = c.link.resource ? `${c.link.resource.kind} ${c.link.resource.value}` : undefined;
      if (key) cause(key, atMs);
      if (c.link.obsimLayout) return push(pageEntry(e, atMs));
      // the visit ends at the last page request before the next API request
      const next = classified[nextInStory[i]] as Classified | undefined;
      if (next?.kind === 'page' && next.link === c.link) return;
      visitStep(c.link, e, atMs, key, i);
      return;
    }
    if (c.op === undefined) return push(apiEntry(c, e, atMs, []));
    // what this request itself changes is caused, not inferred
    if (c.path.startsWith('/_sandbox/') && e.method !== 'GET') causeAll(atMs);
    const used = idsUsed(c.op, e.query, e.requestBody);
    for (const u of used) {
      if (e.method !== 'GET') cause(`${u.kind} ${u.value}`, atMs);
      if (!handedOutValues.has(u.value) && !literalSeen.has(u.value)) {
        literalSeen.add(u.value);
        story.literals.push(`${u.kind} ${shownValue(u)} (${u.where} ${u.at} of entry #${e.index}, ${e.method} ${c.path})`);
      }
    }
    const observations = observe(c.op, e.status, e.responseBody);
    // a change nothing sent caused: the provider's clock made it; obsim's must too
    let advance = 0;
    const why: string[] = [];
    for (const o of observations) {
      const before = last.get(o.key);
      if (!before || before.status === o.status || caused.has(o.key)) continue;
      const since = anchor.get(o.key) ?? { recordedMs: atMs, virtualMs };
      const recorded = Math.ceil(Math.max(0, atMs - since.recordedMs) / 1000) * 1000;
      const needed = Math.max(recorded, obsimDelay(o, settings)) - (virtualMs - since.virtualMs);
      if (needed > advance) advance = needed;
      why.push(`${o.kind} ${o.value} went from ${before.status} to ${o.status} with nothing sent to cause it`);
    }
    if (advance > 0) {
      push(controlEntry('/_sandbox/clock/advance', { ms: advance }, { now: iso(atMs) }, atMs, `the clock moves on: ${why.join('; ')}`));
      story.inferred.push(`a clock advance of ${advance / 1000}s before entry #${e.index} (${why.join('; ')})`);
      virtualMs += advance;
    }
    const handed = idsHandedOut(c.op, e.status, e.responseBody);
    for (const h of handed) handedOutValues.add(String(h.value));
    for (const o of observations) {
      const before = last.get(o.key);
      // when its state began: its first answer (or what caused it), or now for a change the clock made
      if (!before) anchor.set(o.key, anchor.get(o.key) ?? { recordedMs: atMs, virtualMs });
      else if (before.status !== o.status && !caused.has(o.key)) anchor.set(o.key, { recordedMs: atMs, virtualMs });
      last.set(o.key, o);
      caused.delete(o.key);
    }
    const generated: GeneratedValue[] = handed.map((h) => ({ path: capturePath(h.pointer), key: h.key, value: h.value }));
    push({
      ...apiEntry(c, e, atMs, generated, handedOutValues),
      responseBody: withReplayedReasons(e.responseBody, observations, replacedReasons),
    });
  });
  return story;

  function visitStep(link: Link, e: ReadEntry, atMs: number, key: string | undefined, i: number): void {
    const where = `the visit to ${link.key} ending at entry #${e.index}`;
    if (!link.resource || !key) {
      story.unseen.push(`${where}: the link names nothing the HAR's answers identify`);
      return;
    }
    const before = last.get(key)?.status;
    let outcome = nextObservation(i + 1, key);
    if (!outcome) {
      // the page itself may say (obsim's and many providers' pages mark the state they show)
      const shown = /data-status="([a-z_]+)"/.exec(e.responseText)?.[1];
      if (shown) outcome = { key, kind: link.resource.kind, value: link.resource.value, status: shown, holder: '' };
    }
    const action = outcome && outcome.status !== before ? payerAction(link.resource.kind, before, outcome) : undefined;
    if (!outcome || !action) {
      story.unseen.push(
        `${where}: ${outcome ? `${link.resource.kind} stayed ${outcome.status}` : 'no later answer shows its outcome'}, so no payer step`,
      );
      return;
    }
    const target = CONTROL_TARGET[link.resource.kind]!;
    const path = `/_sandbox/${target}/${encodeURIComponent(link.resource.value)}/${action.action}`;
    const note = `the payer's visit to ${link.key} (entries up to #${e.index}), as the outcome the HAR shows: ${outcome.status}`;
    push(controlEntry(path, action.body, { status: outcome.status }, atMs, note));
    story.inferred.push(`a payer step (${link.resource.kind} ${action.action}) for ${where}: the HAR shows ${outcome.status}`);
    const replayed = (action.body as { reason?: string } | undefined)?.reason;
    if (outcome.reason !== undefined && replayed !== undefined && replayed !== outcome.reason) {
      replacedReasons.set(key, { from: outcome.reason, to: replayed });
      story.flagged.push(
        `${link.resource.kind} ${link.resource.value} failed with ${outcome.reason}, a reason obsim does not have: the replay fails it with ${replayed}, and the reads after it expect ${replayed} (bankPaymentStatus ${bankPaymentStatus('failed', replayed as FailureReason)})`,
      );
    }
    cause(key, atMs);
  }
}

/** A used id as the summary may show it: a value under a secret's name (an onboarding token) is kept out, as in the step. */
function shownValue(u: IdUse): string {
  const name = u.where === 'body' ? u.at.split('/').pop()!.replace(/~1/g, '/').replace(/~0/g, '~') : u.at;
  return (u.where === 'query' ? isSecretQueryName(name) : isSecretName(name)) ? REDACTED : u.value;
}

function controlEntry(path: string, body: unknown, answer: unknown, atMs: number, note: string): Omit<DraftEntry, 'id'> {
  return {
    at: iso(atMs),
    method: 'POST',
    path,
    query: {},
    headers: { 'x-partner-client-id': 'importer' },
    requestBody: body,
    requestBodyTruncated: false,
    status: 200,
    durationMs: 0,
    responseBody: answer,
    responseBodyTruncated: false,
    handedOut: [],
    note,
  };
}

/** A request's query as it may be written: secret-named parameters out, unless an answer handed the value out. */
function queryOf(query: Record<string, string | string[]>, keep: (v: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    // an id the document types as a number (merchantId) is one here too, so its variable is found
    const asId = (x: string) => (queryIdKindOf(k) !== undefined && /^\d{1,15}$/.test(x) ? Number(x) : x);
    out[k] = [v].flat().map((x) => (isSecretQueryName(k) && !keep(x) ? REDACTED : asId(x)));
    if (Array.isArray(out[k]) && (out[k] as unknown[]).length === 1) out[k] = (out[k] as unknown[])[0];
  }
  return out;
}

function apiEntry(
  c: Extract<Classified, { kind: 'api' }>,
  e: ReadEntry,
  atMs: number,
  handedOut: GeneratedValue[],
  handedOutValues: ReadonlySet<string> = new Set(),
): Omit<DraftEntry, 'id'> {
  const keep = (v: string) => handedOutValues.has(v);
  return {
    at: iso(atMs),
    method: e.method,
    path: c.path,
    query: queryOf(e.query, keep),
    // the partner's kept headers, credentials redacted: the replay sends the sandbox's own
    headers: journalHeaders(e.headers),
    requestBody: e.requestBody === undefined ? undefined : redactJsonSecrets(e.requestBody, keep),
    requestBodyTruncated: false,
    status: e.status,
    durationMs: e.timeMs,
    responseBody: e.responseBody,
    responseBodyTruncated: /body was cut/.test(e.comment ?? ''),
    handedOut,
    note: c.flag ? `imported as recorded, but ${c.flag}` : undefined,
  };
}

function pageEntry(e: ReadEntry, atMs: number): Omit<DraftEntry, 'id'> {
  return {
    at: iso(atMs),
    method: e.method,
    path: e.url.pathname,
    query: queryOf(e.query, () => false),
    headers: e.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
    requestBody: e.requestBody === undefined ? undefined : redactJsonSecrets(e.requestBody),
    requestBodyTruncated: false,
    status: e.status,
    durationMs: e.timeMs,
    responseBody: e.responseText === '' ? undefined : e.responseText,
    responseBodyTruncated: false,
    handedOut: [],
  };
}
