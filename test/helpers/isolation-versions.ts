/**
 * Contract versions in the isolation property (test/reliability/isolation.test.ts): sandbox C is
 * pinned to the example version, A and B are not.
 */
/** Sandbox C's contract version (examples/contracts); A's and B's is the base. */
export const C_VERSION = '2027-03-01';

/** A partner API answer names its caller's version, and a payment in it is shaped by that version (paymentReference, no merchantName) or the base's. */
export function versionViolations(
  isC: boolean,
  op: string,
  where: string,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
): string[] {
  const own = isC ? C_VERSION : 'base';
  const out: string[] = [];
  if (res.headers['obsim-contract-version'] !== own)
    out.push(`${where} answered by version ${String(res.headers['obsim-contract-version'])}, not ${own}`);
  if (res.statusCode === 200 && (op === 'payment' || op === 'paymentStatus')) {
    const body = JSON.parse(res.body) as Record<string, unknown>;
    if ('paymentReference' in body !== isC || 'merchantName' in body === isC)
      out.push(`${where}: a payment shaped by another sandbox's version: ${res.body.slice(0, 200)}`);
  }
  return out;
}
