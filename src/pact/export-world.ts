/**
 * What the pact exporter knows of a sandbox's resources while it reads the journal in order:
 * which ids answers handed out, each merchant's way of creation and status, each payment's status
 * and each webhook's events, and the permissions a user's token was asked with. From it, the
 * built-in provider state that rebuilds what an interaction read (docs/pact.md).
 */
import type { IdKind, IdUse, Operation } from '../contracts/ids.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ExportedState {
  name: string;
  params: Record<string, unknown>;
}

interface MerchantInfo {
  kind: 'test' | 'standard' | 'fast-track';
  status: string;
  subTppStatus?: string;
}

const CREATIONS: Record<string, MerchantInfo['kind']> = {
  createTestMerchant: 'test',
  createMerchant: 'standard',
  createFastTrackMerchant: 'fast-track',
};

export class ExportWorld {
  /** Every id value an answer handed out, with its kind. */
  readonly handed = new Map<string, IdKind>();
  private readonly merchants = new Map<string, MerchantInfo>();
  private readonly clients = new Map<string, string>();
  private readonly payments = new Map<string, { status: string; failureReason?: string }>();
  private readonly webhooks = new Map<string, string[]>();
  private readonly permissions = new Map<string, unknown>();
  /** Whose each listed account is: its user and the merchant that read it. */
  readonly accounts = new Map<string, { userId: string; merchantId: string }>();

  /** Learn from one answered request (a provider operation's, or a control's), with the ids it used. */
  learn(op: Operation, uses: readonly IdUse[], requestBody: unknown, status: number, body: unknown): void {
    if (status < 200 || status >= 300) return;
    const operationId = op.operationId;
    if (CREATIONS[operationId] && isObject(body)) {
      const id = String(body.merchantId);
      this.merchants.set(id, {
        kind: CREATIONS[operationId],
        status: operationId === 'createFastTrackMerchant' && body.subTppStatus !== 'failed' ? 'pending_completion' : String(body.status),
        ...(typeof body.subTppStatus === 'string' ? { subTppStatus: body.subTppStatus } : {}),
      });
      if (typeof body.clientId === 'string') this.clients.set(body.clientId, id);
    }
    if (operationId === 'getMerchantOnboardingStatus' && isObject(body))
      this.setMerchantStatus(String(body.merchantId), body.onboardingStatus);
    // a control on a merchant (an action, or a read) answers the merchant as it now is
    const controlled = op.kind === 'control' ? uses.find((u) => u.where === 'path' && u.kind === 'merchant') : undefined;
    if (controlled && isObject(body)) this.setMerchantStatus(controlled.value, body.status);
    if (isObject(body) && typeof body.paymentId === 'number' && typeof body.status === 'string')
      this.payments.set(String(body.paymentId), {
        status: body.status,
        ...(typeof body.failureReason === 'string' ? { failureReason: body.failureReason } : {}),
      });
    if (operationId === 'registerWebhook' && isObject(body) && Array.isArray(body.events))
      this.webhooks.set(String(body.id), body.events as string[]);
    if (operationId === 'listAccounts' && isObject(body) && Array.isArray(body.accounts))
      for (const a of body.accounts)
        if (isObject(a)) this.accounts.set(String(a.accountId), { userId: String(body.userId), merchantId: String(body.merchantId) });
    if (operationId === 'generateToken' && isObject(requestBody))
      this.permissions.set(`${String(requestBody.userId)}|${String(requestBody.merchantId)}`, requestBody.permissions);
  }

  private setMerchantStatus(id: string, status: unknown): void {
    const m = this.merchants.get(id);
    if (m && typeof status === 'string') m.status = status;
  }

  merchantState(merchantId: string | undefined, statusNow?: string): ExportedState | undefined {
    if (merchantId === undefined) return undefined;
    const m = this.merchants.get(merchantId) ?? { kind: 'test' as const, status: 'activated' };
    const status = statusNow ?? m.status;
    return {
      name: 'a merchant',
      params: {
        kind: m.kind,
        status: status === 'pending_partner_ais' ? 'pending_completion' : status,
        ...(m.kind === 'fast-track' && m.subTppStatus === 'failed' ? { subTppStatus: 'failed' } : {}),
      },
    };
  }

  merchantOfClient(clientId: string): string | undefined {
    return this.clients.get(clientId);
  }

  paymentState(paymentId: string, answered: unknown): ExportedState {
    const now = isObject(answered) && typeof answered.status === 'string' ? answered : this.payments.get(paymentId);
    const status = (now?.status as string | undefined) ?? 'pending';
    const failureReason = status === 'failed' && typeof now?.failureReason === 'string' ? now.failureReason : undefined;
    return { name: 'a payment', params: { status, ...(failureReason ? { failureReason } : {}) } };
  }

  webhookState(id: string): ExportedState {
    const events = this.webhooks.get(id);
    return { name: 'a webhook', params: events ? { events } : {} };
  }

  /** The bank user state of an AIS read: its consent as the answer shows it (none when refused for want of one). */
  bankUserState(userId: string, merchantId: string, code: string | undefined, consentStatus?: string): ExportedState {
    const permissions = this.permissions.get(`${userId}|${merchantId}`);
    const consent = code === 'consent_missing' ? 'none' : (consentStatus ?? 'authorized');
    return {
      name: consentStatus !== undefined && consent !== 'none' ? 'a consent' : 'a bank user with accounts and transactions',
      params: {
        // a refusal before its body was read leaves no user in the journal: the state's default user
        ...(userId === '' ? {} : { userId }),
        ...(consentStatus !== undefined && consent !== 'none' ? { status: consent } : { consent }),
        ...(Array.isArray(permissions) ? { permissions } : {}),
        ...(code === 'token_expired' ? { token: 'expired' } : {}),
      },
    };
  }
}
