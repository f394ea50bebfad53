import { z } from 'zod';
import { ConfigError } from '../providers/kit/config';
import { PROVIDERS_ENV_SHAPE } from '../providers/manifest';
import { simulatedProvidersProblems, SIMULATOR_SECRET_MIN_LENGTH } from './simulated-providers';
import { TEMPORAL_TLS_ENV_SHAPE } from './temporal-tls';
import { ENCRYPTION_ENV_SHAPE } from './encryption';
import { TrustProxySchema } from './trust-proxy';

export { ConfigError } from '../providers/kit/config';

/** Whole numbers written as plain digits: "0x10" or "1e3" are refused rather than read as 16 or 1000. */
const digits = z.string().trim().regex(/^\d+$/, 'expected a whole number').transform(Number);
const integer = (min: number, max: number) => digits.pipe(z.number().int().min(min).max(max));
const seconds = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, 'expected a number of seconds')
  .transform(Number)
  .pipe(z.number().positive());
const port = integer(0, 65535);
/** A plain decimal number ("0.5", "20"), within bounds. */
const decimalNumber = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'expected a number')
    .transform(Number)
    .pipe(z.number().min(min).max(max));
const optionalString = z.string().trim().optional();

export const DEFAULT_DEV_API_KEY = 'obk_test_dev_0000000000000000000000000000';
export const DEFAULT_DEV_WEBHOOK_SECRET = 'whsec_ZGV2LW9ubHktd2ViaG9vay1zZWNyZXQtMzJieXRlcyE=';
export const RANKING_CUSTOMER_KEY_MIN_LENGTH = 32;
/** RANKING_CUSTOMER_KEY outside production when unset: published here, so production refuses it. */
export const DEFAULT_DEV_RANKING_CUSTOMER_KEY = 'dev-only-returning-customer-key-published-in-the-repository';

