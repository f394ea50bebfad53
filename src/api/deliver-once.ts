import type { Request } from 'express';
import { WebhookDeliverer, type WebhookDeliveryOptions } from '../webhooks/delivery';
import { integratorOf } from './auth';
import { ProblemError } from './problem';

/** What became of one webhook sent on request (a test event, a re-sent order webhook). */
export interface DeliveredOnce {
  delivered: boolean;
  /** The endpoint's HTTP status, when it answered. */
  status_code?: number;
  /** Why it was not delivered: an HTTP status, a network error, a timeout, or the SSRF guard's refusal. */
  error?: string;
  latency_ms: number;
}

export interface WebhookEndpoint {
  url: string;
  secret: string;
}

/** The caller's webhook endpoint; `404 not_found` when its API key has none. */
export function webhookEndpointOf(req: Request): WebhookEndpoint {
  const { webhook_url: url, webhook_secret: secret } = integratorOf(req);
  if (!url || !secret) throw new ProblemError('not_found', 'No webhook endpoint is configured for this API key (webhook_url).');
  return { url, secret };
}

/**
 * One signed attempt through the order webhooks' deliverer (signer, SSRF guard, timeout), never
 * retried; its connection pool is closed after it.
 */
export async function deliverOnce(
  delivery: WebhookDeliveryOptions,
  endpoint: WebhookEndpoint,
  message: { id: string; body: string },
): Promise<DeliveredOnce> {
  const deliverer = new WebhookDeliverer(delivery);
  const started = performance.now();
  try {
    const result = await deliverer.attempt({ ...endpoint, ...message });
    return {
      delivered: result.outcome === 'delivered',
      ...('status' in result && result.status !== undefined ? { status_code: result.status } : {}),
      ...('error' in result ? { error: result.error } : {}),
      latency_ms: Math.round(performance.now() - started),
    };
  } finally {
    await deliverer.close();
  }
}
