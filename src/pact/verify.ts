/**
 * `obsim pact verify` behind the command: Pact's reference verifier (Pact JS's Verifier, the Rust
 * verifier inside @pact-foundation/pact) replays each pact against obsim, with obsim itself as the
 * state-change target (POST /_sandbox/pact/provider-states) and the sandbox's credentials sent on
 * every request and state change (customProviderHeaders). Its JSON result becomes one result per
 * interaction; a state change obsim refused is explained from the sandbox's journal, where the
 * refusal (naming the state and the known ones, or the param) was recorded.
 */
import { CONTRACT_VERSION_HEADER } from '../domain/contract-switches.js';
import { redactString } from '../domain/redaction.js';
import type { PartnerCredentials } from '../scenarios/context.js';
import { loadVerifier } from './libraries.js';

export interface InteractionResult {
  consumer: string;
  provider: string;
  description: string;
  states: string[];
  ok: boolean;
  /** What the verifier said went wrong, one line each, and obsim's word on a refused state. */
  problems: string[];
}

export interface VerifyRun {
  results: InteractionResult[];
  /** The verifier's own report, as it printed it. */
  output: string[];
}

interface VerifierJson {
  result?: boolean;
  output?: string[];
  interactionResults?: {
    consumer: string;
    provider: string;
    description: string;
    providerStates?: string[];
    result: string;
    mismatch?: { message?: string; mismatches?: { mismatch?: string; path?: string; type?: string }[] };
  }[];
}

function parseResult(text: string): VerifierJson | undefined {
  try {
    return JSON.parse(text) as VerifierJson;
  } catch {
    return undefined;
  }
}

const headersOf = (credentials: PartnerCredentials) => ({
  'X-Partner-Client-Id': credentials.clientId,
  'X-Partner-Client-Secret': credentials.clientSecret,
});

/** The state changes obsim refused in the sandbox, by state name: what it answered. */
async function refusedStates(url: string, credentials: PartnerCredentials): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  try {
    const res = await fetch(`${url}/_sandbox/requests?path=${encodeURIComponent('/_sandbox/pact/provider-states')}&method=POST&limit=500`, {
      headers: headersOf(credentials),
    });
    if (!res.ok) return refused;
    const { items } = (await res.json()) as {
      items: { status: number; requestBody?: { state?: string }; responseBody?: { message?: string } }[];
    };
    for (const e of items)
      if (e.status >= 400 && typeof e.requestBody?.state === 'string' && !refused.has(e.requestBody.state))
        refused.set(e.requestBody.state, `${e.status}: ${e.responseBody?.message ?? 'refused'}`);
  } catch {
    /* the journal is off or unreachable: the verifier's own words stand */
  }
  return refused;
}

export async function runVerifier(opts: {
  pacts: readonly string[];
  url: string;
  credentials: PartnerCredentials;
  /** Sent on every request (a sandbox of the partner's own that is not pinned to it). */
  contractVersion?: string;
  command: string;
}): Promise<VerifyRun> {
  const Verifier = loadVerifier(opts.command);
  const custom: Record<string, string> = {
    ...headersOf(opts.credentials),
    ...(opts.contractVersion ? { [CONTRACT_VERSION_HEADER]: opts.contractVersion } : {}),
  };
  const verifier = new Verifier({
    providerBaseUrl: opts.url,
    pactUrls: [...opts.pacts],
    providerStatesSetupUrl: `${opts.url}/_sandbox/pact/provider-states`,
    customProviderHeaders: custom,
    // the verifier adds custom headers beside a pact's own of another spelling (a consumer's
    // `x-partner-client-id: placeholder`): its proxy puts the sandbox's credentials in their place
    requestFilter: (req: { headers: Record<string, unknown> }, _res: unknown, next: () => void) => {
      for (const [name, value] of Object.entries(custom)) req.headers[name.toLowerCase()] = value;
      next();
    },
    logLevel: 'error',
  });
  let json: VerifierJson | undefined;
  try {
    json = parseResult(await verifier.verifyProvider());
  } catch (err) {
    // a failed verification rejects with the same JSON result as its message
    json = parseResult((err as Error).message);
    if (!json) throw err;
  }
  if (!json) throw new Error(`${opts.command}: the verifier answered no result`);
  const refused = await refusedStates(opts.url, opts.credentials);
  const results = (json.interactionResults ?? []).map((r): InteractionResult => {
    const states = r.providerStates ?? [];
    const problems: string[] = [];
    if (r.mismatch?.message) problems.push(r.mismatch.message);
    for (const m of r.mismatch?.mismatches ?? [])
      problems.push(m.path ? `${m.path}: ${m.mismatch ?? m.type}` : (m.mismatch ?? String(m.type)));
    if (r.result !== 'OK' && /state change/i.test(r.mismatch?.message ?? ''))
      for (const state of states) {
        const why = refused.get(state);
        if (why) problems.push(`obsim refused the provider state ${JSON.stringify(state)}: ${why}`);
      }
    // what is printed and written to JUnit leaves by the one redaction policy: a body mismatch may quote a token
    return {
      consumer: r.consumer,
      provider: r.provider,
      description: r.description,
      states,
      ok: r.result === 'OK',
      problems: problems.map(redactString),
    };
  });
  return { results, output: json.output ?? [] };
}
