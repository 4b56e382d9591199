/**
 * The variables a collection's environment carries for one sandbox (docs/partner-tools.md): named
 * once here, for the collections that fill them (src/collections/) and the schema that documents
 * the environment's answer (schemas/collections.ts).
 */

/** Their names, in the order the environment lists them. */
export const ENVIRONMENT_VARIABLES = [
  'baseUrl',
  'partnerClientId',
  'partnerClientSecret',
  'merchantId',
  'merchantClientId',
  'userId',
  'contractVersion',
  'settleDelayMs',
] as const;
export type EnvironmentVariable = (typeof ENVIRONMENT_VARIABLES)[number];

/** Those whose values are credentials (Postman `secret`, Bruno `.env`). */
export const SECRET_VARIABLES: readonly EnvironmentVariable[] = ['partnerClientId', 'partnerClientSecret'];