/** The broker's own variables; each provider adapter brings its own schema of the rest. */
const BrokerEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_BASE_URL: optionalString.pipe(z.url().optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('onramp-orders'),
  /** A prebuilt workflow bundle (`npm run build` writes dist/workflow-bundle.js); bundled at start-up when unset. */
  WORKFLOW_BUNDLE_PATH: optionalString,
  ...TEMPORAL_TLS_ENV_SHAPE,
  ...ENCRYPTION_ENV_SHAPE,

  ONRAMP_API_KEY: optionalString.pipe(z.string().min(16).optional()),
  ONRAMP_WEBHOOK_URL: optionalString.pipe(z.url().optional()),
  ONRAMP_WEBHOOK_SECRET: optionalString.pipe(
    z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{32,}$/)
      .optional(),
  ),
  ONRAMP_INTEGRATORS_FILE: optionalString,
  /** The operators of the review queue (src/config/operators.ts); ONRAMP_OPERATOR_KEY: one operator's key instead. */
  ONRAMP_OPERATORS_FILE: optionalString,
  ONRAMP_OPERATOR_KEY: optionalString.pipe(z.string().min(16).optional()),
  OFFER_TTL_SECONDS: integer(5, 3600).default(120),
  REDIS_URL: optionalString.pipe(z.url().optional()),
  /** Offers ranking: an order outcome this many hours old counts half in the completion statistics. */
  RANKING_HALF_LIFE_HOURS: decimalNumber(0.01, 8760).default(168),
  /** Offers ranking: K, the orders' worth of weight the wider level's rate has in a level's estimate. */
  RANKING_PRIOR_WEIGHT: decimalNumber(0, 100_000).default(20),
  /** Offers ranking: a returning customer's completion estimate p becomes p + (1 - p) x this. */
  RANKING_RETURNING_BOOST: decimalNumber(0, 1).default(0.5),
  /** Offers ranking: how often an API process reads the outcome statistics again (ms). */
  RANKING_REFRESH_MS: integer(100, 3_600_000).default(5000),
  OFFERS_PROVIDER_TIMEOUT_MS: integer(50, 60_000).default(3000),
  /** A provider's quote deadline: this many times the p99 of its recent answers, within the floor and OFFERS_PROVIDER_TIMEOUT_MS. */
  OFFERS_DEADLINE_MULTIPLIER: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'expected a number')
    .transform(Number)
    .pipe(z.number().min(1).max(100))
    .default(2),
  OFFERS_DEADLINE_FLOOR_MS: integer(10, 60_000).default(250),
  /** A provider's order creations failing: this many failures among the window open its breaker (0 turns the breaker off)... */
  PROVIDER_BREAKER_FAILURES: integer(0, 10_000).default(5),
  /** ...when they are at least this share of the window's creations (0 < rate <= 1)... */
  PROVIDER_BREAKER_FAILURE_RATE: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'expected a number')
    .transform(Number)
    .pipe(z.number().gt(0).max(1))
    .default(0.5),
  /** ...the window being the provider's last this many order creations. */
  PROVIDER_BREAKER_WINDOW: integer(1, 10_000).default(20),
  /** How long an open breaker leaves the provider out before probe orders are let through. */
  PROVIDER_BREAKER_OPEN_MS: integer(100, 86_400_000).default(30_000),
  /** Probe orders let through at a time while half-open. */
  PROVIDER_BREAKER_PROBES: integer(1, 1000).default(1),
  /** Quote calls in flight to one provider from one API process; more wait their turn within their deadline. */
  PROVIDER_QUOTE_CONCURRENCY: integer(1, 10_000).default(64),
  /** The share of that cap one integrator's quote calls may hold (0 < share <= 1; at least one call): the rest is kept for the others. */
  PROVIDER_QUOTE_INTEGRATOR_SHARE: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'expected a number')
    .transform(Number)
    .pipe(z.number().gt(0).max(1))
    .default(0.875),
  CATALOGUE_TTL_SECONDS: integer(1, 86_400).default(300),
  /** Deadline of one provider catalogue fetch, its reference-fee quotes included (off the offers path once loaded). */
  CATALOGUE_TIMEOUT_MS: integer(100, 120_000).default(10_000),
  /** Requests of one integrator one API process works on at once; the others wait their turn (0: no limit). */
  API_INTEGRATOR_CONCURRENCY: integer(0, 100_000).default(32),
  /** Requests of one integrator that may wait for that turn; one more is answered 429. */
  API_INTEGRATOR_QUEUE: integer(1, 1_000_000).default(1000),
  /** Requests per API key per window; 0 turns rate limiting off. */
  RATE_LIMIT_REQUESTS: integer(0, 1_000_000).default(600),
  RATE_LIMIT_WINDOW_SECONDS: integer(1, 86_400).default(60),
  /** Requests per client IP per window, before authentication and on provider webhooks; 0 turns it off. */
  RATE_LIMIT_IP_REQUESTS: integer(0, 1_000_000_000).default(3000),
  RATE_LIMIT_IP_WINDOW_SECONDS: integer(1, 86_400).default(60),
  /** The proxies whose X-Forwarded-For is believed; unset: the socket's address is the client's. */
  TRUST_PROXY: TrustProxySchema.optional(),

  ORDER_CREATE_TIMEOUT_SECONDS: seconds.pipe(z.number().max(300)).default(30),
  /** Order searches (GET /api/on_ramp/orders) in flight per integrator per API process; more are answered 429. */
  ORDER_SEARCH_CONCURRENCY: integer(1, 100).default(2),
  /**
   * Calls to Temporal's visibility store (counts and reads) one integrator's searches may make per
   * second, on average, per API process, and at once after a quiet spell; 0 turns the budget off.
   */
  ORDER_SEARCH_CALLS_PER_SECOND: integer(0, 10_000).default(5),
  ORDER_SEARCH_CALLS_BURST: integer(1, 100_000).default(30),
  /** Orders one export (GET /api/on_ramp/orders/export) may hold; a window holding more is refused (export_too_large). */
  ORDER_EXPORT_MAX_ROWS: integer(1, 10_000_000).default(100_000),
  /** How long one export may stream before it is cut. */
  ORDER_EXPORT_MAX_SECONDS: integer(1, 86_400).default(1800),
  /** The widest window of request times one export may cover. */
  ORDER_EXPORT_MAX_DAYS: integer(1, 3660).default(93),
  /** Exports streaming at once per API process, all integrators together (each integrator: one). */
  ORDER_EXPORT_CONCURRENCY: integer(1, 1000).default(4),
  /** Orders (of every integrator) one daily summary (GET /api/operator/summaries/daily) may read; a day holding more is refused. */
  DAILY_SUMMARY_MAX_ORDERS: integer(1, 10_000_000).default(1_000_000),
  /** How long one daily summary may read before it is refused. */
  DAILY_SUMMARY_MAX_SECONDS: integer(1, 86_400).default(1800),
  /** Whether the worker keeps a daily reconciliation schedule per enabled provider (src/reconciliation/schedules.ts). */
  RECONCILIATION_SCHEDULES: z.stringbool().default(true),
  /** When, UTC (HH:MM), the daily reconciliations run. */
  RECONCILIATION_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, UTC')
    .default('02:30'),
  /** An order that changed less than this long ago is not compared by status yet. */
  RECONCILIATION_SETTLE_MINUTES: integer(0, 10_080).default(60),
  /** How long a reconciliation's report is kept, open and queryable. */
  RECONCILIATION_KEEP_DAYS: integer(1, 3660).default(400),
  /** How long a review (the operators' queue) stays queryable after its last change, once nothing in it is open. */
  REVIEW_KEEP_DAYS: integer(1, 3660).default(400),
  ORDER_POLL_INITIAL_SECONDS: seconds.default(30),
  ORDER_POLL_MAX_SECONDS: seconds.default(1800),
  ORDER_PAYMENT_WINDOW_SECONDS: seconds.default(86_400),
  /** How long an order id stays reserved once retention has deleted its order: a new order under it is refused meanwhile. */
  ORDER_ID_RESERVATION_DAYS: integer(30, 36_500).default(730),
  ORDER_SETTLED_GRACE_SECONDS: seconds.default(604_800),
  /** An order still on hold or processing this long after creation is flagged for review. */
  ORDER_REVIEW_AFTER_SECONDS: seconds.default(432_000),

  /** Pauses between integrator webhook attempts, in seconds (docs/decisions.md, "Webhooks to integrators": about three days in all). */
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z
    .string()
    .transform((v) => v.split(',').map((s) => s.trim()))
    .pipe(
      z
        .array(
          z
            .string()
            .regex(/^\d+(\.\d+)?$/, 'expected seconds, comma-separated')
            .transform(Number),
        )
        .min(1)
        .max(20),
    )
    .optional(),
  /** How long one webhook attempt waits for the integrator's answer. */
  WEBHOOK_TIMEOUT_SECONDS: seconds.pipe(z.number().max(60)).default(10),
  /** Deliver webhooks to loopback and private-network addresses (SSRF guard off); default on outside production. */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z.stringbool().optional(),
  /** Worker: activities (webhook attempts, status polls) it runs at once (the SDK's maxConcurrentActivityTaskExecutions). */
  WORKER_ACTIVITY_SLOTS: integer(2, 10_000).default(100),
  /** Worker: ordinary webhook attempts out at once, below WORKER_ACTIVITY_SLOTS (the rest stay free for status polls); default half of them. */
  WEBHOOK_ATTEMPTS_PER_WORKER: integer(1, 10_000).optional(),
  /** Worker: ordinary webhook attempts out at once to one integrator; default a tenth of WORKER_ACTIVITY_SLOTS. */
  WEBHOOK_ATTEMPTS_PER_INTEGRATOR: integer(1, 10_000).optional(),

  /** The provider simulator host; providers without credentials run against it. */
  SANDBOX_URL: optionalString.pipe(z.url().optional()),
  /** The simulator host as customers' browsers reach it, when that differs from SANDBOX_URL (containers). */
  SANDBOX_PUBLIC_URL: optionalString.pipe(z.url().optional()),
  /** In production, SANDBOX_URL runs simulated providers only with this explicit opt-in (demos). */
  SANDBOX_IN_PRODUCTION: z.stringbool().default(false),

  /** false: the API and the worker record no metrics and serve none (no /metrics, no metrics ports). */
  METRICS_ENABLED: z.stringbool().default(true),
  /** Bearer token every metrics scrape must send (API /metrics, the worker's metrics ports but the SDK's). */
  METRICS_TOKEN: optionalString.pipe(z.string().min(16).regex(/^\S+$/, 'no spaces').optional()),
  /** The address the separate metrics servers bind (API_METRICS_PORT, WORKER_METRICS_PORT, TEMPORAL_SDK_METRICS_PORT). */
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** API: serve /metrics on this port of METRICS_HOST instead of the API's own port. */
  API_METRICS_PORT: integer(1, 65535).optional(),
  /** Worker: serve the broker's metrics on this port of METRICS_HOST; unset: not served. */
  WORKER_METRICS_PORT: integer(1, 65535).optional(),
  /** Worker: the Temporal SDK's own Prometheus exporter on this port of METRICS_HOST; unset: off. */
  TEMPORAL_SDK_METRICS_PORT: integer(1, 65535).optional(),
  /** Worker with WORKER_METRICS_PORT: how often open orders are counted from Temporal visibility; 0 turns it off. */
  OPEN_ORDERS_METRICS_INTERVAL_SECONDS: integer(0, 86_400).default(60),

  /**
   * The HMAC key returning customers are kept under (src/ranking/customer-key.ts), at least 32
   * characters: required in production; elsewhere DEFAULT_DEV_RANKING_CUSTOMER_KEY when unset.
   */
  RANKING_CUSTOMER_KEY: optionalString.pipe(z.string().min(RANKING_CUSTOMER_KEY_MIN_LENGTH).optional()),
  /** How long a customer's completed order with a provider counts for the returning-customer boost, and is kept. */
  RANKING_CUSTOMER_RETENTION_DAYS: integer(1, 3650).default(365),
});

