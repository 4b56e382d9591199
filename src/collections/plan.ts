/**
 * What obsim adds to a converted collection (docs/partner-tools.md), said once for Postman and
 * Bruno: which variable each request reads where the document places an id or a date, which
 * variable each answer hands out for later requests, what every answer is checked for, and the
 * Flows folder's steps. The converters know the document; they cannot know the order a partner's
 * story runs in, obsim's clock and consent controls, or this sandbox.
 *
 * Checks come from the served document only: the 2xx status codes an operation documents, the
 * fields its answer schema requires and, for a contract version, the top-level answer fields the
 * version adds (required) or removes against the base.
 */
import { deref, operationsOf, type Operation } from '../contracts/walk.js';
import type { OpenApiDocument } from '../openapi/documents.js';

type Json = Record<string, unknown>;

/** A check of one answer, rendered in each tool's script language (./scripts.ts). */
export type Check =
  | { kind: 'status'; codes: number[] }
  | { kind: 'required'; fields: string[]; version: string }
  | { kind: 'present'; field: string; version: string }
  | { kind: 'absent'; field: string; version: string }
  | { kind: 'equals'; pointer: string; value: string }
  | { kind: 'sameAs'; pointer: string; variable: string }
  | { kind: 'capture'; variable: string; pointer: string };

/** What a request does before it is sent: read the sandbox clock into the date variables. */
export type Prepare = 'clock';

/** A request obsim writes itself (a Flows step or a control between two operations). */
export interface Step {
  name: string;
  description: string;
  /** A document operation (copied from the converter's request, then changed) or one of obsim's controls. */
  operationId?: string;
  method: 'GET' | 'POST';
  /** The path with `{{variable}}` where an id goes. */
  path: string;
  /** The raw JSON body, `{{variable}}` where a value goes. */
  body?: string;
  auth: 'partner' | 'bearer';
  prepare: Prepare[];
  checks: Check[];
}

/** The sandbox bank user every AIS request names (docs/ais.md: three accounts, a year of transactions). */
export const DEFAULT_USER = 'user-typical';
/** Every permission generate-token knows: the pre-request script's token reads everything. */
export const TOKEN_PERMISSIONS = ['ais:accounts:read', 'ais:balance:read', 'ais:transactions:read'];
const CONSENT_PERMISSIONS = ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail'];

/** The variables the date steps set from the sandbox clock: consent window and transaction window. */
export const CLOCK_VARIABLES = { consentExpiresAt: 90, transactionsFrom: -365, fromDate: -30, toDate: 0 } as const;

/** Where a request names something, by field or parameter name: the variable that holds it. */
const USES: Record<string, string> = {
  userId: 'userId',
  merchantId: 'merchantId',
  accountId: 'accountId',
  merchantClientId: 'testMerchantClientId',
  paymentId: 'paymentId',
  expirationDateTime: 'consentExpiresAt',
  transactionFromDateTime: 'transactionsFrom',
  fromDate: 'fromDate',
  toDate: 'toDate',
};
/** Where an operation names another merchant than the token's, or an id whose name says nothing. */
const USES_BY_OPERATION: Record<string, Record<string, string>> = {
  getMerchantOnboardingStatus: { merchantId: 'onboardingMerchantId' },
  resendMerchantOnboarding: { merchantId: 'onboardingMerchantId' },
  createMerchantStore: { merchantId: 'testMerchantId' },
  testWebhook: { id: 'webhookId' },
};
/** What an answer hands out for the requests after it: variable ← RFC 6901 pointer into the answer. */
const CAPTURES: Record<string, Record<string, string>> = {
  createMerchant: { onboardingMerchantId: '/merchantId' },
  createTestMerchant: { testMerchantId: '/merchantId', testMerchantClientId: '/clientId' },
  createPayment: { paymentId: '/paymentId' },
  registerWebhook: { webhookId: '/id' },
  generateToken: { bearerToken: '/token' },
  createConsent: { consentRequestId: '/requestId' },
  listAccounts: { accountId: '/accounts/0/accountId' },
};
/** Operations whose dates are read from the sandbox clock before they are sent. */
const NEEDS_CLOCK = new Set(['createConsent', 'listAccountTransactionsInWindow']);

/** The variable an operation's field or parameter `name` reads, if obsim chains it. */
export function variableFor(operationId: string, name: string): string | undefined {
  return USES_BY_OPERATION[operationId]?.[name] ?? (name === 'id' ? undefined : USES[name]);
}

/** Numbers in a body are written bare (`"merchantId": {{merchantId}}`), so the JSON sent keeps its type. */
const placeholder = (variable: string, example: unknown): string =>
  typeof example === 'number' ? `\u0000${variable}\u0000` : `{{${variable}}}`;

