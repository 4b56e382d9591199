/**
 * A drift report made with obsim answering by a version V, adopted over V (src/contracts/adopt.ts):
 * the version written serves on its own and answers as the report says the upstream did, where V
 * had already changed the same things: a status V changed changes again (from the base's status),
 * a field V stopped sending that the upstream sends is sent, a field V made that the upstream does
 * not send is not. The oracle is the hand-written report (what the upstream answered), checked on
 * the answers of an obsim serving the file written; test/drift/adopt.test.ts runs the same against
 * the foreign provider double through `obsim drift run` and `obsim drift adopt`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { stringify } from 'yaml';
import { adoptDrifts, type DriftReportInput } from '../../src/contracts/adopt.js';
import { loadVersions } from '../../src/contracts/load.js';
import { committedProviderDocument } from '../../src/plugins/contract-versions.js';
import { build, json, PARTNER } from '../helpers/app.js';

const V = {
  overlay: '1.0.0',
  info: { title: 'V', version: 'v' },
  actions: [
    {
      target: "$.paths['/v1/partner/webhooks'].post.responses",
      update: {
        '201': {
          description: 'Registered',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookResponse' } } },
        },
      },
    },
    { target: '$.components.schemas.TestMerchantResponse', update: { required: ['merchantId', 'clientId', 'companyName', 'status'] } },
    { target: '$.components.schemas.TestMerchantResponse.properties', update: { region: { type: 'string' } } },
  ],
  'x-obsim': {
    operations: { registerWebhook: { status: { '200': 201 } } },
    answers: [
      { in: 'createTestMerchant', field: '/message', remove: true },
      { in: 'createTestMerchant', field: '/region', value: { const: 'eu-north' } },
    ],
  },
};

const exchange = (index: number, operationId: string, method: string, path: string, statuses: [number, number], drifts: object[]) => ({
  index,
  method,
  path,
  operationId,
  upstreamStatus: statuses[0],
  obsimStatus: statuses[1],
  verdict: 'drift',
  drifts,
});

/** What the upstream answered where obsim, under V, answered otherwise. */
const REPORT: DriftReportInput = {
  upstream: 'https://sandbox.provider.example',
  generatedAt: '2026-12-01T00:01:00.000Z',
  contractVersion: 'v',
  exchanges: [
    exchange(
      1,
      'createTestMerchant',
      'POST',
      '/v1/partner/merchants/test',
      [200, 200],
      [
        { kind: 'field_added', pointer: '/message', upstream: 'Ready to take payments' },
        { kind: 'field_missing', pointer: '/region', obsim: 'eu-north' },
      ],
    ),
    exchange(
      2,
      'registerWebhook',
      'POST',
      '/v1/partner/webhooks',
      [202, 201],
      [{ kind: 'status', pointer: '', upstream: 202, obsim: 201 }],
    ),
  ] as DriftReportInput['exchanges'],
  webhooks: [],
};

t.test('adopted over V: V’s changes and the upstream’s, each as the report says', async (t) => {
  const base = committedProviderDocument();
  const dir = t.testdir({ 'v.yaml': stringify(V) });
  const [v] = await loadVersions(dir, base);
  const adoption = adoptDrifts(REPORT, v.document, 'w', { name: v.name, overlay: v.overlay, switches: v.switches });
  t.same(adoption.notAdopted, []);
  writeFileSync(join(dir, 'w.yaml'), stringify(adoption.version));
  t.same(
    (await loadVersions(dir, base)).map((x) => x.name),
    ['v', 'w'],
    'both load, beside each other',
  );

  const app = await build(t, { config: { contracts: dir } });
  const under = (version: string) => ({ ...PARTNER, 'content-type': 'application/json', 'obsim-contract-version': version });
  const merchant = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: under('w'),
    payload: { companyName: 'Over ApS' },
  });
  t.equal(merchant.statusCode, 200);
  const body = json<Record<string, unknown>>(merchant);
  t.equal(body.message, 'Ready to take payments', 'the field V stopped sending is sent, as the upstream sent it');
  t.notOk('region' in body, 'the field V made is not sent: the upstream does not');
  const hook = await app.inject({
    method: 'POST',
    url: '/v1/partner/webhooks',
    headers: under('w'),
    payload: { url: 'https://partner.example/hooks', events: ['payment.completed'] },
  });
  t.equal(hook.statusCode, 202, 'the status V changed answers what the upstream answered');

  // V itself is untouched
  const underV = await app.inject({
    method: 'POST',
    url: '/v1/partner/webhooks',
    headers: under('v'),
    payload: { url: 'https://partner.example/hooks-v', events: ['payment.completed'] },
  });
  t.equal(underV.statusCode, 201);
});