/** The secret every simulated provider's credentials derive from (src/providers/kit/simulator-secret.ts). */
export const SimulatorSecretSchema = optionalString.pipe(z.string().min(SIMULATOR_SECRET_MIN_LENGTH).optional());

/** What decides which providers run, and how: the simulators' shared secret and each provider's own variables (the manifest). */
const ProvidersEnvSchema = z.object({ SIMULATOR_SECRET: SimulatorSecretSchema }).extend(PROVIDERS_ENV_SHAPE);

export type ProvidersEnv = z.infer<typeof ProvidersEnvSchema>;

const PROVIDER_VARIABLES = Object.keys(ProvidersEnvSchema.shape) as (keyof ProvidersEnv)[];

/** The providers' variables out of the whole environment. */
export function providersEnv(env: Env): ProvidersEnv {
  return Object.fromEntries(PROVIDER_VARIABLES.map((name) => [name, env[name]])) as ProvidersEnv;
}

/** Every environment variable the broker reads (README, "Configuration"), the providers' included. */
export const EnvSchema = BrokerEnvSchema.extend(ProvidersEnvSchema.shape).superRefine((env, ctx) => {
  if (env.NODE_ENV === 'production' && !env.ONRAMP_INTEGRATORS_FILE && !env.ONRAMP_API_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['ONRAMP_INTEGRATORS_FILE'],
      message: 'required in production (or ONRAMP_API_KEY for a single integrator)',
    });
  }
  for (const { variable, message } of simulatedProvidersProblems(env)) ctx.addIssue({ code: 'custom', path: [variable], message });
  for (const { variable, message } of metricsPortProblems(env)) ctx.addIssue({ code: 'custom', path: [variable], message });
  for (const { variable, message } of webhookAttemptProblems(env)) ctx.addIssue({ code: 'custom', path: [variable], message });
});

