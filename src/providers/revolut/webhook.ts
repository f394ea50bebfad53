import { createHmac, timingSafeEqual } from 'node:crypto';
import { eventDigest, parseSignedJson } from '../kit/webhook';
import { WebhookVerificationError, type IncomingWebhook } from '../types';
import { RevolutWebhookSchema, type RevolutWebhook } from './schemas';

export const REVOLUT_SIGNATURE_HEADER = 'revolut-signature';
export const REVOLUT_TIMESTAMP_HEADER = 'revolut-request-timestamp';
/** A timestamp further than this from the broker's clock is refused, so a captured webhook cannot be replayed later. */
export const REVOLUT_TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000;

/** The version of the signing algorithm; the payload to sign starts with it. */
const VERSION = 'v1';

/**
 * `Revolut-Signature: v1=<hex>`; Revolut's other APIs send several, comma-separated, while two
 * signing secrets are active, so each `v1=` element is read.
 */
function signaturesOf(header: string): Buffer[] {
  const signatures: Buffer[] = [];
  for (const element of header.split(',')) {
    const match = /^v1=([0-9a-fA-F]{64})$/.exec(element.trim());
    if (match) signatures.push(Buffer.from(match[1]!, 'hex'));
  }
  return signatures;
}

/**
 * Verifies Revolut's webhook signature: the hex HMAC-SHA256, keyed with the webhook's signing
 * secret, of `v1.<Revolut-Request-Timestamp>.<raw body>`, with a timestamp (Unix milliseconds)
 * within five minutes of the broker's clock.
 */
export function verifyRevolutSignature(webhook: IncomingWebhook, signingSecret: string, nowMs: number): void {
  const timestamp = webhook.headers[REVOLUT_TIMESTAMP_HEADER];
  const header = webhook.headers[REVOLUT_SIGNATURE_HEADER];
  if (typeof timestamp !== 'string' || !/^\d{1,15}$/.test(timestamp)) {
    throw new WebhookVerificationError(`missing or malformed ${REVOLUT_TIMESTAMP_HEADER} header`);
  }
  if (typeof header !== 'string') throw new WebhookVerificationError(`no ${REVOLUT_SIGNATURE_HEADER} header`);
  const signatures = signaturesOf(header);
  if (signatures.length === 0) throw new WebhookVerificationError(`malformed ${REVOLUT_SIGNATURE_HEADER} header`);
  if (Math.abs(nowMs - Number(timestamp)) > REVOLUT_TIMESTAMP_TOLERANCE_MS) {
    throw new WebhookVerificationError(`${REVOLUT_TIMESTAMP_HEADER} is more than five minutes away`);
  }
  const expected = createHmac('sha256', signingSecret).update(`${VERSION}.${timestamp}.`).update(webhook.rawBody).digest();
  if (!signatures.some((signature) => timingSafeEqual(expected, signature))) {
    throw new WebhookVerificationError('signature does not match the body');
  }
}

/** The signed body as a buy order event; a body that is not one is refused like a bad signature. */
export function parseRevolutWebhookBody(rawBody: Buffer): RevolutWebhook {
  return parseSignedJson(rawBody, RevolutWebhookSchema, 'signed body is not a Revolut Ramp order event');
}

/** Revolut's events carry no id; a redelivery repeats the body (order, wallet, event), so its digest serves as one. */
export const revolutEventId = (rawBody: Buffer): string => `revolut_${eventDigest(rawBody).slice(0, 32)}`;
