/**
 * The contract's Events tables as data, for tests: every delivered body is checked field by
 * field (name and JSON type) against them. Not a test file.
 */
type JsonType = 'string' | 'number' | 'object';

const PAYMENT = {
  paymentId: 'number',
  referenceNumber: 'string',
  status: 'string',
  amount: 'number',
  currency: 'string',
  merchantClientId: 'string',
  merchantName: 'string',
  bankPaymentStatus: 'string',
  timestamp: 'string',
} as const;

const MERCHANT = {
  merchantId: 'number',
  clientId: 'string',
  companyName: 'string',
  status: 'string',
  previousStatus: 'string',
  timestamp: 'string',
} as const;

/** data fields per event: contract tables, plus obsim's documented extensions. */
export const EVENT_DATA: Record<string, Record<string, JsonType>> = {
  'payment.completed': PAYMENT,
  'payment.failed': { ...PAYMENT, failureReason: 'string' }, // failureReason: obsim extension
  'merchant.activated': MERCHANT,
  'merchant.deactivated': MERCHANT,
  'merchant.onboarding.completed': MERCHANT, // payload not shown in the contract: obsim's choice
  'webhook.test': { webhookId: 'string', message: 'string', timestamp: 'string' },
};

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Problems of an envelope against the contract (empty = conforms). */
export function envelopeProblems(body: any, event: string): string[] {
  const problems: string[] = [];
  if (!body || typeof body !== 'object') return ['body is not a JSON object'];
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'data,event,timestamp') problems.push(`envelope keys ${keys}`);
  if (body.event !== event) problems.push(`event ${body.event} != ${event}`);
  if (typeof body.timestamp !== 'string' || !ISO_MS.test(body.timestamp))
    problems.push(`timestamp ${body.timestamp} is not ISO 8601 with ms`);
  const spec = EVENT_DATA[event];
  if (!spec) return [...problems, `unknown event ${event}`];
  const data = body.data ?? {};
  for (const [field, type] of Object.entries(spec)) {
    if (!(field in data)) problems.push(`data.${field} missing`);
    else if (typeof data[field] !== type) problems.push(`data.${field} is ${typeof data[field]}, expected ${type}`);
  }
  for (const field of Object.keys(data)) if (!(field in spec)) problems.push(`data.${field} not in the contract table`);
  if (typeof data.timestamp === 'string' && !ISO_MS.test(data.timestamp)) problems.push('data.timestamp not ISO 8601 with ms');
  return problems;
}
