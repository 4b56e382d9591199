/**
 * GET /_sandbox/banks, GET / PUT / DELETE /_sandbox/banks/{bankId}: how the sandbox banks behave
 * in the caller's sandbox (docs/banks.md). A profile's problems are answered with `field` a JSON
 * pointer into the body (an unknown bank id in the path: `/bankId` in the path), and nothing of a
 * refused profile is applied.
 */
import type { FastifyInstance } from 'fastify';
import { SANDBOX_BANKS, type SandboxBank } from '../../../fixtures/banks.js';
import { responses } from '../../../schemas/common.js';
import { bankProfileToApply, healthAt, SHIPPED_BANK_PROFILES, type BankProfileInput } from '../../domain/bank-profiles.js';
import { invalidInput, type JsonPointer } from '../../domain/errors.js';
import type { BankBook } from '../../engine/banks.js';
import type { World } from '../../engine/index.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { validationToApiError } from '../../compilers/validation.js';

/** A sandbox bank by id, or a 400 naming where the id was (the path parameter, or `at` in the body). */
export function knownBank(bankId: string, at?: JsonPointer): SandboxBank {
  const bank = SANDBOX_BANKS.find((b) => b.bankId === bankId);
  if (!bank) {
    const message = `"${bankId}" is not a sandbox bank; one of: ${SANDBOX_BANKS.map((b) => b.bankId).join(', ')}`;
    throw at === undefined ? invalidInput('/bankId', message, 'path') : invalidInput(at, message);
  }
  return bank;
}

/** One sandbox bank as the sandbox sees it now. */
export function bankView(banks: BankBook, world: Pick<World, 'id' | 'clock'>, bank: SandboxBank) {
  const inForce = banks.of(world.id, bank.bankId);
  const { bankId, name, bic, country, currency } = bank;
  return {
    bankId,
    name,
    bic,
    country,
    currency,
    health: healthAt(inForce?.profile, world.clock.nowMs()),
    profile: inForce?.profile ?? null,
    ...(inForce ? { setAt: inForce.setAt } : {}),
  };
}

export const shippedBankProfiles = () => Object.entries(SHIPPED_BANK_PROFILES).map(([name, p]) => ({ name, summary: p.summary }));

/** Every sandbox bank, and the shipped profiles. */
export const bankList = (banks: BankBook, world: Pick<World, 'id' | 'clock'>) => ({
  items: SANDBOX_BANKS.map((b) => bankView(banks, world, b)),
  profiles: shippedBankProfiles(),
});

export async function bankRoutes(app: FastifyInstance): Promise<void> {
  const { banks } = app.engine;
  const common = { tags: ['sandbox'], security: partnerSecurity };
  const params = {
    type: 'object',
    required: ['bankId'],
    properties: { bankId: { type: 'string', maxLength: 64, description: 'A sandbox bank id (GET /_sandbox/banks)' } },
  } as const;
  const one = { params, response: responses({ $ref: 'SandboxBank#' }) };

  app.get(
    '/banks',
    {
      schema: {
        ...common,
        operationId: 'listBanks',
        summary: 'The sandbox banks and how each behaves in this sandbox',
        description: 'Each bank with its profile (null: none, it behaves as always) and its health now; and the shipped profiles by name.',
        response: responses({ $ref: 'SandboxBankList#' }),
      },
    },
    async (request) => bankList(banks, request.sandbox),
  );

  app.get<{ Params: { bankId: string } }>(
    '/banks/:bankId',
    {
      schema: {
        ...common,
        ...one,
        operationId: 'getBank',
        summary: 'A sandbox bank and its profile in this sandbox',
        description: 'Its profile (null: none), and its health now on the sandbox clock.',
      },
    },
    async (request) => bankView(banks, request.sandbox, knownBank(request.params.bankId)),
  );

  app.put<{ Params: { bankId: string }; Body: BankProfileInput }>(
    '/banks/:bankId',
    {
      attachValidation: true,
      schema: {
        ...common,
        ...one,
        operationId: 'setBankProfile',
        summary: 'Put a bank profile in force for one bank',
        description:
          "Replaces the bank's profile; a degraded bank's failures start again from the seed. A shipped profile by name, fields of its own, or both. A problem is a 400 whose `field` is a JSON pointer into the body (`/ais/pageSize`); nothing is applied. Payments already waiting keep the timer they have.",
        body: { $ref: 'BankProfileRequest#' },
      },
    },
    async (request) => {
      const bank = knownBank(request.params.bankId);
      if (request.validationError)
        throw validationToApiError(request.validationError.validation as never, request.validationError.validationContext ?? 'body');
      const { sandbox } = request;
      banks.set(sandbox.id, { [bank.bankId]: bankProfileToApply(request.body ?? {}, sandbox.clock.nowMs()) }, sandbox.clock.iso());
      await app.store.committed(); // the profile is in force once stored
      return bankView(banks, sandbox, bank);
    },
  );

  app.delete<{ Params: { bankId: string } }>(
    '/banks/:bankId',
    {
      schema: {
        ...common,
        ...one,
        operationId: 'clearBankProfile',
        summary: "Clear a bank's profile",
        description: 'The bank behaves as every bank without a profile again.',
      },
    },
    async (request) => {
      const bank = knownBank(request.params.bankId);
      banks.clear(request.sandbox.id, bank.bankId);
      await app.store.committed();
      return bankView(banks, request.sandbox, bank);
    },
  );
}
