import type { RequestHandler } from 'express';
import type { Logger } from '../logging';
import type { RedisClient } from '../redis/connection';
import { clientIpKey, createRateLimiter } from './rate-limit';

/** Apart from the per-key counters (`onramp:rl:`), whose unauthenticated fallback is also keyed `ip:`. */
export const IP_RATE_LIMIT_KEY_PREFIX = 'onramp:rl-ip:';

export interface IpRateLimiterOptions {
  limit: number;
  windowMs: number;
  redis?: RedisClient;
  logger?: Logger;
  prefix?: string;
}

/**
 * Per-client-IP rate limiting, mounted before API-key authentication and the provider webhooks:
 * it bounds what one address can make the API do before anything has authenticated it (failed-key
 * guessing, signature checks of large forged bodies). The address is Express's `req.ip`, so a
 * forged `X-Forwarded-For` counts only when `TRUST_PROXY` names the proxy that sent it.
 */
export function createIpRateLimiter(options: IpRateLimiterOptions): RequestHandler {
  const { prefix = IP_RATE_LIMIT_KEY_PREFIX, ...rest } = options;
  return createRateLimiter({ ...rest, prefix, keyOf: clientIpKey, subject: 'this client address', limiter: 'client_ip' });
}
