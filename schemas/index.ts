/**
 * Every shared schema, registered once with app.addSchema and added to both request validators.
 * A new shared schema: export it from its module with an $id and list it here.
 */
import { bankSchemas } from './banks.js';
import { chaosSchemas } from './chaos.js';
import { collectionSchemas } from './collections.js';
import { contractSchemas } from './contracts.js';
import { harImportSchemas } from './har-import.js';
import { journalSchemas } from './journal.js';
import { aisSchemas } from './ais.js';
import { ErrorBody } from './common.js';
import { partnerPaymentSchemas } from './partner-payments.js';
import { pactSchemas } from './pact.js';
import { partnerSchemas } from './partner.js';
import { readinessSchemas } from './readiness.js';
import { recordingSchemas } from './recording.js';
import { sandboxReadSchemas } from './sandbox-reads.js';
import { sandboxSchemas } from './sandbox.js';
import { sandboxesSchemas } from './sandboxes.js';
import { scenarioApiSchemas } from './scenario-api.js';
import { webhookSchemas } from './webhooks.js';

export const sharedSchemas: readonly { $id: string }[] = [
  ErrorBody,
  ...partnerSchemas,
  ...partnerPaymentSchemas,
  ...sandboxesSchemas,
  ...sandboxSchemas,
  ...sandboxReadSchemas,
  ...journalSchemas,
  ...aisSchemas,
  ...scenarioApiSchemas,
  ...webhookSchemas,
  ...readinessSchemas,
  ...chaosSchemas,
  ...bankSchemas,
  ...recordingSchemas,
  ...contractSchemas,
  ...collectionSchemas,
  ...harImportSchemas,
  ...pactSchemas,
];
