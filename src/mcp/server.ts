/**
 * The MCP server of `obsim mcp`, on the official SDK's low-level Server (tools with JSON
 * Schemas of our own, validated here with Ajv): the tools of tools.ts, the two OpenAPI documents
 * and the contract's documentation pages as resources, the current sandbox's overview as a live
 * resource, and two prompts that put the tools to work. Bad input is an MCP error naming the
 * problem; a call obsim refuses is a tool result with isError and obsim's error body.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot, packageVersion } from '../package-root.js';
import { documentText, providerOperations } from './contract.js';
import { ApiCallError, type Session } from './session.js';
import { TOOLS } from './tools.js';

/** The documentation pages offered as resources: the provider's contract as obsim implements it. */
const DOC_PAGES = ['partner-api', 'ais', 'lifecycle-and-webhooks', 'errors', 'decisions', 'sandbox-controls', 'openapi'] as const;

const PROMPTS = {
  'why-did-my-webhook-fail': {
    description: 'Find out why a webhook delivery failed and what to change in the receiver.',
    arguments: [{ name: 'deliveryId', description: 'The delivery to look at (default: the newest failed one)', required: false }],
    text: (args: Record<string, string | undefined>) =>
      `A webhook delivery from obsim failed${args.deliveryId ? ` (delivery ${args.deliveryId})` : ''}. Use list_deliveries with state "failed" to find it and read its outcome (timeout, connection_refused, non_2xx, redirect…), statusCode and error. If the receiver answered, search_journal shows what the integration sent around that time. Run check_receiver against the delivery's URL with the webhook's secret to see whether the receiver verifies signatures, answers within 10 seconds and tolerates duplicates and unknown events. Explain the cause in one paragraph, then the change to make in the receiver, then redeliver the delivery to confirm.`,
  },
  'what-is-left-before-go-live': {
    description: 'Review what the integration has and has not exercised against the sandbox before go-live.',
    arguments: [],
    text: () =>
      'Review this integration against the provider API before go-live. Start with readiness_report: its checklist and verdict, the operations never called and the answers not yet met (unseen), the states and events never reached, and the smells with their journal entries (read them with get_journal_entry). Read obsim://openapi/provider.json and obsim://docs/lifecycle-and-webhooks.md where the report needs explaining; search_journal and list_deliveries show the details. List what is covered, what is missing, each smell and how to fix it in the integration, and the next three things to test, each with the tool calls that would do it.',
  },
} as const;

export function createMcpServer(session: Session): Server {
  const server = new Server(
    { name: 'obsim', version: packageVersion() },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions:
        'obsim is an offline simulator of an open-banking provider API. These tools drive one sandbox of a running obsim: create one with create_sandbox, act with the partner API (create_test_merchant, create_payment, call_operation by operationId), move time (advance_clock), and read what happened (search_journal, list_deliveries).',
    },
  );
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validators = new Map<string, ValidateFunction>(TOOLS.map((tool) => [tool.name, ajv.compile(tool.input)]));
  const operationInputs = new Map([...providerOperations()].map(([id, op]) => [id, ajv.compile(op.input)]));
  const describe = (errors: ErrorObject[] | null | undefined, root: string) =>
    (errors ?? [])
      .map(
        (e) =>
          `${root}${e.instancePath || ''} ${e.message ?? 'is not valid'}${e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : ''}`,
      )
      .join('; ');

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.input,
      outputSchema: tool.output,
    })) as never,
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
    const args = request.params.arguments ?? {};
    const validate = validators.get(tool.name)!;
    if (!validate(args)) throw new McpError(ErrorCode.InvalidParams, `${tool.name}: ${describe(validate.errors, 'arguments')}`);
    if (tool.name === 'call_operation') {
      const check = operationInputs.get(args.operationId as string)!;
      if (!check(args.arguments ?? {}))
        throw new McpError(ErrorCode.InvalidParams, `call_operation ${String(args.operationId)}: ${describe(check.errors, 'arguments')}`);
    }
    try {
      const result = await tool.run(session, args);
      return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result as Record<string, unknown> };
    } catch (err) {
      const message = err instanceof ApiCallError ? err.message : (err as Error).message;
      return { content: [{ type: 'text', text: message }], isError: true };
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      {
        uri: 'obsim://openapi/provider.json',
        name: 'Provider API (OpenAPI 3.1)',
        mimeType: 'application/json',
        description: 'Every /v1 operation and webhook, by operationId',
      },
      {
        uri: 'obsim://openapi/controls.json',
        name: 'obsim controls (OpenAPI 3.1)',
        mimeType: 'application/json',
        description: "obsim's /_sandbox API",
      },
      ...DOC_PAGES.map((page) => ({ uri: `obsim://docs/${page}.md`, name: `docs/${page}.md`, mimeType: 'text/markdown' })),
      {
        uri: 'obsim://sandbox/overview',
        name: 'The current sandbox',
        mimeType: 'application/json',
        description: 'Clock and counts, read live',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const text = async (): Promise<[string, string]> => {
      if (uri === 'obsim://openapi/provider.json') return ['application/json', documentText('provider')];
      if (uri === 'obsim://openapi/controls.json') return ['application/json', documentText('controls')];
      if (uri === 'obsim://sandbox/overview')
        return ['application/json', JSON.stringify(await session.call('GET', '/_sandbox/overview'), null, 2)];
      const page = /^obsim:\/\/docs\/([a-z-]+)\.md$/.exec(uri)?.[1];
      if (page && (DOC_PAGES as readonly string[]).includes(page))
        return ['text/markdown', readFileSync(join(packageRoot(), 'docs', `${page}.md`), 'utf8')];
      throw new McpError(ErrorCode.InvalidParams, `no resource ${uri}`);
    };
    const [mimeType, body] = await text();
    return { contents: [{ uri, mimeType, text: body }] };
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: Object.entries(PROMPTS).map(([name, p]) => ({ name, description: p.description, arguments: [...p.arguments] })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const prompt = PROMPTS[request.params.name as keyof typeof PROMPTS];
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `no prompt ${request.params.name}`);
    return {
      description: prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text: prompt.text(request.params.arguments ?? {}) } }],
    };
  });
  return server;
}
