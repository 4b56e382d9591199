/**
 * `npm run bench:library` — obsim inside a test suite (docs/testing-with-obsim.md), in this
 * process, from the sources as a test suite would import the package:
 *
 *   1. startObsim() to ready (/healthz 200) with :memory:, after the first import: p50 / p99 of
 *      sequential start + close (limit: p50 <= 150 ms);
 *   2. a new sandbox per test: p50 / p99 of sim.sandbox() (limit: <= 5 ms added);
 *   3. 100 sequential test-style flows, each in its own sandbox on a frozen clock: a webhook to a
 *      local receiver, a test merchant, a payment, the clock advanced past the settle delay, the
 *      payment.completed delivery awaited on the delivery log (limit: <= 5 s in total).
 *
 *   options: --quick (fewer rounds)
 * Writes bench/results/library.{json,md}.
 */
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startObsim } from '../src/index.js';
import { machine } from './lib/proc.js';
import { percentile, round } from './lib/stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const STARTS = quick ? 10 : 40;
const SANDBOXES = quick ? 50 : 300;
const FLOWS = 100;
const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  // the first import and first start load the module graph and the lazily loaded parts
  const first = performance.now();
  await (await startObsim()).close();
  const firstMs = round(performance.now() - first, 1);

  const starts: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const t0 = performance.now();
    const sim = await startObsim();
    starts.push(performance.now() - t0);
    await sim.close();
  }
  log(`startObsim: p50 ${round(percentile(starts, 50))} ms (first ${firstMs} ms)`);

  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

  const sim = await startObsim();
  const boxes: number[] = [];
  for (let i = 0; i < SANDBOXES; i++) {
    const t0 = performance.now();
    const box = await sim.sandbox();
    boxes.push(performance.now() - t0);
    await box.delete();
  }
  log(`sandbox per test: p50 ${round(percentile(boxes, 50))} ms`);

  const flows: number[] = [];
  const total0 = performance.now();
  for (let i = 0; i < FLOWS; i++) {
    const t0 = performance.now();
    const box = await sim.sandbox({ clock: { frozen: true } });
    const { client } = box;
    await client.api.POST('/v1/partner/webhooks', { body: { url: hookUrl, events: ['payment.completed'] } });
    const merchant = await client.createTestMerchant();
    const ref = `flow-${i}`;
    await client.api.POST('/v1/partner/payments', { body: { merchantClientId: merchant.clientId, amount: 10, referenceNumber: ref } });
    await client.advanceClock('10s');
    await client.waitForDelivery({ event: 'payment.completed', match: { referenceNumber: ref } });
    await box.delete();
    flows.push(performance.now() - t0);
  }
  const flowsTotalMs = round(performance.now() - total0, 0);
  log(`${FLOWS} flows: ${flowsTotalMs} ms`);
  await sim.close();
  receiver.close();

  const results = {
    firstStartMs: firstMs,
    startP50Ms: round(percentile(starts, 50)),
    startP99Ms: round(percentile(starts, 99)),
    sandboxP50Ms: round(percentile(boxes, 50)),
    sandboxP99Ms: round(percentile(boxes, 99)),
    flowsTotalMs,
    flowP50Ms: round(percentile(flows, 50)),
  };
  const m = machine();
  const md = [
    `# obsim as a library benchmark — ${new Date().toISOString()}`,
    '',
    `Machine: ${m.nproc} cores, ${m.cpu}, Node ${m.node}. Command: \`npm run bench:library${quick ? ' -- --quick' : ''}\`. In-process, \`:memory:\`, default settings.`,
    '',
    '| measure | measured | limit |',
    '|---|---|---|',
    `| startObsim() to /healthz 200, after the first import (${STARTS} starts) | p50 ${results.startP50Ms} ms, p99 ${results.startP99Ms} ms (the first: ${firstMs} ms) | p50 <= 150 ms |`,
    `| a new sandbox per test (${SANDBOXES}) | p50 ${results.sandboxP50Ms} ms, p99 ${results.sandboxP99Ms} ms | <= 5 ms |`,
    `| ${FLOWS} sequential flows (sandbox, webhook, merchant, payment, clock advance, delivery awaited) | ${flowsTotalMs} ms in total (p50 ${results.flowP50Ms} ms each) | <= 5 s |`,
    '',
  ].join('\n');
  writeFileSync(
    join(ROOT, 'bench/results/library.json'),
    `${JSON.stringify({ date: new Date().toISOString(), machine: m, results }, null, 2)}\n`,
  );
  writeFileSync(join(ROOT, 'bench/results/library.md'), md);
  log(md);
}

await main();
