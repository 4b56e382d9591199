/**
 * The warm-up before the cases, as the outside harness does it (../shared/bench/anchors.sh): each
 * server in turn takes 3 s at 50 connections on each of the three core routes (GET onboarding
 * status, POST payments, POST transactions page of 20), then, a second later, its RSS is read:
 * the figure issue 74's memory limit is about (obsim's RSS after every case is larger).
 */
import { CASES, type Kind } from './cases.js';
import type { LoadGenerator } from './load.js';
import type { ObsimFixture } from './obsim.js';
import { rssMb, sleep, type Server } from './proc.js';
import { opts } from './run-setup.js';
import { round } from './stats.js';

const ROUTES = ['onboarding', 'payments', 'tx20'];

export async function warmUp(
  servers: Partial<Record<Kind, Server>>,
  fxOf: Partial<Record<Kind, ObsimFixture>>,
  load: LoadGenerator,
): Promise<Record<string, number | null>> {
  const rss: Record<string, number | null> = {};
  for (const [k, server] of Object.entries(servers) as [Kind, Server][]) {
    for (const id of ROUTES) {
      const req = CASES.find((c) => c.id === id)!.request(k, fxOf[k] ?? fxOf.obsim!);
      if (req) await load.run({ ...req, unique: false, url: server.url, connections: opts.connections, durationS: opts.warmupS });
    }
    await sleep(1000);
    rss[k] = round(rssMb(server.pid), 1);
  }
  return rss;
}
