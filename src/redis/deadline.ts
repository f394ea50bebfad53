import { redisErrors } from '../metrics/metrics';

/** How long one Redis call may wait by default before its store counts Redis as unavailable (ms). */
export const DEFAULT_REDIS_CALL_TIMEOUT_MS = 2000;

/**
 * Fails a Redis call that has not settled within `ms`. node-redis's own command timeout covers only
 * the wait before a command is written; a server that stops answering (overloaded, paused, a
 * half-open connection) would otherwise hold the HTTP request until the socket dies.
 */
export function withRedisDeadline<T>(call: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let late = false;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      late = true;
      redisErrors.inc({ kind: 'timeout' });
      reject(new Error(`Redis did not answer within ${ms} ms`));
    }, ms);
  });
  // A failure after the deadline was counted as a timeout and is not an unhandled rejection.
  call.catch(() => {
    if (!late) redisErrors.inc({ kind: 'command' });
  });
  return Promise.race([call, expired]).finally(() => clearTimeout(timer));
}
