import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Logger } from '../logging';
import { DEFAULT_REDIS_CALL_TIMEOUT_MS, withRedisDeadline, type RedisClient } from '../offers/redis-store';
import { ProblemError, sendProblem } from './problem';

export const DEFAULT_RATE_LIMIT_KEY_PREFIX = 'onramp:rl:';

export interface RateLimiterOptions {
  /** Requests allowed per API key (or per IP without one) in each window. */
  limit: number;
  windowMs: number;
  /** Counts are kept in Redis, shared by every API process, when given; in memory otherwise. */
  redis?: RedisClient;
  /** Prepended to the Redis keys; `onramp:rl:` by default. */
  prefix?: string;
  /** Where store failures and configuration warnings are logged (console otherwise). */
  logger?: Logger;
  /** How long one Redis call may take before the request is let through uncounted (ms); 2000 by default. */
  redisTimeoutMs?: number;
}

/** Whom a request is counted against: the authenticated integrator, else its IP address (IPv6 by /56). */
export function rateLimitKey(req: Request): string {
  if (req.integrator) return `integrator:${req.integrator.id}`;
  return `ip:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown')}`;
}

/**
 * The express-rate-limit store from rate-limit-redis on the shared node-redis client. The store
 * loads its Lua scripts once at start; if Redis was unreachable then, the failed load would stick
 * (every later count failing), so a failed load is retried on the next request.
 */
class ReloadingRedisStore extends RedisStore {
  override async increment(key: string) {
    this.incrementScriptSha = this.incrementScriptSha.catch(() => this.loadIncrementScript());
    return super.increment(key);
  }

  override async get(key: string) {
    this.getScriptSha = this.getScriptSha.catch(() => this.loadGetScript());
    return super.get(key);
  }
}

function redisStore(redis: RedisClient, prefix: string, timeoutMs: number): Store {
  return new ReloadingRedisStore({
    prefix,
    sendCommand: (...args: string[]) => withRedisDeadline(redis.sendCommand<RedisReply>(args), timeoutMs),
  });
}

/**
 * Per-API-key rate limiting, mounted after authentication on the /api routes. Answers the request
 * over the limit with 429 `rate_limited` problem+json and `Retry-After`; every counted request
 * carries the IETF draft-8 `RateLimit` and `RateLimit-Policy` headers.
 *
 * When the store fails (Redis unreachable) the request is let through and the failure logged:
 * a Redis outage must not take the whole API down with it.
 */
export function createRateLimiter(options: RateLimiterOptions): RequestHandler {
  const { limit, windowMs, redis, prefix = DEFAULT_RATE_LIMIT_KEY_PREFIX, logger, redisTimeoutMs = DEFAULT_REDIS_CALL_TIMEOUT_MS } = options;
  return rateLimit({
    limit,
    windowMs,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: rateLimitKey,
    ...(redis ? { store: redisStore(redis, prefix, redisTimeoutMs) } : {}),
    passOnStoreError: true,
    // Requests are counted per integrator, not per IP, so an X-Forwarded-For header from a load
    // balancer (with Express's `trust proxy` unset) is no misconfiguration worth an error log here.
    validate: { xForwardedForHeader: false },
    ...(logger
      ? {
          logger: {
            error: (err: unknown, message?: string) => logger.error({ err }, message ?? 'rate limiter error'),
            warn: (err: unknown, message?: string) => logger.warn({ err }, message ?? 'rate limiter warning'),
          },
        }
      : {}),
    handler: (req, res) => {
      const retryAfter = res.getHeader('Retry-After');
      const wait = retryAfter === undefined ? '' : ` Retry after ${String(retryAfter)} s.`;
      sendProblem(
        res,
        new ProblemError('rate_limited', `More than ${limit} requests in ${Math.ceil(windowMs / 1000)} s for this API key.${wait}`),
      );
    },
  });
}
