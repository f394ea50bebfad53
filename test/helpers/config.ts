import { buildConfig, parseEnv, type AppConfig } from '../../src/config';
import { DEFAULT_DEV_API_KEY } from '../../src/config/env';
import type { OrderTimings } from '../../src/temporal/order-contract';

export const TEST_API_KEY = DEFAULT_DEV_API_KEY;
/** A payload key for tests that run in production mode, where keys are required (not a secret: tests only). */
export const TEST_ENCRYPTION_KEYS = `test:${Buffer.alloc(32, 7).toString('base64')}`;
/** A returning-customer key for tests in production mode, where one is required (tests only). */
export const TEST_RANKING_CUSTOMER_KEY = 'test-only-returning-customer-key-0123456789';

/** Short durations so that polling, expiry and grace periods play out in seconds. */
export const FAST_TIMINGS: OrderTimings = {
  pollInitialMs: 500,
  pollMaxMs: 2000,
  paymentWindowMs: 60_000,
  settledGraceMs: 1000,
  webhookRetryDelaysMs: [200, 400, 800, 1600],
  webhookAttemptTimeoutMs: 3000,
};

export function testConfig(overrides: Partial<AppConfig> = {}, env: NodeJS.ProcessEnv = {}): AppConfig {
  const config = buildConfig(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }));
  return {
    ...config,
    orderTimings: FAST_TIMINGS,
    rateLimit: { limit: 100_000, windowMs: 60_000 },
    // The tests and benchmarks send everything from one address.
    ipRateLimit: { limit: 1_000_000_000, windowMs: 60_000 },
    // Tests page through searches quickly; test/security/order-search-budget.test.ts sets a budget.
    orderSearchBudget: undefined,
    // A stack makes reconciliation schedules only where a test asks (test/e2e/reconciliation.test.ts).
    reconciliation: { ...config.reconciliation, schedules: false },
    ...overrides,
  };
}