/** Webhook attempts must leave activity slots for status polls, and one integrator's share fit in the worker's. */
function webhookAttemptProblems(env: z.infer<typeof BrokerEnvSchema>): { variable: string; message: string }[] {
  const { perWorker, perIntegrator } = webhookAttemptLimits(env);
  const problems: { variable: string; message: string }[] = [];
  if (perWorker >= env.WORKER_ACTIVITY_SLOTS)
    problems.push({
      variable: 'WEBHOOK_ATTEMPTS_PER_WORKER',
      message: `must be below WORKER_ACTIVITY_SLOTS (${env.WORKER_ACTIVITY_SLOTS}): the rest are for status polls`,
    });
  if (perIntegrator > perWorker)
    problems.push({ variable: 'WEBHOOK_ATTEMPTS_PER_INTEGRATOR', message: `must be at most WEBHOOK_ATTEMPTS_PER_WORKER (${perWorker})` });
  return problems;
}

/** A worker's caps on ordinary webhook attempts: as set, else half and a tenth of its activity slots. */
export function webhookAttemptLimits(env: {
  WORKER_ACTIVITY_SLOTS: number;
  WEBHOOK_ATTEMPTS_PER_WORKER?: number | undefined;
  WEBHOOK_ATTEMPTS_PER_INTEGRATOR?: number | undefined;
}): { perWorker: number; perIntegrator: number } {
  return {
    perWorker: env.WEBHOOK_ATTEMPTS_PER_WORKER ?? Math.max(1, Math.floor(env.WORKER_ACTIVITY_SLOTS / 2)),
    perIntegrator: env.WEBHOOK_ATTEMPTS_PER_INTEGRATOR ?? Math.max(1, Math.floor(env.WORKER_ACTIVITY_SLOTS / 10)),
  };
}

/** Ports that would collide: the API's metrics port on the API's own, the worker's two on each other. */
function metricsPortProblems(env: z.infer<typeof BrokerEnvSchema>): { variable: string; message: string }[] {
  const problems: { variable: string; message: string }[] = [];
  if (env.API_METRICS_PORT !== undefined && env.API_METRICS_PORT === env.PORT)
    problems.push({ variable: 'API_METRICS_PORT', message: `must differ from PORT (${env.PORT})` });
  if (env.TEMPORAL_SDK_METRICS_PORT !== undefined && env.TEMPORAL_SDK_METRICS_PORT === env.WORKER_METRICS_PORT)
    problems.push({
      variable: 'TEMPORAL_SDK_METRICS_PORT',
      message: 'must differ from WORKER_METRICS_PORT (the SDK serves its own exporter)',
    });
  return problems;
}

export type Env = z.infer<typeof EnvSchema>;

/** Parses an environment with a schema; a bad value throws a ConfigError naming each offending variable. */
export function parseEnvironment<S extends z.ZodType>(schema: S, source: NodeJS.ProcessEnv): z.infer<S> {
  // A variable set to the empty string counts as unset, as in most shells' `VAR= cmd`.
  const set = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const result = schema.safeParse(set);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`));
}

/** Parses the broker's environment; a bad value throws a ConfigError naming each offending variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  return parseEnvironment(EnvSchema, source);
}
