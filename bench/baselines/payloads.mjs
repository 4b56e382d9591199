/**
 * Response bodies shared by the two baseline servers. They have the same shape and size as
 * obsim's answers to the same calls, so the baselines serialize as many bytes as obsim does.
 */
export const PUBLIC_URL = 'http://127.0.0.1:4010';

export function onboardingStatus(merchantId, status = 'activated', subTppId = 'stpp_3f9a1c2b7d4e', subTppStatus = 'active') {
  return {
    merchantId,
    onboardingStatus: status,
    subTppId,
    subTppDetails: { status: subTppStatus, isActivated: status === 'activated' },
  };
}

export function payment(id, body, nowIso, expiresIso, token) {
  return {
    paymentId: id,
    status: 'pending',
    bankPaymentStatus: 'Pending',
    failureReason: null,
    amount: body.amount,
    currency: 'DKK',
    referenceNumber: body.referenceNumber,
    merchantClientId: body.merchantClientId,
    merchantName: 'Bench Merchant ApS',
    paymentUrl: `${PUBLIC_URL}/pay/${token}`,
    createdAt: nowIso,
    updatedAt: nowIso,
    expiresAt: expiresIso,
  };
}

/** One transaction object in the contract's shape (amounts are decimal strings). */
export function transaction(i, bookingIso) {
  return {
    transactionId: `txn_${String(i).padStart(8, '0')}`,
    amount: `-${(10 + (i % 990)).toFixed(2)}`,
    currency: 'DKK',
    description: `Card payment ${i % 97} Netto Nørrebro`,
    bookingDate: bookingIso,
    valueDate: bookingIso,
    counterparty: { name: 'Netto Nørrebro', iban: 'DK5000400440116243' },
    reference: `REF${String(i).padStart(10, '0')}`,
    type: 'debit',
    status: 'booked',
  };
}

export function transactionsPage(body, total, transactions) {
  return {
    userId: body.userId,
    merchantId: body.merchantId,
    accountId: body.accountId,
    totalTransactions: total,
    pageLimit: transactions.length,
    transactions,
  };
}

/** Listen on PORT (0 = any) on 127.0.0.1 and print `listening <url>` for the runner. */
export async function listen(app) {
  const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  process.stdout.write(`listening ${address}\n`);
  const stop = () => app.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
