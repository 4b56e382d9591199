/**
 * `obsim mcp` through the official SDK's own client over stdio, as an assistant would use it:
 * every tool's input and output schema compiles; a whole flow (new sandbox, merchant, webhook,
 * payment, clock advanced, paid, the journal shows it, the delivery is listed and signed) runs
 * through tools only; malformed arguments are MCP errors with the validation message and calls
 * obsim refuses are tool errors with its error body; secrets of sandboxes the session did not
 * create are hidden; resources and prompts answer; and standard output stays clean protocol
 * over 100 concurrent tool calls.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { startObsim, type Obsim } from '../../src/index.js';
import { BIN, cleanEnv, ROOT } from '../helpers/processes.js';
import { expectedSignature, startReceiver } from '../helpers/receiver.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));

type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };

async function connect(t: Test, args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...BIN, 'mcp', ...args],
    cwd: ROOT,
    env: cleanEnv() as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'obsim-test', version: '1.0.0' });
  await client.connect(transport);
  t.teardown(() => client.close());
  return { client, stderr: () => stderr };
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<Result>;

let sim: Obsim;
t.before(async () => {
  sim = await startObsim();
});
t.teardown(() => sim.close());

t.test('tools: names, descriptions, and input and output schemas that compile', async (t) => {
  const { client } = await connect(t, ['--base-url', sim.baseUrl]);
  const { tools } = await client.listTools();
  const ajv = new Ajv({ strict: false });
  addFormats.default(ajv);
  const names = tools.map((tool) => tool.name);
  for (const name of [
    'create_sandbox',
    'list_sandboxes',
    'delete_sandbox',
    'create_test_merchant',
    'create_payment',
    'register_webhook',
    'call_operation',
    'get_clock',
    'advance_clock',
    'freeze_clock',
    'resume_clock',
    'trigger_event',
    'drive_payment',
    'drive_merchant',
    'list_payments',
    'list_merchants',
    'list_consents',
    'search_journal',
    'get_journal_entry',
    'verify_requests',
    'list_deliveries',
    'redeliver',
    'check_receiver',
    'readiness_report',
    'run_scenario',
    'list_banks',
    'set_bank_profile',
    'list_contract_versions',
  ])
    t.ok(names.includes(name), `${name} is offered`);
  t.equal(new Set(names).size, names.length, 'names are unique');
  for (const tool of tools) {
    t.ok((tool.description ?? '').length > 30, `${tool.name}: a description to act on`);
    t.doesNotThrow(() => ajv.compile(tool.inputSchema), `${tool.name}: input schema compiles`);
    t.equal(tool.outputSchema?.type, 'object', `${tool.name}: an output schema`);
    t.doesNotThrow(() => ajv.compile(tool.outputSchema!), `${tool.name}: output schema compiles`);
  }
  const op = tools.find((tool) => tool.name === 'call_operation')!;
  t.match(
    (op.inputSchema.properties as { operationId: { enum: string[] } }).operationId.enum,
    ['createMerchant', 'listMerchants'],
    'call_operation names operations by operationId',
  );
});

t.test('a whole flow through tools only: sandbox, merchant, webhook, payment, clock, paid, journal, delivery', async (t) => {
  const rx = await startReceiver(t);
  const { client } = await connect(t, ['--base-url', sim.baseUrl]);
  const created = await call(client, 'create_sandbox', { name: 'mcp flow', frozenClock: true });
  t.notOk(created.isError, created.content[0].text ?? '');
  const sandboxId = created.structuredContent.sandboxId as string;
  t.match(created.structuredContent.credentials, { clientId: sandboxId, clientSecret: /\w+/ }, 'its own credentials are shown');

  const merchant = (await call(client, 'create_test_merchant', { companyName: 'MCP Shop ApS' })).structuredContent;
  t.equal(merchant.status, 'activated');
  const webhook = await call(client, 'register_webhook', { url: `${rx.url}/hook`, events: ['payment.completed'] });
  t.match(webhook.structuredContent.secret, /^whsec_/, 'the webhook secret of a sandbox it created is shown');
  const payment = (await call(client, 'create_payment', { amount: 42.5, merchantClientId: merchant.clientId, referenceNumber: 'mcp-1' }))
    .structuredContent;
  t.equal(payment.status, 'pending');
  t.match(payment.paymentUrl, `${sim.baseUrl}/pay/`, 'links name the port obsim really listens on');

  const advanced = await call(client, 'advance_clock', { duration: '1h' });
  t.ok(advanced.structuredContent.fired >= 1, 'the settlement fired');
  const status = await call(client, 'call_operation', {
    operationId: 'getPaymentStatus',
    arguments: { path: { paymentId: payment.paymentId } },
  });
  t.match(status.structuredContent, {
    operationId: 'getPaymentStatus',
    status: 200,
    body: { paymentId: payment.paymentId, status: 'paid' },
  });

  const journal = (await call(client, 'search_journal', { path: '/v1/partner/payments', method: 'POST' })).structuredContent;
  t.equal(journal.items.length, 1, 'the journal shows the payment request');
  t.match(journal.items[0], { method: 'POST', status: 200 });
  const entry = (await call(client, 'get_journal_entry', { id: journal.items[0].id })).structuredContent;
  t.match(entry.requestBody, { referenceNumber: 'mcp-1' });
  const verified = (await call(client, 'verify_requests', { request: { method: 'POST', path: '/v1/partner/payments' }, count: 1 }))
    .structuredContent;
  t.same(verified, { verified: true, actual: 1 });

  await rx.waitFor(1);
  const deliveries = (await call(client, 'list_deliveries', { event: 'payment.completed' })).structuredContent;
  t.equal(deliveries.items.length, 1);
  t.match(deliveries.items[0], { event: 'payment.completed', state: 'delivered', statusCode: 200 });
  t.equal(
    rx.received[0].headers['x-webhook-signature'],
    expectedSignature(webhook.structuredContent.secret, rx.received[0].raw),
    'signed with the secret',
  );
  const again = (await call(client, 'redeliver', { deliveryId: deliveries.items[0].id })).structuredContent;
  t.equal(again.redeliveryOf, deliveries.items[0].id);

  const triggered = (await call(client, 'trigger_event', { event: 'payment.completed', amount: 10 })).structuredContent;
  t.match(triggered, { event: 'payment.completed', allDelivered: true });
  const scenario = (await call(client, 'run_scenario', { name: 'payment-paid', isolate: true })).structuredContent;
  t.equal(scenario.passed, true, 'a shipped scenario runs');
  const fromFile = (await call(client, 'run_scenario', { file: join(ROOT, 'scenarios/payment-paid.yaml'), isolate: true }))
    .structuredContent;
  t.match(fromFile, { name: 'payment-paid', passed: true }, 'a scenario file runs');
  const down = (await call(client, 'set_bank_profile', { bankId: 'nordlys-bank', profile: 'outage-1h', fields: { ais: { pageSize: 20 } } }))
    .structuredContent;
  t.match(
    down,
    { bankId: 'nordlys-bank', health: 'down', profile: { profile: 'outage-1h', ais: { pageSize: 20 } } },
    'a bank profile is set',
  );
  const banks = (await call(client, 'list_banks')).structuredContent;
  t.equal(banks.items.find((b: { bankId: string }) => b.bankId === 'nordlys-bank').health, 'down', 'and listed');
  t.equal((await call(client, 'set_bank_profile', { bankId: 'nordlys-bank', reset: true })).structuredContent.profile, null, 'and reset');
  const overview = (await call(client, 'get_overview')).structuredContent;
  t.equal(overview.sandboxId, sandboxId, 'every tool acted on the created sandbox');
  const readiness = (await call(client, 'readiness_report')).structuredContent;
  t.equal(readiness.sandboxId, sandboxId, "the readiness report is the session's sandbox's");
  t.ok(
    readiness.operations.some((o: { operationId: string; called: boolean }) => o.operationId === 'createPayment' && o.called),
    'it saw the payment the tools created',
  );

  // a receiver that answers 200 to everything accepts forged signatures: check_receiver says so
  const lax = await startReceiver(t);
  const report = (await call(client, 'check_receiver', { url: `${lax.url}/hook`, secret: 'whsec_0123', timeoutMs: 1000 }))
    .structuredContent;
  t.ok(
    report.passed > 0 && report.failed > 0,
    `some checks pass, the forged-signature ones fail (${report.passed} passed, ${report.failed} failed)`,
  );
  t.ok(
    report.checks.some((c: { id: string; status: string }) => /signature/.test(c.id) && c.status === 'fail'),
    'a signature check failed',
  );

  const deleted = await call(client, 'delete_sandbox');
  t.notOk(deleted.isError);
  const gone = await sim.client.api.GET('/_sandbox/sandboxes/{sandboxId}', { params: { path: { sandboxId } } });
  t.equal(gone.response.status, 404, 'the sandbox is gone');
});

t.test('bad input is an MCP error naming the problem; a refusal is a tool error with the error body', async (t) => {
  const { client } = await connect(t, ['--base-url', sim.baseUrl, '--new-sandbox']);
  await t.rejects(call(client, 'create_payment', { amount: 'twelve' }), /create_payment: arguments\/amount must be number/);
  await t.rejects(call(client, 'advance_clock', { duration: 'soon' }), /arguments\/duration must match pattern/);
  await t.rejects(
    call(client, 'drive_payment', { paymentId: 1, action: 'refund' }),
    /must be equal to one of the allowed values \(approve, complete, fail, abandon, expire\)/,
  );
  await t.rejects(
    call(client, 'call_operation', { operationId: 'getPaymentStatus', arguments: {} }),
    /call_operation getPaymentStatus: arguments must have required property 'path'/,
  );
  await t.rejects(
    call(client, 'call_operation', { operationId: 'refundPayment' }),
    /operationId must be equal to one of the allowed values/,
  );
  await t.rejects(call(client, 'no_such_tool'), /unknown tool no_such_tool/);
  const refused = await call(client, 'drive_payment', { paymentId: 999999, action: 'complete' });
  t.equal(refused.isError, true);
  t.match(refused.content[0].text, /answered 404 payment_not_found/);
  const unknown = await call(client, 'get_clock', { sandbox: 'sbx_not_mine' });
  t.equal(unknown.isError, true);
  t.match(unknown.content[0].text, /was not created in this session/);
  t.equal((await call(client, 'get_clock')).isError, undefined, 'the session goes on');
});

t.test('secrets of a sandbox the session did not create are hidden', async (t) => {
  const { client } = await connect(t, ['--base-url', sim.baseUrl]);
  const webhook = (await call(client, 'register_webhook', { url: 'https://hooks.example.test/x' })).structuredContent;
  t.match(webhook.secret, /^\[hidden/, "the default partner's webhook secret is not shown");
  const token = (
    await call(client, 'call_operation', {
      operationId: 'generateToken',
      arguments: { body: { userId: 'user-typical', merchantId: 100001, permissions: ['ais:accounts:read'] } },
    })
  ).structuredContent;
  t.match(token.body.token, /^\[hidden/, 'nor its tokens');
});

t.test('resources and prompts', async (t) => {
  const { client } = await connect(t, ['--in-process', '--new-sandbox']);
  const { resources } = await client.listResources();
  const uris = resources.map((r) => r.uri);
  t.ok(
    uris.includes('obsim://openapi/provider.json') &&
      uris.includes('obsim://openapi/controls.json') &&
      uris.includes('obsim://sandbox/overview'),
  );
  const provider = await client.readResource({ uri: 'obsim://openapi/provider.json' });
  t.equal(
    (provider.contents[0] as { text: string }).text,
    readFileSync(join(ROOT, 'openapi.json'), 'utf8'),
    'the committed provider document',
  );
  const page = await client.readResource({ uri: 'obsim://docs/lifecycle-and-webhooks.md' });
  t.match((page.contents[0] as { text: string }).text, /payment\.completed/);
  const overview = JSON.parse(((await client.readResource({ uri: 'obsim://sandbox/overview' })).contents[0] as { text: string }).text);
  t.match(overview.sandboxId, /^sbx_/, 'the in-process obsim, in the new sandbox');
  await t.rejects(client.readResource({ uri: 'obsim://docs/secrets.md' }), /no resource/);
  const { prompts } = await client.listPrompts();
  t.same(prompts.map((p) => p.name).sort(), ['what-is-left-before-go-live', 'why-did-my-webhook-fail']);
  const prompt = await client.getPrompt({ name: 'why-did-my-webhook-fail', arguments: { deliveryId: '7' } });
  t.match((prompt.messages[0].content as { text: string }).text, /delivery 7.*list_deliveries.*check_receiver/s);
});

t.test("docs/mcp.md's configuration, as an assistant runs it", async (t) => {
  const docs = readFileSync(join(ROOT, 'docs/mcp.md'), 'utf8');
  const block = /<!-- example:mcp-config -->\n```json\n([\s\S]*?)```/.exec(docs);
  t.ok(block, 'the configuration block');
  const server = (JSON.parse(block![1]) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> })
    .mcpServers.obsim;
  t.equal(server.command, 'npx');
  t.same(server.args.slice(0, 2), ['obsim', 'mcp'], 'npx obsim mcp …');
  // `npx obsim` is this checkout's bin; the URL is this test's obsim
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...BIN, ...server.args.slice(1)],
    cwd: ROOT,
    env: { ...(cleanEnv() as Record<string, string>), ...server.env, OBSIM_BASE_URL: sim.baseUrl },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'assistant', version: '1.0.0' });
  await client.connect(transport);
  t.teardown(() => client.close());
  const clock = await call(client, 'get_clock');
  t.notOk(clock.isError);
  const overview = (await call(client, 'get_overview')).structuredContent;
  t.match(overview.sandboxId, /^sbx_/, '--new-sandbox: the assistant works in a sandbox of its own');
});

t.test('standard output is protocol only, over 100 concurrent tool calls', async (t) => {
  const child = spawn(process.execPath, [...BIN, 'mcp', '--base-url', sim.baseUrl, '--new-sandbox'], {
    cwd: ROOT,
    env: cleanEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  t.teardown(() => child.kill());
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  for (let i = 1; i <= 100; i++) {
    const name = ['get_clock', 'list_payments', 'get_overview', 'create_test_merchant'][i % 4];
    send({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: {} } });
  }
  for (let i = 0; i < 600 && stdout.split('\n').filter(Boolean).length < 101; i++) await new Promise((r) => setTimeout(r, 50));
  const lines = stdout.split('\n').filter(Boolean);
  t.equal(lines.length, 101, 'one line per answer');
  const answers = lines.map((line) => JSON.parse(line) as { jsonrpc: string; id: number; result?: { isError?: boolean } });
  t.ok(
    answers.every((a) => a.jsonrpc === '2.0'),
    'every line is JSON-RPC',
  );
  t.same(
    answers.map((a) => a.id).sort((a, b) => a - b),
    Array.from({ length: 101 }, (_, i) => i),
    'every call answered once',
  );
  t.ok(
    answers.every((a) => a.result && !a.result.isError),
    'every call succeeded',
  );
});
