/**
 * Quiet: with an unmutated obsim as the upstream, every shipped scenario through a shadow reports
 * no drift, and at most 2 % of its exchanges and webhooks are uncomparable (docs/drift.md).
 * Webhooks are compared (the upstream reaches the shadow's receiver directly).
 */
import t from 'tap';
import { startObsim } from '../../src/index.js';
import { expandPaths, shippedScenariosDir } from '../../src/scenarios/loader.js';
import { runFiles } from '../../src/scenarios/runner.js';
import { httpTransport } from '../../src/scenarios/transport.js';
import { startShadow } from '../../src/shadow/shadow.js';
import { freePorts } from '../helpers/cluster.js';
import { scaled } from '../helpers/speed.js';

const files = expandPaths([shippedScenariosDir()]);
t.setTimeout(scaled(files.length * 5_000));

t.test('every shipped scenario: no drift, at most 2 % uncomparable', async (t) => {
  let compared = 0;
  let uncomparable = 0;
  let webhooks = 0;
  for (const file of files) {
    const upstream = await startObsim();
    const port = await freePorts(1);
    const shadow = await startShadow({
      upstream: upstream.baseUrl,
      port,
      publicUrl: `http://127.0.0.1:${port}`,
      // generous: a delivery is judged unpaired only after it, and the test polls until each is paired
      webhookWaitMs: 5_000,
    });
    try {
      const [result] = await runFiles([file], { transport: httpTransport(shadow.url) });
      t.ok(result.passed, `${result.name} passes through the shadow as it does against obsim`);
      await shadow.settled();
      const deadline = Date.now() + scaled(4_000);
      while ((await shadow.report()).summary.webhooks.waiting > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const { summary, exchanges, webhookEntries } = await shadow.report();
      t.same(
        [...exchanges, ...webhookEntries].filter((e) => e.verdict === 'drift').map((e) => e.drifts),
        [],
        `${result.name}: no drift`,
      );
      t.equal(summary.webhooks.waiting, 0, `${result.name}: every delivery paired`);
      compared += summary.exchanges.match + summary.exchanges.drift + summary.webhooks.match + summary.webhooks.drift;
      uncomparable += summary.exchanges.uncomparable + summary.webhooks.uncomparable;
      webhooks += summary.webhooks.match;
    } finally {
      await shadow.close();
      await upstream.close();
    }
  }
  const share = uncomparable / (compared + uncomparable);
  t.ok(share <= 0.02, `uncomparable ${uncomparable} of ${compared + uncomparable} (${(share * 100).toFixed(1)} %) <= 2 %`);
  t.ok(webhooks >= 15, `webhooks compared too (${webhooks} matched)`);
});
