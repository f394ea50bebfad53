import { createHmac } from 'node:crypto';

/**
 * `Revolut-Signature` of a webhook: `v1=` and the hex HMAC-SHA256, keyed with the webhook's signing
 * secret, of `v1.<Revolut-Request-Timestamp>.<body>`; the timestamp is Unix milliseconds.
 */
export function revolutWebhookSignature(signingSecret: string, body: string, timestampMs: number): string {
  return `v1=${createHmac('sha256', signingSecret).update(`v1.${timestampMs}.${body}`).digest('hex')}`;
}

/** The two headers Revolut puts on a webhook. */
export function revolutWebhookHeaders(signingSecret: string, body: string, timestampMs: number): Record<string, string> {
  return {
    'revolut-request-timestamp': String(timestampMs),
    'revolut-signature': revolutWebhookSignature(signingSecret, body, timestampMs),
  };
}
