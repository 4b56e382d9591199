/**
 * A HAR recorded under a contract version (its Obsim-Contract-Version header) is read by that
 * version's document as the registry serves it, not by the base's: the example version answers a
 * webhook's registration 201, which the base does not document, so only its document says that
 * the answer hands out the webhook's id that the test delivery then uses. Through the route, the
 * importer has the versions this obsim serves; a version it does not serve is flagged.
 */
import t from 'tap';
import { parse } from 'yaml';
import { parseScenarioText, validateScenario } from '../../src/scenarios/loader.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { injectTransport } from '../../src/scenarios/transport.js';
import { build, json } from '../helpers/app.js';
import { failure } from '../helpers/scenarios.js';

const V = '2027-03-01';

t.test('a HAR under a contract version: read by its document, replayed under it; a version not served is flagged', async (t) => {
  const app = await build(t, { config: { contracts: 'examples/contracts' } });
  const sandbox = async (name: string) => {
    const s = json<{ credentials: { clientId: string; clientSecret: string } }>(
      await app.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: { name, clock: { frozen: true } } }),
    );
    return {
      partner: s.credentials,
      headers: { 'x-partner-client-id': s.credentials.clientId, 'x-partner-client-secret': s.credentials.clientSecret },
    };
  };
  const recorded = await sandbox('recorded');
  const versioned = { ...recorded.headers, 'obsim-contract-version': V };
  const hook = await app.inject({
    method: 'POST',
    url: '/v1/partner/webhooks',
    headers: versioned,
    payload: { url: 'http://127.0.0.1:9/hooks', events: ['payment.completed'] },
  });
  t.equal(hook.statusCode, 201, "the version's status");
  const test = await app.inject({ method: 'POST', url: `/v1/partner/webhooks/${json(hook).id}/test`, headers: versioned });
  t.equal(test.statusCode, 200);
  const har = (await app.inject({ method: 'GET', url: '/_sandbox/requests?format=har', headers: recorded.headers })).body;

  const res = await app.inject({
    method: 'POST',
    url: '/_sandbox/scenarios/import?format=json',
    headers: { ...recorded.headers, 'content-type': 'application/json' },
    payload: har,
  });
  t.equal(res.statusCode, 200);
  const { yaml, summary } = json<{
    yaml: string;
    summary: { contractVersion?: string; literals: string[]; flagged: string[] };
  }>(res);
  t.equal(summary.contractVersion, V);
  t.same(summary.literals, [], 'the webhook id the test delivery uses was handed out by the 201 answer, which only the version documents');
  t.same(summary.flagged, []);
  const steps = (parse(yaml) as { steps: Record<string, any>[] }).steps;
  t.match(steps, [{ registerWebhook: {} }, { request: { path: '/v1/partner/webhooks/${webhook.id}/test' } }]);

  const replay = await runScenario(validateScenario(parseScenarioText(yaml, 'versioned.yaml'), 'versioned.yaml'), {
    transport: injectTransport(app),
    partner: (await sandbox('replay')).partner,
  });
  t.ok(replay.passed, `the import runs green under ${V}${failure(replay)}\n${yaml}`);

  const unknown = await app.inject({
    method: 'POST',
    url: '/_sandbox/scenarios/import?format=json',
    headers: { ...recorded.headers, 'content-type': 'application/json' },
    payload: har.replaceAll(`"value":"${V}"`, '"value":"2031-01-01"'),
  });
  t.equal(unknown.statusCode, 200);
  t.match(json(unknown).summary.flagged, [/contract version 2031-01-01, which this obsim does not serve \(base, 2027-03-01\)/]);
});
