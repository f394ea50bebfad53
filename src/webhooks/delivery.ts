import { Agent, request } from 'undici';
import { signStandardWebhook } from './signature';
import { checkWebhookUrl, publicOnlyLookup, WebhookUrlRefusedError } from './ssrf';
import { parseRetryAfter } from './retry';

export interface WebhookDeliveryOptions {
  /** Allow loopback and private-network receivers (development, tests). */
  allowPrivateNetworks: boolean;
  timeoutMs: number;
}

export interface WebhookMessage {
  url: string;
  secret: string;
  id: string;
  body: string;
}

export type WebhookAttemptResult =
  | { outcome: 'delivered'; status: number }
  | { outcome: 'failed'; status?: number; error: string; retryAfterMs?: number }
  | { outcome: 'refused'; error: string };

/** One attempt to deliver a signed Standard Webhooks message; never throws. */
export class WebhookDeliverer {
  private readonly agent: Agent;

  constructor(private readonly options: WebhookDeliveryOptions) {
    this.agent = new Agent({
      connect: options.allowPrivateNetworks ? {} : { lookup: publicOnlyLookup },
      // A receiver's answer body is read and thrown away; cap it so a huge one costs nothing.
      maxResponseSize: 64 * 1024,
    });
  }

  async attempt(message: WebhookMessage, now = Date.now()): Promise<WebhookAttemptResult> {
    try {
      checkWebhookUrl(message.url, this.options.allowPrivateNetworks);
    } catch (err) {
      return { outcome: 'refused', error: (err as Error).message };
    }
    const headers = signStandardWebhook(message.secret, message.id, Math.floor(now / 1000), message.body);
    try {
      const response = await request(message.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'onramp-broker-webhooks/1', ...headers },
        body: message.body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await response.body.dump();
      if (response.statusCode >= 200 && response.statusCode < 300) return { outcome: 'delivered', status: response.statusCode };
      const retryAfter = response.headers['retry-after'];
      const retryAfterMs = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, now);
      return {
        outcome: 'failed',
        status: response.statusCode,
        error: `HTTP ${response.statusCode}`,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause;
      if (err instanceof WebhookUrlRefusedError || cause instanceof WebhookUrlRefusedError) {
        return { outcome: 'refused', error: (cause instanceof Error ? cause : (err as Error)).message };
      }
      const name = (err as Error).name;
      return {
        outcome: 'failed',
        error: name === 'TimeoutError' ? `no answer within ${this.options.timeoutMs} ms` : (err as Error).message,
      };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
