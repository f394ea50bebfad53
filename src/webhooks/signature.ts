import { createHmac } from 'node:crypto';

/** The headers Standard Webhooks v1 defines. */
export interface StandardWebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The key bytes of a `whsec_<base64>` secret. */
export function webhookSecretKey(secret: string): Buffer {
  if (!secret.startsWith('whsec_')) throw new Error('webhook secrets start with whsec_');
  return Buffer.from(secret.slice('whsec_'.length), 'base64');
}

/**
 * Standard Webhooks v1: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the
 * base64-decoded part of the `whsec_` secret. The timestamp is the attempt's, in Unix seconds.
 */
export function signStandardWebhook(secret: string, id: string, unixSeconds: number, body: string): StandardWebhookHeaders {
  const mac = createHmac('sha256', webhookSecretKey(secret)).update(`${id}.${unixSeconds}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(unixSeconds), 'webhook-signature': `v1,${mac}` };
}