/** A body as raw JSON text: the example with chained fields replaced by their variables. */
export function bodyText(example: unknown, operationId: string): string {
  const replaced =
    example && typeof example === 'object' && !Array.isArray(example)
      ? Object.fromEntries(
          Object.entries(example).map(([k, v]) => {
            const variable = variableFor(operationId, k);
            return [k, variable === undefined ? v : placeholder(variable, v)];
          }),
        )
      : example;
  return JSON.stringify(replaced, null, 2).replace(/"\\u0000([A-Za-z]+)\\u0000"/g, '{{$1}}');
}

/** The example request body the document gives an operation (undefined: none). */
export function exampleBody(op: Operation): unknown {
  return (op.operation.requestBody?.content?.['application/json'] as { example?: unknown } | undefined)?.example;
}

const successCodes = (op: Operation): number[] =>
  Object.keys(op.operation.responses ?? {})
    .filter((s) => /^2\d\d$/.test(s))
    .map(Number);

/** The top-level object schema of an operation's first 2xx answer (undefined: not an object). */
function answerObject(doc: OpenApiDocument, op: Operation | undefined): Json | undefined {
  if (!op) return undefined;
  const code = successCodes(op)[0];
  const schema = op.operation.responses?.[String(code)]?.content?.['application/json']?.schema;
  const node = deref(doc, schema);
  return node && typeof node.properties === 'object' ? node : undefined;
}

/** The document's checks of an operation's answer: its status, its required fields, what the version changed. */
export function answerChecks(doc: OpenApiDocument, op: Operation, version: string, base: OpenApiDocument | undefined): Check[] {
  const checks: Check[] = [{ kind: 'status', codes: successCodes(op) }];
  const answer = answerObject(doc, op);
  const required = (answer?.required as string[] | undefined) ?? [];
  if (required.length > 0) checks.push({ kind: 'required', fields: required, version });
  if (base && answer) {
    const before = answerObject(
      base,
      [...operationsOf(base)].find((o) => o.id === op.id),
    );
    const was = new Set(Object.keys((before?.properties as Json | undefined) ?? {}));
    const now = new Set(Object.keys(answer.properties as Json));
    for (const field of now) if (!was.has(field) && required.includes(field)) checks.push({ kind: 'present', field, version });
    if (before) for (const field of was) if (!now.has(field)) checks.push({ kind: 'absent', field, version });
  }
  for (const [variable, pointer] of Object.entries(CAPTURES[op.id] ?? {})) checks.push({ kind: 'capture', variable, pointer });
  return checks;
}

/** What a document operation's request gets from obsim: its chained variables, its date step. */
export interface OperationPlan {
  op: Operation;
  /** Path and query parameters obsim fills: name → variable. */
  params: Record<string, string>;
  body?: string;
  prepare: Prepare[];
  checks: Check[];
}

export function operationPlan(doc: OpenApiDocument, op: Operation, version: string, base: OpenApiDocument | undefined): OperationPlan {
  const params: Record<string, string> = {};
  for (const p of op.operation.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    const variable = variableFor(op.id, p.name);
    if (variable !== undefined) params[p.name] = variable;
  }
  const example = exampleBody(op);
  return {
    op,
    params,
    ...(example === undefined ? {} : { body: bodyText(example, op.id) }),
    prepare: NEEDS_CLOCK.has(op.id) ? ['clock'] : [],
    checks: answerChecks(doc, op, version, base),
  };
}

/** The step obsim inserts after a consent is created: the user authorizes it at the bank (the control the hosted page calls). */
export const AUTHORIZE_CONSENT: Step = {
  name: 'Sandbox: the user authorizes the consent at the bank',
  description:
    "obsim's control (not the provider's API): what the user's Authorize access button on the bank consent page (authorizationUrl) does. POST /_sandbox/consents/{requestId}/authorize, docs/sandbox-controls.md.",
  method: 'POST',
  path: '/_sandbox/consents/{{consentRequestId}}/authorize',
  auth: 'partner',
  prepare: [],
  checks: [
    { kind: 'status', codes: [200] },
    { kind: 'equals', pointer: '/status', value: 'authorized' },
    { kind: 'capture', variable: 'consentId', pointer: '/consentId' },
  ],
};

const withChecks = (doc: OpenApiDocument, id: string, version: string, base: OpenApiDocument | undefined, extra: Check[]) => {
  const op = [...operationsOf(doc)].find((o) => o.id === id);
  return op ? [...answerChecks(doc, op, version, base), ...extra] : extra;
};

/**
 * The Flows folder: the stories a partner runs first, in order. Account information first
 * (consent → accounts → balance → transactions), then a payment from a test merchant to `paid`
 * (the sandbox clock moved by the settlement delay), so the folder ends with a paid payment.
 */
