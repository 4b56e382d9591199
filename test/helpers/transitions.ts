/**
 * What every sandbox's transitions must agree with (not a test file): each payment, merchant and
 * consent has a chain of transitions that starts at its creation (from null), where each step
 * leaves the state the previous one reached, and whose last state is the one the resource has now.
 */
import type { FastifyInstance } from 'fastify';
import type { TransitionRow } from '../../src/store/transitions.js';

/** Every resource of `partnerId` with its current state, keyed `resource:id`. */
function currentStates(app: FastifyInstance, partnerId: string): Map<string, string> {
  const rows = [
    ...(app.db.prepare("SELECT 'payment' AS r, id, status FROM payments WHERE partner_id = ?").all(partnerId) as {
      r: string;
      id: number;
      status: string;
    }[]),
    ...(app.db.prepare("SELECT 'merchant' AS r, id, status FROM merchants WHERE partner_id = ?").all(partnerId) as {
      r: string;
      id: number;
      status: string;
    }[]),
    ...(app.db
      .prepare(
        "SELECT 'consent' AS r, c.request_id AS id, c.status FROM consents c JOIN merchants m ON m.id = c.merchant_id WHERE m.partner_id = ?",
      )
      .all(partnerId) as { r: string; id: string; status: string }[]),
  ];
  return new Map(rows.map((r) => [`${r.r}:${r.id}`, r.status]));
}

/** What is wrong with a sandbox's transitions ([] when nothing), in words a failing test shows. */
export function transitionProblems(app: FastifyInstance, partnerId: string): string[] {
  const problems: string[] = [];
  const chains = new Map<string, TransitionRow[]>();
  for (const row of app.store.transitions.ofPartner(partnerId)) {
    const key = `${row.resource}:${row.resource_id}`;
    chains.set(key, [...(chains.get(key) ?? []), row]);
  }
  const states = currentStates(app, partnerId);
  for (const [key, state] of states) {
    const chain = chains.get(key);
    if (!chain) {
      problems.push(`${key} (${state}) has no transitions`);
      continue;
    }
    if (chain[0].from_state !== null) problems.push(`${key}: the first transition leaves ${chain[0].from_state}, not its creation`);
    for (let i = 1; i < chain.length; i++) {
      if (chain[i].from_state !== chain[i - 1].to_state) {
        problems.push(
          `${key}: transition ${chain[i].id} leaves ${chain[i].from_state} but the one before reached ${chain[i - 1].to_state}`,
        );
      }
      if (chain[i].from_state === chain[i].to_state) problems.push(`${key}: transition ${chain[i].id} stays in ${chain[i].to_state}`);
      if (chain[i].at < chain[i - 1].at) problems.push(`${key}: transition ${chain[i].id} goes back in time`);
    }
    const last = chain[chain.length - 1].to_state;
    if (last !== state) problems.push(`${key}: the last transition reached ${last}, the resource is ${state}`);
  }
  for (const key of chains.keys()) if (!states.has(key)) problems.push(`${key} has transitions but does not exist`);
  return problems;
}
