/**
 * The README's first five minutes, run verbatim: the shell block between the quickstart markers,
 * with bash, curl and jq, against a listening simulator started like `npm start` (the webhook
 * URL pointed at a local receiver instead of `obsim listen` on port 9000).
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { defaultConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { verify } from '../../src/webhooks/sign.js';
import { docsPage } from '../helpers/docs.js';
import { startReceiver } from '../helpers/receiver.js';
import { scaled } from '../helpers/speed.js';

const quickstart = (): string => docsPage('README.md').block('quickstart', 'sh');

const missing = ['bash', 'curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

t.test(
  'the README quick start: test merchant, webhook, payment, clock advance, paid and delivered',
  { skip: missing.length > 0 && !process.env.CI ? `${missing.join(', ')} not installed` : false },
  async (t) => {
    const rx = await startReceiver(t);
    const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent' }, () => undefined);
    t.teardown(() => server.close());
    const script = quickstart().replace(/http:\/\/127\.0\.0\.1:9000/g, rx.url);
    t.not(script, quickstart(), 'the block registers the obsim listen address, replaced by the test receiver');

    // asynchronously: the simulator answers from this process
    const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
      env: { ...process.env, OBSIM: server.url },
      encoding: 'utf8',
      timeout: scaled(30_000),
    }).then(
      (r) => ({ ...r, ok: true }),
      (err: { stdout: string; stderr: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? String(err), ok: false }),
    );
    t.ok(run.ok, `the block runs without error\n${run.stderr}`);
    t.ok(
      run.stdout.endsWith('paid\npayment.completed\n'),
      `it ends by printing paid and payment.completed (got ${JSON.stringify(run.stdout.slice(-80))})`,
    );

    // the delivery reaches the receiver, signed with the webhook's secret
    await server.app.webhooks.drain();
    const delivery = rx.received.find((r) => r.json?.event === 'payment.completed');
    t.ok(delivery, 'payment.completed received');
    t.match(delivery?.json?.data, { status: 'paid', referenceNumber: 'order-1001', amount: 149.95 });
    const secret = /"secret":"(whsec_[0-9a-f]+)"/.exec(run.stdout)?.[1];
    t.ok(
      secret && delivery && verify(secret, delivery.raw, delivery.headers['x-webhook-signature'] as string | undefined),
      'X-Webhook-Signature verifies with the secret the block printed',
    );
  },
);