export function flows(doc: OpenApiDocument, version: string, base: OpenApiDocument | undefined): { name: string; steps: Step[] }[] {
  const checks = (id: string, extra: Check[] = []) => withChecks(doc, id, version, base, extra);
  // sample values stand where a variable goes (bodyText puts the variables in)
  const ais = (extra: Record<string, unknown>) => bodyText({ userId: DEFAULT_USER, merchantId: 0, ...extra }, '');
  return [
    {
      name: 'Account information: consent, accounts, balance, transactions',
      steps: [
        {
          name: 'A bearer token for the user',
          description:
            'POST /v1/auth/generate-token for the sandbox bank user with every AIS permission; the token goes to {{bearerToken}}.',
          operationId: 'generateToken',
          method: 'POST',
          path: '/v1/auth/generate-token',
          body: ais({ permissions: TOKEN_PERMISSIONS }),
          auth: 'partner',
          prepare: [],
          checks: checks('generateToken'),
        },
        {
          name: 'A consent (pending)',
          description: 'The consent window is read from the sandbox clock: it expires in 90 days and reaches a year back.',
          operationId: 'createConsent',
          method: 'POST',
          path: '/v1/ais/consents',
          body: ais({ permissions: CONSENT_PERMISSIONS, expirationDateTime: '', transactionFromDateTime: '' }),
          auth: 'bearer',
          prepare: ['clock'],
          checks: checks('createConsent', [{ kind: 'equals', pointer: '/status', value: 'pending' }]),
        },
        AUTHORIZE_CONSENT,
        {
          name: "The user's accounts, under that consent",
          description: 'The first account goes to {{accountId}}.',
          operationId: 'listAccounts',
          method: 'POST',
          path: '/v1/ais/accounts',
          body: ais({}),
          auth: 'bearer',
          prepare: [],
          checks: checks('listAccounts', [{ kind: 'sameAs', pointer: '/consentId', variable: 'consentId' }]),
        },
        {
          name: "The first account's balance",
          description: '',
          operationId: 'getAccountBalance',
          method: 'POST',
          path: '/v1/ais/accounts/balance',
          body: ais({ accountId: '' }),
          auth: 'bearer',
          prepare: [],
          checks: checks('getAccountBalance', [{ kind: 'sameAs', pointer: '/accountId', variable: 'accountId' }]),
        },
        {
          name: "The first account's transactions",
          description: '',
          operationId: 'listAccountTransactions',
          method: 'POST',
          path: '/v1/ais/accounts/transactions',
          body: ais({ accountId: '', pageLimit: 5 }),
          auth: 'bearer',
          prepare: [],
          checks: checks('listAccountTransactions', [{ kind: 'sameAs', pointer: '/accountId', variable: 'accountId' }]),
        },
      ],
    },
    {
      name: 'Payment: test merchant, payment, settlement, paid',
      steps: [
        {
          name: 'An activated test merchant',
          description: 'Its clientId goes to {{testMerchantClientId}}.',
          operationId: 'createTestMerchant',
          method: 'POST',
          path: '/v1/partner/merchants/test',
          body: bodyText({ companyName: 'Flows Kaffe ApS' }, ''),
          auth: 'partner',
          prepare: [],
          checks: checks('createTestMerchant'),
        },
        {
          name: 'A payment for that merchant (pending)',
          description: 'Its paymentId goes to {{paymentId}}.',
          operationId: 'createPayment',
          method: 'POST',
          path: '/v1/partner/payments',
          body: bodyText({ merchantClientId: '', amount: 149.95, referenceNumber: 'flows-1' }, ''),
          auth: 'partner',
          prepare: [],
          checks: checks('createPayment', [
            { kind: 'equals', pointer: '/status', value: 'pending' },
            { kind: 'sameAs', pointer: '/merchantClientId', variable: 'testMerchantClientId' },
          ]),
        },
        {
          name: 'Sandbox: the bank settles it (the clock moves by the settlement delay)',
          description:
            "obsim's control (not the provider's API): POST /_sandbox/clock/advance by the sandbox's settlement delay ({{settleDelayMs}} ms), which fires the settlement (docs/sandbox-controls.md).",
          method: 'POST',
          path: '/_sandbox/clock/advance',
          body: '{\n  "ms": {{settleDelayMs}}\n}',
          auth: 'partner',
          prepare: [],
          checks: [{ kind: 'status', codes: [200] }],
        },
        {
          name: 'The payment is paid',
          description: '',
          operationId: 'getPaymentStatus',
          method: 'GET',
          path: '/v1/partner/payments/{{paymentId}}/status',
          auth: 'partner',
          prepare: [],
          checks: checks('getPaymentStatus', [
            { kind: 'sameAs', pointer: '/paymentId', variable: 'paymentId' },
            { kind: 'equals', pointer: '/status', value: 'paid' },
            { kind: 'equals', pointer: '/bankPaymentStatus', value: 'AcceptedSettlementCompleted' },
          ]),
        },
      ],
    },
  ];
}
