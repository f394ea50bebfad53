import { hash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Logger } from '../logging';
import { rateLimitRefusals } from '../metrics/metrics';
import type { RedisClient } from '../redis/connection';
import { DEFAULT_REDIS_CALL_TIMEOUT_MS, withRedisDeadline } from '../redis/deadline';
import { MemoryCounts } from './memory-counts';
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
  /** Where store failures are logged (console otherwise). */
  logger?: Logger;
  /** How long one Redis call may take before the request is let through uncounted (ms); 2000 by default. */
  redisTimeoutMs?: number;
  /** Whom a request is counted against; rateLimitKey by default. */
  keyOf?: (req: Request) => string;
  /** Whose budget the 429 names: `this API key` by default. */
  subject?: string;
  /** The `limiter` label of onramp_rate_limit_refusals_total: `api_key` by default. */
  limiter?: string;
}

/**
 * The client's IP address (IPv6 by /56): req.ip, which is the socket's unless `trust proxy` believes
 * a forwarder. Without `trust proxy` the socket's address is read directly: Express's req.ip parses
 * X-Forwarded-For on every request to find it there. Each address's key is written once.
 */
export function clientIpKey(req: Request): string {
  const address = (req.app.enabled('trust proxy') ? req.ip : req.socket.remoteAddress) ?? req.socket.remoteAddress ?? 'unknown';
  let key = ipKeys.get(address);
  if (key === undefined) {
    if (ipKeys.size >= PARTITION_KEY_CACHE_SIZE) ipKeys.clear();
    key = `ip:${ipKeyGenerator(address)}`;
    ipKeys.set(address, key);
  }
  return key;
}

/** Keys by client address, bounded: a client may come from any number of addresses. */
const ipKeys = new Map<string, string>();

/** Whom a request is counted against: the authenticated integrator, else its IP address (IPv6 by /56). */
export function rateLimitKey(req: Request): string {
  if (req.integrator) {
    const id = req.integrator.id;
    let key = integratorKeys.get(id);
    if (key === undefined) {
      key = `integrator:${id}`;
      if (integratorKeys.size < PARTITION_KEY_CACHE_SIZE) integratorKeys.set(id, key);
    }
    return key;
  }
  return clientIpKey(req);
}

/** Each integrator's key, written once (the integrators are the configured ones; bounded all the same). */
const integratorKeys = new Map<string, string>();

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

/** The policy's name, as express-rate-limit names it: `600-in-1min`, `10-in-30sec`, `5000-in-1day`. */
export function policyName(limit: number, windowMs: number): string {
  const seconds = windowMs / 1000;
  const minutes = seconds / 60;
  const hours = minutes / 60;
  const days = hours / 24;
  const duration =
    seconds < 60
      ? `${seconds}sec`
      : minutes < 60
        ? `${minutes}min`
        : hours < 24
          ? `${hours}hr${hours > 1 ? 's' : ''}`
          : `${days}day${days > 1 ? 's' : ''}`;
  return `${limit}-in-${duration}`;
}

/** The draft-8 partition key: a short, stable digest of the counted key, so the key itself is not shown. */
function partitionKey(key: string): string {
  return Buffer.from(hash('sha256', key, 'hex').slice(0, 12)).toString('base64');
}

/** Partition keys by counted key; bounded, since keys by IP could be many. */
const PARTITION_KEY_CACHE_SIZE = 10_000;

/**
 * Per-API-key rate limiting, mounted after authentication on the /api routes. Answers the request
 * over the limit with 429 `rate_limited` problem+json and `Retry-After`; every counted request
 * carries the IETF draft-8 `RateLimit` and `RateLimit-Policy` headers.
 *
 * Counting is a fixed-window count in memory (MemoryCounts, as express-rate-limit's `MemoryStore`
 * counts, answered without a promise), or rate-limit-redis's Lua-scripted
 * store with `redis`. The middleware around the store is ours: express-rate-limit's own does five
 * awaits, a SHA-256 and the client IP's parsing on every request, which measured as the largest
 * share of what the API adds to a cached GET (docs/decisions.md, Rate limiting).
 *
 * When the store fails (Redis unreachable) the request is let through and the failure logged:
 * a Redis outage must not take the whole API down with it.
 */
export function createRateLimiter(options: RateLimiterOptions): RequestHandler {
  const {
    limit,
    windowMs,
    redis,
    prefix = DEFAULT_RATE_LIMIT_KEY_PREFIX,
    logger,
    redisTimeoutMs = DEFAULT_REDIS_CALL_TIMEOUT_MS,
    keyOf = rateLimitKey,
    subject = 'this API key',
    limiter = 'api_key',
  } = options;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('the rate limit must be a whole number of requests, at least 1');
  if (!(windowMs >= 1000)) throw new RangeError('the rate-limit window must be at least one second');
  const memory = redis ? undefined : new MemoryCounts();
  const store: Store = memory ?? redisStore(redis!, prefix, redisTimeoutMs);
  const logError = (err: unknown, message: string) => (logger ? logger.error({ err }, message) : console.error(message, err));
  try {
    // Both stores only read windowMs from the middleware's options.
    const initialised = store.init?.({ windowMs } as Options);
    if (initialised instanceof Promise) initialised.catch((err: unknown) => logError(err, 'rate limiter store failed to initialise'));
  } catch (err) {
    logError(err, 'rate limiter store failed to initialise');
  }

  const windowSeconds = Math.ceil(windowMs / 1000);
  const name = `"${policyName(limit, windowMs)}"`;
  const policy = `${name}; q=${limit}; w=${windowSeconds}; pk=:`;
  // Each key's RateLimit-Policy header, whole (it names the key's partition and nothing else varies).
  const policies = new Map<string, string>();
  const policyFor = (key: string): string => {
    let header = policies.get(key);
    if (header === undefined) {
      if (policies.size >= PARTITION_KEY_CACHE_SIZE) policies.clear();
      header = `${policy}${partitionKey(key)}:`;
      policies.set(key, header);
    }
    return header;
  };

  // The store's count as a promise, a failure thrown at once included (without an async function's promise around it).
  const count = (key: string): Promise<ClientRateLimitInfo> => {
    try {
      return Promise.resolve(store.increment(key));
    } catch (err) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what the store threw, as an async function would reject with it
      return Promise.reject(err);
    }
  };

  const decide = (req: Request, res: Response, next: NextFunction, key: string, { totalHits, resetTime }: ClientRateLimitInfo) => {
    const remaining = Math.max(limit - totalHits, 0);
    const resetSeconds = resetTime ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : windowSeconds;
    if (!res.headersSent) {
      res.setHeader('RateLimit', `${name}; r=${remaining}; t=${resetSeconds}`);
      res.setHeader('RateLimit-Policy', policyFor(key));
    }
    if (totalHits <= limit) {
      next();
      return;
    }
    // The key's class (integrator, ip), never the key itself: `other` for a key without one.
    const colon = key.indexOf(':');
    rateLimitRefusals.inc({ limiter, key_class: colon > 0 ? key.slice(0, colon) : 'other' });
    res.setHeader('Retry-After', String(resetSeconds));
    sendProblem(
      res,
      new ProblemError('rate_limited', `More than ${limit} requests in ${windowSeconds} s for ${subject}. Retry after ${resetSeconds} s.`),
    );
  };

  return function rateLimit(req, res, next) {
    const key = keyOf(req);
    if (memory) return decide(req, res, next, key, memory.hit(key));
    count(key).then(
      (counted) => decide(req, res, next, key, counted),
      (err: unknown) => {
        logError(err, 'rate limiter store failed, allowing request without rate-limiting');
        next();
      },
    );
  };
}
