/**
 * Route handler reply types come from the response schemas (json-schema-to-ts FromSchema,
 * composed by $ref through `references`), so returning a wrong shape is a compile error.
 *
 * The `@ts-expect-error` lines are checked by `npm run typecheck` (tsc covers test/): if a type
 * ever stops catching the mistake below it (e.g. a $ref that no longer resolves and turns a
 * nested object into `unknown`), the unused directive itself fails the type check. At run time,
 * the sample values typed with those types are checked against the very schemas they come from.
 */
import Fastify from 'fastify';
import t from 'tap';
import type { AccountsResponseT, ConsentListT, TransactionListT } from '../../schemas/ais.js';
import type { MerchantListT } from '../../schemas/partner.js';
import type { PaymentT, StoreResponseT } from '../../schemas/partner-payments.js';
import { schemaErrors } from '../helpers/app.js';

const TS = '2026-01-15T09:00:00.000Z';

const payment: PaymentT = {
  paymentId: 5000001,
  status: 'pending',
  bankPaymentStatus: 'Pending',
  failureReason: null,
  amount: 149.95,
  currency: 'DKK',
  referenceNumber: 'order-1001',
  merchantClientId: '7c0e8a4e-3f5b-4d4c-9a51-0d5c2b8e6f10',
  merchantName: 'Shop ApS',
  paymentUrl: 'http://127.0.0.1:4010/pay/pay_x',
  createdAt: TS,
  updatedAt: TS,
  expiresAt: TS,
};

const accounts: AccountsResponseT = {
  userId: 'user-typical',
  merchantId: 100001,
  clientId: '7c0e8a4e-3f5b-4d4c-9a51-0d5c2b8e6f10',
  consentId: 'cns_0',
  accounts: [
    {
      accountId: 'acc_1',
      bankId: 'obsim-bank',
      accountHolderName: 'A. Holder',
      iban: 'DK5000400440116243',
      currency: 'DKK',
      balance: '10.00',
      accountType: 'current',
      accountDetails: {
        bankName: 'obsim Bank',
        bic: 'OBSMDKKK',
        bban: '00400440116243',
        productName: 'Current',
        ownerType: 'private',
        openedDate: '2020-01-01',
      },
    },
  ],
  totalAccounts: 1,
};

const transactions: TransactionListT = [
  {
    transactionId: 'tx_1',
    amount: '12.50',
    currency: 'DKK',
    description: 'Coffee',
    bookingDate: TS,
    valueDate: TS,
    counterparty: { name: 'Café', iban: 'DK5000400440116243' },
    reference: 'r-1',
    type: 'debit',
    status: 'booked',
  },
];

const consents: ConsentListT = [
  {
    merchantId: 100001,
    userId: 'user-typical',
    permissions: ['ReadAccountsDetail'],
    expirationDateTime: TS,
    transactionFromDateTime: TS,
    requestId: '3f1c0000-0000-4000-8000-000000000000',
    status: 'pending',
    createdAt: TS,
    updatedAt: TS,
    authorizationUrl: 'http://127.0.0.1:4010/consent/x',
  },
];

const store: StoreResponseT = {
  storeId: 1,
  merchantId: 100001,
  name: 'Main Street',
  address: { city: 'København' },
  mccCode: null,
  partnerRefId: null,
  createdAt: TS,
};

const merchants: MerchantListT = { items: [], page: 1, limit: 20, total: 0 };

/** Registered only to be type-checked; the handlers are never called. */
function typeChecks() {
  const app = Fastify();
  app.get<{ Reply: PaymentT }>('/payment', async () => payment);
  // @ts-expect-error a required property is missing (expiresAt)
  app.get<{ Reply: PaymentT }>('/missing', async () => ({ ...payment, expiresAt: undefined }));
  // @ts-expect-error a value outside the enum (status)
  app.get<{ Reply: PaymentT }>('/enum', async () => ({ ...payment, status: 'settled' as const }));
  // @ts-expect-error a wrong type (amount as a string)
  app.get<{ Reply: PaymentT }>('/type', async () => ({ ...payment, amount: '149.95' }));
  // @ts-expect-error a nested $ref schema is typed too (Account -> AccountDetails.ownerType)
  app.post<{ Reply: AccountsResponseT }>('/nested', async () => ({
    ...accounts,
    accounts: [{ ...accounts.accounts[0], accountDetails: { ...accounts.accounts[0].accountDetails, ownerType: 'business' as const } }],
  }));
  // @ts-expect-error array items through $ref (Transaction.type)
  app.get<{ Reply: TransactionListT }>('/items', async () => [{ ...transactions[0], type: 'refund' as const }]);
  // @ts-expect-error MerchantList items are MerchantSummary objects, not ids
  app.get<{ Reply: MerchantListT }>('/list', async () => ({ ...merchants, items: [100001] }));
  return app;
}
void typeChecks;

t.test('values typed with the reply types are valid against the schemas they are derived from', async (t) => {
  t.same(schemaErrors('Payment', payment), []);
  t.same(schemaErrors('AccountsResponse', accounts), []);
  t.same(schemaErrors('TransactionList', transactions), []);
  t.same(schemaErrors('ConsentList', consents), []);
  t.same(schemaErrors('StoreResponse', store), [], 'an address without countryCode is valid in a response, and allowed by StoreResponseT');
  t.same(schemaErrors('MerchantList', merchants), []);
});
