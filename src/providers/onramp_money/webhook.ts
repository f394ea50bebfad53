import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { parseJson, parseSigned, webhookReport } from '../kit/webhook';
import { WebhookVerificationError, type IncomingWebhook, type ProviderWebhookEvent } from '../types';
import type { OnrampMoneyCurrencyIds } from './reported';
import { OnrampMoneyTransactionSchema, type OnrampMoneyTransaction } from './schemas';
import { onrampMoneySignature } from './signing';
import { fromTransaction } from './transformers';

export const ONRAMP_MONEY_PAYLOAD_HEADER = 'x-onramp-payload';
export const ONRAMP_MONEY_SIGNATURE_HEADER = 'x-onramp-signature';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The signed payload, decoded. Onramp.money's requests sign `{"timestamp", "body"}`; its webhook
 * page shows only the headers, so both that envelope and the bare transaction are read.
 */
const SignedEventSchema = z.union([
  z.object({ timestamp: z.number(), body: OnrampMoneyTransactionSchema }).transform((envelope) => envelope.body),
  OnrampMoneyTransactionSchema,
]);

/**
 * Verifies `X-ONRAMP-SIGNATURE: <hex HMAC-SHA512(API secret, X-ONRAMP-PAYLOAD)>` and reads the
 * event from the signed payload (base64 JSON) alone: the request body is not covered by the
 * signature, so nothing is read from it.
 *
 * Onramp.money sends its onramp webhook once the transaction is complete ("We only send a webhook
 * when a transaction is successfully completed and withdrawal is processed"): every earlier status
 * reaches the broker by polling. The scheme has no timestamp the documentation holds to a window,
 * so a replayed webhook verifies; its event id is the transaction's id and status, so a replay is
 * the same event, which the broker de-duplicates. A status code Onramp.money does not document is refused.
 */
export function verifyOnrampMoneyWebhook(webhook: IncomingWebhook, apiSecret: string): OnrampMoneyTransaction {
  const payload = webhook.headers[ONRAMP_MONEY_PAYLOAD_HEADER];
  const signature = webhook.headers[ONRAMP_MONEY_SIGNATURE_HEADER];
  if (typeof payload !== 'string' || payload === '' || !BASE64.test(payload)) {
    throw new WebhookVerificationError(`missing or malformed ${ONRAMP_MONEY_PAYLOAD_HEADER} header`);
  }
  if (typeof signature !== 'string' || !/^[0-9a-fA-F]{128}$/.test(signature.trim())) {
    throw new WebhookVerificationError(`missing or malformed ${ONRAMP_MONEY_SIGNATURE_HEADER} header`);
  }
  const expected = Buffer.from(onrampMoneySignature(apiSecret, payload), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature.trim(), 'hex'))) throw new WebhookVerificationError('signature does not match');
  const decoded = parseJson(Buffer.from(payload, 'base64'), 'signed payload is not JSON');
  return parseSigned(decoded, SignedEventSchema, 'signed payload is not an Onramp.money transaction');
}

/** The event a verified transaction reports; a status code Onramp.money does not document refuses the webhook. */
export function onrampMoneyEvent(tx: OnrampMoneyTransaction, ids: OnrampMoneyCurrencyIds): ProviderWebhookEvent {
  const snapshot = webhookReport(() => fromTransaction(tx, ids));
  return { ...snapshot, eventId: `${tx.orderId}:${tx.status}` };
}

/** Verifies and parses one webhook (verification first: a forged one costs no mapping lookup). */
export function parseOnrampMoneyWebhook(webhook: IncomingWebhook, apiSecret: string, ids: OnrampMoneyCurrencyIds): ProviderWebhookEvent {
  return onrampMoneyEvent(verifyOnrampMoneyWebhook(webhook, apiSecret), ids);
}
