import type { Logger } from '../logging';
import type { RedisClient } from '../redis/connection';
import { RedisBreakerStore } from './breaker-redis-store';
import { MemoryBreakerStore } from './breaker-store';
import type { BreakerSettings } from './provider-breaker';
import { ProviderBreakers } from './provider-breakers';

export interface ProviderBreakerConfig {
  failures: number;
  failureRate: number;
  window: number;
  openMs: number;
  probes: number;
}

/** A probe's place is held this much longer than the API waits for its creation (ORDER_CREATE_TIMEOUT_SECONDS). */
const PROBE_LEASE_MARGIN_MS = 5000;

/**
 * The providers' breakers of an API process, refreshing in the background: shared through Redis
 * when a client is given (REDIS_URL), else this process's own. Undefined when `failures` is 0 (off).
 */
export function createProviderBreakers(
  config: ProviderBreakerConfig,
  options: { providers: readonly string[]; createTimeoutMs: number; redis?: RedisClient; logger?: Logger },
): ProviderBreakers | undefined {
  if (config.failures === 0) return undefined;
  const settings: BreakerSettings = { ...config, probeLeaseMs: options.createTimeoutMs + PROBE_LEASE_MARGIN_MS };
  const store = options.redis ? new RedisBreakerStore(options.redis, settings) : new MemoryBreakerStore(settings);
  return new ProviderBreakers({ store, settings, providers: options.providers, logger: options.logger }).start();
}
