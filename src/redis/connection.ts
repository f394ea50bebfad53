import { createClient, type RedisClientType } from 'redis';
import type { Logger } from '../logging';
import { redisErrors } from '../metrics/metrics';

/** The node-redis client every Redis-backed store shares. */
export type RedisClient = RedisClientType;

export interface ConnectRedisOptions {
  /** How long one TCP connection attempt may take (ms). */
  connectTimeoutMs?: number;
  /** How long one command may take before it fails (ms). */
  commandTimeoutMs?: number;
  /** How long start-up waits for the first connection before giving up (ms). */
  startupTimeoutMs?: number;
  /** Reconnection backs off (doubling from 100 ms) up to this delay (ms). */
  maxReconnectDelayMs?: number;
  /** How long close() waits for pending commands before dropping the connection (ms). */
  closeTimeoutMs?: number;
}

export interface RedisConnection {
  client: RedisClient;
  /** Closes the connection (waiting for pending commands when connected); safe to call twice. */
  close(): Promise<void>;
}

/** `redis://user:secret@host` → `redis://user:***@host`, for log lines and errors. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable Redis URL)';
  }
}

/**
 * Connects to Redis for the shared stores (offers, rate limits, signalled provider events, provider
 * shared values). Start-up waits for the first connection (up to `startupTimeoutMs`, then throws, so
 * a wrong REDIS_URL stops the process with a clear message). Afterwards a lost connection is
 * logged, never thrown: the client reconnects with backoff, and meanwhile commands fail at once (no
 * offline queue) instead of waiting, so the offer store answers 503 and the rate limiter lets
 * requests through until Redis is back. (The stores also put their own deadline on each call, for a
 * Redis that is connected but does not answer: ./deadline.)
 */
export async function connectRedis(url: string, logger: Logger, options: ConnectRedisOptions = {}): Promise<RedisConnection> {
  const {
    connectTimeoutMs = 2000,
    commandTimeoutMs = 2000,
    startupTimeoutMs = 10_000,
    maxReconnectDelayMs = 5000,
    closeTimeoutMs = 2000,
  } = options;
  const where = redactRedisUrl(url);
  const client: RedisClient = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: commandTimeoutMs },
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** Math.min(retries, 10), maxReconnectDelayMs) + Math.floor(Math.random() * 100),
    },
  });

  // Log the first error of an outage at error level and the retries after it at debug only.
  let healthy = true;
  client.on('error', (err: unknown) => {
    redisErrors.inc({ kind: 'connection' });
    if (healthy) logger.error({ err, redis: where }, 'redis: connection failed; reconnecting');
    else logger.debug({ err, redis: where }, 'redis: still unreachable');
    healthy = false;
  });
  client.on('ready', () => {
    if (!healthy) logger.info({ redis: where }, 'redis: connected again');
    healthy = true;
  });

  const connecting = client.connect();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      connecting,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no connection within ${startupTimeoutMs} ms`)), startupTimeoutMs);
      }),
    ]);
  } catch (err) {
    connecting.catch(() => undefined);
    if (client.isOpen) client.destroy();
    throw new Error(`Redis at ${where} is not reachable: ${(err as Error).message}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
  logger.info({ redis: where }, 'redis: connected');

  let closing: Promise<void> | undefined;
  return {
    client,
    close: () => {
      closing ??= (async () => {
        if (!client.isOpen) return;
        if (!client.isReady) {
          client.destroy();
          return;
        }
        // close() waits for pending commands; a Redis that stopped answering would hold it forever.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          client.close().catch(() => undefined),
          new Promise((resolve) => (timer = setTimeout(resolve, closeTimeoutMs))),
        ]);
        clearTimeout(timer);
        if (client.isOpen) client.destroy();
      })();
      return closing;
    },
  };
}
