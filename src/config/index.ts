import { isIP } from 'node:net';
import {
  ConfigError,
  DEFAULT_DEV_API_KEY,
  DEFAULT_DEV_RANKING_CUSTOMER_KEY,
  DEFAULT_DEV_WEBHOOK_SECRET,
  parseEnv,
  providersEnv,
  webhookAttemptLimits,
  type Env,
  type ProvidersEnv,
} from './env';
import type { OrderTimings } from '../temporal/order-contract';
import type { ReconciliationTimings } from '../temporal/reconciliation-contract';
import { checkWebhookUrl, WebhookUrlRefusedError } from '../webhooks/ssrf';
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS } from '../webhooks/retry';
import { readIntegratorsFile, sha256Hex, type Integrator } from './integrators';
import { operatorsFrom, type Operator } from './operators';
import type { ProviderResolutions } from '../providers/manifest';
import { resolveProviders } from './providers';
import { temporalSecurity } from './temporal-tls';
import { encryptionConfig, type EncryptionConfig } from './encryption';
import { publishedEnvProblems, publishedIntegratorProblems } from './published-values';
import type { TemporalEndpoint } from '../temporal/connection-options';

export { ConfigError, parseEnv } from './env';
export type { Env, ProvidersEnv } from './env';
export type { ProviderResolutions } from '../providers/manifest';
export { DEV_SANDBOX_API_KEY, DEV_SANDBOX_WEBHOOK_SECRET, sandboxCredentials } from '../providers/sandbox/config';

export const DEFAULT_SANDBOX_PORT = 4010;

export interface AppConfig {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  publicBaseUrl: string;
  logLevel: Env['LOG_LEVEL'];
  temporal: TemporalEndpoint & { namespace: string; taskQueue: string; workflowBundlePath?: string };
  integrators: Integrator[];
  /** Who may use the operator API (src/config/operators.ts); empty: it is not served. */
  operators: Operator[];
  offerTtlSeconds: number;
  offersProviderTimeoutMs: number;
  /** A provider's quote deadline: `multiplier` x its recent p99, at least `floorMs` (at most offersProviderTimeoutMs). */
  offersDeadline: { multiplier: number; floorMs: number };
  /**
   * Each provider's order-creation circuit breaker (src/ranking/provider-breaker.ts): open after
   * `failures` failures making at least `failureRate` of its last `window` creations, for `openMs`,
   * then `probes` orders at a time let through. `failures` 0: no breaker.
   */
  providerBreaker: { failures: number; failureRate: number; window: number; openMs: number; probes: number };
  /** Quote calls in flight to one provider from this process. */
  providerQuoteConcurrency: number;
  /** PROVIDER_QUOTE_INTEGRATOR_SHARE. */
  providerQuoteIntegratorShare: number;
  /** How long a provider's catalogue is served before it is refreshed (stale while refreshing). */
  catalogueTtlMs: number;
  /** Deadline of one catalogue fetch, reference-fee quotes included. */
  catalogueTimeoutMs: number;
  /** Requests per API key per window; a limit of 0 means no rate limiting. */
  rateLimit: { limit: number; windowMs: number };
  /** Requests of one integrator worked on at once per API process, and how many may wait (src/api/integrator-admission.ts); concurrency 0: no limit. */
  integratorAdmission: { concurrency: number; queued: number };
  /** Requests per client IP per window, before authentication and on provider webhooks; a limit of 0 means none. */
  ipRateLimit: { limit: number; windowMs: number };
  /** Express `trust proxy`: the proxies whose X-Forwarded-For is believed; empty means the socket's address. */
  trustProxy: string[];
  orderTimings: OrderTimings;
  /**
   * How long an order id stays reserved once its order's record is gone (ORDER_ID_RESERVATION_DAYS),
   * how often the reservation asks whether it is (undefined: weekly), and how young a reservation
   * without its order may be before that order counts as deleted rather than never started
   * (src/orders/service.ts; undefined: the shortest retention the API starts with).
   */
  orderIdReservation: { holdMs: number; checkEveryMs?: number; graceMs?: number };
  /** How long POST /orders waits for the provider order before answering 503. */
  orderCreateTimeoutMs: number;
  /** Order searches in flight per integrator in this process. */
  orderSearchConcurrency: number;
  /** Visibility calls per integrator's searches (src/orders/search-budget.ts); undefined: no budget. */
  orderSearchBudget?: { perSecond: number; burst: number };
  /** GET /api/on_ramp/orders/export (src/orders/export.ts). */
  orderExportLimits: {
    maxRows: number;
    maxDurationMs: number;
    maxWindowMs: number;
    /** How far in the past an export's window must end (the create timeout and a minute). */
    settleMs: number;
    /** Orders read from visibility a page at a time. */
    pageSize: number;
    /** Exports of one integrator at once, per API process. */
    perIntegrator: number;
    total: number;
  };
  /** The operators' review queue (docs/operations.md, "Review queue"): how long a review is kept after its last change. */
  reviews: { keepMs: number };
  /** GET /api/operator/summaries/daily (src/operators/daily-summary.ts). */
  dailySummaryLimits: {
    /** Orders of every integrator one summary may read. */
    maxOrders: number;
    maxDurationMs: number;
    /** How long after a day's end its summary may be asked for (the create timeout and a minute). */
    settleMs: number;
    /** Orders read from visibility a page at a time. */
    pageSize: number;
    /** Summaries at once, per API process. */
    concurrency: number;
  };
  /** The reconciliation with the providers' books (src/reconciliation, docs/operations.md "Reconciliation"). */
  reconciliation: {
    /** Whether the worker keeps a daily schedule per enabled provider. */
    schedules: boolean;
    /** When the daily runs fire, UTC. */
    at: { hour: number; minute: number };
    timings: ReconciliationTimings;
  };
  /** Integrator webhook delivery: SSRF guard and per-attempt HTTP timeout. */
  webhooks: { allowPrivateNetworks: boolean; timeoutMs: number };
  /**
   * The worker's activity slots (WORKER_ACTIVITY_SLOTS), and how many of them ordinary webhook
   * attempts may hold, in all and for one integrator (src/webhooks/delivery-gate.ts).
   */
  worker: { activitySlots: number; webhookAttempts: { perWorker: number; perIntegrator: number } };
  /** Payload encryption in Temporal and the codec endpoint (src/config/encryption.ts). */
  encryption: EncryptionConfig;
  redisUrl?: string;
  /**
   * Offers ranking (src/ranking): the outcome statistics' half-life, the prior weight K of their
   * smoothing, the returning-customer boost, and how often an API process reads them again.
   */
  ranking: { halfLifeMs: number; priorWeight: number; returningBoost: number; refreshMs: number };
  /** The provider simulator host (SANDBOX_URL); absent in production unless SANDBOX_URL is set. */
  simulatorUrl?: string;
  /** How each provider runs: live, against the simulator host, or disabled (with the reason). */
  providers: ProviderResolutions;
  /** The providers' variables, kept so that a stack on other ports can resolve them again (withEndpoints). */
  providerEnv: ProvidersEnv;
  /** Where the API and the worker serve their metrics (docs/operations.md, "Metrics and alerts"). */
  metrics: MetricsConfig;
  /**
   * Returning customers (src/ranking/returning-customers.ts): the HMAC key they are kept under
   * (RANKING_CUSTOMER_KEY) and how long a completion counts and is kept (RANKING_CUSTOMER_RETENTION_DAYS).
   */
  returningCustomers: { key: string; retentionMs: number };
}

export interface MetricsConfig {
  /** METRICS_ENABLED: false, nothing is recorded and nothing served (onApiPort false, no ports). */
  enabled: boolean;
  /** Bearer token of every broker metrics endpoint (METRICS_TOKEN); open when absent. */
  token?: string;
  /** The address separate metrics servers bind. */
  host: string;
  /**
   * Whether the API serves /metrics on its own port: unless API_METRICS_PORT moves it, and in
   * production only with a token (the API's port is usually public).
   */
  onApiPort: boolean;
  /** The API's separate metrics port (API_METRICS_PORT). */
  apiPort?: number;
  /** The worker's metrics port (WORKER_METRICS_PORT); none when absent. */
  workerPort?: number;
  /** The Temporal SDK's Prometheus exporter of the worker (TEMPORAL_SDK_METRICS_PORT); off when absent. */
  temporalSdkPort?: number;
  /** How often the worker counts open orders from visibility; 0: never. */
  openOrdersIntervalMs: number;
}

function integratorsFrom(env: Env): Integrator[] {
  if (env.ONRAMP_INTEGRATORS_FILE) return readIntegratorsFile(env.ONRAMP_INTEGRATORS_FILE);
  const apiKey = env.ONRAMP_API_KEY ?? DEFAULT_DEV_API_KEY;
  return [
    {
      id: 'dev',
      name: 'Development integrator',
      api_key_sha256: [sha256Hex(apiKey)],
      webhook_url: env.ONRAMP_WEBHOOK_URL,
      webhook_secret: env.ONRAMP_WEBHOOK_SECRET ?? (env.NODE_ENV === 'production' ? undefined : DEFAULT_DEV_WEBHOOK_SECRET),
    },
  ];
}

/** Refuses, at start-up, integrator webhook URLs the SSRF guard would refuse at delivery. */
function checkIntegratorWebhooks(integrators: Integrator[], allowPrivateNetworks: boolean): void {
  const problems: string[] = [];
  for (const integrator of integrators) {
    if (!integrator.webhook_url) continue;
    try {
      checkWebhookUrl(integrator.webhook_url, allowPrivateNetworks);
    } catch (err) {
      if (!(err instanceof WebhookUrlRefusedError)) throw err;
      problems.push(
        `integrator ${integrator.id}: webhook_url ${integrator.webhook_url} is refused (${err.message}); set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow it`,
      );
    }
    if (!integrator.webhook_secret) problems.push(`integrator ${integrator.id}: webhook_url needs a webhook_secret`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
}

/**
 * Production refuses every value this repository publishes (src/config/published-values.ts), each
 * named by its variable or file entry; the demo integrator only in a demo, where no provider is live.
 */
function checkPublishedValues(env: Env, integrators: Integrator[], providerEnv: ProvidersEnv, providers: ProviderResolutions): void {
  if (env.NODE_ENV !== 'production') return;
  const demo = env.SANDBOX_IN_PRODUCTION && Object.values(providers).every((resolution) => resolution.mode !== 'live');
  const problems = [
    ...publishedEnvProblems(env, providerEnv).map(({ variable, message }) => `${variable}: ${message}`),
    ...(env.ONRAMP_INTEGRATORS_FILE ? publishedIntegratorProblems(integrators, demo) : []),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
}

/** RANKING_CUSTOMER_*: the key is required in production; elsewhere the published development key stands in. */
function returningCustomersConfig(env: Env): AppConfig['returningCustomers'] {
  if (env.NODE_ENV === 'production' && !env.RANKING_CUSTOMER_KEY) {
    throw new ConfigError([
      'RANKING_CUSTOMER_KEY: required in production, so that returning customers are kept under a private keyed hash: 32 or more random characters (openssl rand -hex 32)',
    ]);
  }
  return {
    key: env.RANKING_CUSTOMER_KEY ?? DEFAULT_DEV_RANKING_CUSTOMER_KEY,
    retentionMs: env.RANKING_CUSTOMER_RETENTION_DAYS * 86_400_000,
  };
}

export function buildConfig(env: Env): AppConfig {
  const production = env.NODE_ENV === 'production';
  const integrators = integratorsFrom(env);
  checkIntegratorWebhooks(integrators, env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? !production);
  const publicBaseUrl = (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const simulatorUrl = (env.SANDBOX_URL ?? (production ? undefined : `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`))?.replace(/\/+$/, '');
  const providerEnv = providersEnv(env);
  const providers = resolveProviders(providerEnv, {
    simulatorUrl,
    simulatorPublicUrl: env.SANDBOX_PUBLIC_URL?.replace(/\/+$/, ''),
    brokerPublicUrl: publicBaseUrl,
  });
  checkPublishedValues(env, integrators, providerEnv, providers);
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicBaseUrl,
    logLevel: env.LOG_LEVEL,
    temporal: {
      address: env.TEMPORAL_ADDRESS,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: env.TEMPORAL_TASK_QUEUE,
      ...temporalSecurity(env),
      ...(env.WORKFLOW_BUNDLE_PATH ? { workflowBundlePath: env.WORKFLOW_BUNDLE_PATH } : {}),
    },
    integrators,
    operators: operatorsFrom(env, integrators),
    offerTtlSeconds: env.OFFER_TTL_SECONDS,
    offersProviderTimeoutMs: env.OFFERS_PROVIDER_TIMEOUT_MS,
    offersDeadline: { multiplier: env.OFFERS_DEADLINE_MULTIPLIER, floorMs: env.OFFERS_DEADLINE_FLOOR_MS },
    providerBreaker: {
      failures: env.PROVIDER_BREAKER_FAILURES,
      failureRate: env.PROVIDER_BREAKER_FAILURE_RATE,
      window: env.PROVIDER_BREAKER_WINDOW,
      openMs: env.PROVIDER_BREAKER_OPEN_MS,
      probes: env.PROVIDER_BREAKER_PROBES,
    },
    providerQuoteConcurrency: env.PROVIDER_QUOTE_CONCURRENCY,
    providerQuoteIntegratorShare: env.PROVIDER_QUOTE_INTEGRATOR_SHARE,
    catalogueTtlMs: env.CATALOGUE_TTL_SECONDS * 1000,
    catalogueTimeoutMs: env.CATALOGUE_TIMEOUT_MS,
    rateLimit: { limit: env.RATE_LIMIT_REQUESTS, windowMs: env.RATE_LIMIT_WINDOW_SECONDS * 1000 },
    integratorAdmission: { concurrency: env.API_INTEGRATOR_CONCURRENCY, queued: env.API_INTEGRATOR_QUEUE },
    ipRateLimit: { limit: env.RATE_LIMIT_IP_REQUESTS, windowMs: env.RATE_LIMIT_IP_WINDOW_SECONDS * 1000 },
    trustProxy: env.TRUST_PROXY ?? [],
    orderCreateTimeoutMs: env.ORDER_CREATE_TIMEOUT_SECONDS * 1000,
    orderSearchConcurrency: env.ORDER_SEARCH_CONCURRENCY,
    orderSearchBudget:
      env.ORDER_SEARCH_CALLS_PER_SECOND === 0
        ? undefined
        : { perSecond: env.ORDER_SEARCH_CALLS_PER_SECOND, burst: env.ORDER_SEARCH_CALLS_BURST },
    orderExportLimits: {
      pageSize: 500,
      perIntegrator: 1,
      maxRows: env.ORDER_EXPORT_MAX_ROWS,
      maxDurationMs: env.ORDER_EXPORT_MAX_SECONDS * 1000,
      maxWindowMs: env.ORDER_EXPORT_MAX_DAYS * 86_400_000,
      settleMs: env.ORDER_CREATE_TIMEOUT_SECONDS * 1000 + 60_000,
      total: env.ORDER_EXPORT_CONCURRENCY,
    },
    reviews: { keepMs: env.REVIEW_KEEP_DAYS * 86_400_000 },
    dailySummaryLimits: {
      maxOrders: env.DAILY_SUMMARY_MAX_ORDERS,
      maxDurationMs: env.DAILY_SUMMARY_MAX_SECONDS * 1000,
      // As an export's window: an order shows in visibility once its start returns, within the create timeout.
      settleMs: env.ORDER_CREATE_TIMEOUT_SECONDS * 1000 + 60_000,
      pageSize: 500,
      concurrency: 2,
    },
    reconciliation: {
      schedules: env.RECONCILIATION_SCHEDULES,
      at: { hour: Number(env.RECONCILIATION_AT.slice(0, 2)), minute: Number(env.RECONCILIATION_AT.slice(3)) },
      timings: {
        // A provider transaction comes up to the payment window after its order's request.
        marginMs: env.ORDER_PAYMENT_WINDOW_SECONDS * 1000,
        settleMs: env.RECONCILIATION_SETTLE_MINUTES * 60_000,
        keepReportMs: env.RECONCILIATION_KEEP_DAYS * 86_400_000,
      },
    },
    orderIdReservation: { holdMs: env.ORDER_ID_RESERVATION_DAYS * 24 * 3_600_000 },
    orderTimings: {
      pollInitialMs: env.ORDER_POLL_INITIAL_SECONDS * 1000,
      pollMaxMs: Math.max(env.ORDER_POLL_MAX_SECONDS, env.ORDER_POLL_INITIAL_SECONDS) * 1000,
      paymentWindowMs: env.ORDER_PAYMENT_WINDOW_SECONDS * 1000,
      settledGraceMs: env.ORDER_SETTLED_GRACE_SECONDS * 1000,
      reviewAfterMs: env.ORDER_REVIEW_AFTER_SECONDS * 1000,
      webhookRetryDelaysMs: env.WEBHOOK_RETRY_SCHEDULE_SECONDS?.map((s) => s * 1000) ?? [...DEFAULT_WEBHOOK_RETRY_DELAYS_MS],
      // The attempt's HTTP timeout plus room for signing and logging.
      webhookAttemptTimeoutMs: env.WEBHOOK_TIMEOUT_SECONDS * 1000 + 5_000,
    },
    webhooks: {
      allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? !production,
      timeoutMs: env.WEBHOOK_TIMEOUT_SECONDS * 1000,
    },
    worker: { activitySlots: env.WORKER_ACTIVITY_SLOTS, webhookAttempts: webhookAttemptLimits(env) },
    encryption: encryptionConfig(env),
    redisUrl: env.REDIS_URL,
    ranking: {
      halfLifeMs: env.RANKING_HALF_LIFE_HOURS * 3_600_000,
      priorWeight: env.RANKING_PRIOR_WEIGHT,
      returningBoost: env.RANKING_RETURNING_BOOST,
      refreshMs: env.RANKING_REFRESH_MS,
    },
    simulatorUrl,
    providers,
    providerEnv,
    metrics: {
      enabled: env.METRICS_ENABLED,
      ...(env.METRICS_TOKEN ? { token: env.METRICS_TOKEN } : {}),
      host: env.METRICS_HOST,
      onApiPort: env.METRICS_ENABLED && env.API_METRICS_PORT === undefined && (env.METRICS_TOKEN !== undefined || !production),
      ...(env.METRICS_ENABLED && env.API_METRICS_PORT ? { apiPort: env.API_METRICS_PORT } : {}),
      ...(env.METRICS_ENABLED && env.WORKER_METRICS_PORT ? { workerPort: env.WORKER_METRICS_PORT } : {}),
      ...(env.METRICS_ENABLED && env.TEMPORAL_SDK_METRICS_PORT ? { temporalSdkPort: env.TEMPORAL_SDK_METRICS_PORT } : {}),
      openOrdersIntervalMs: env.OPEN_ORDERS_METRICS_INTERVAL_SECONDS * 1000,
    },
    returningCustomers: returningCustomersConfig(env),
  };
}

/** Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost): reachable from this machine only. */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  const v4 = isIP(bare) === 4 ? bare : /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1];
  return v4 !== undefined && isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * What the API's or the worker's start logs as a warning about its metrics: in production, a
 * metrics port (API_METRICS_PORT, WORKER_METRICS_PORT) on a METRICS_HOST other than loopback with
 * no METRICS_TOKEN serves the metrics to anyone who can reach it. Not refused: docker-compose binds
 * 0.0.0.0 without a token on its private network, where that is intended.
 */
export function openMetricsWarnings(config: AppConfig, process: 'api' | 'worker'): string[] {
  const { metrics } = config;
  const [variable, port] = process === 'api' ? ['API_METRICS_PORT', metrics.apiPort] : ['WORKER_METRICS_PORT', metrics.workerPort];
  if (config.env !== 'production' || port === undefined || metrics.token !== undefined || isLoopbackHost(metrics.host)) return [];
  return [
    `metrics open to the network: ${variable} ${port} on METRICS_HOST ${metrics.host} without METRICS_TOKEN; ` +
      'set METRICS_TOKEN unless only a private network reaches it',
  ];
}

/** The same configuration for a broker and a simulator host at other addresses (a local stack on its own ports). */
export function withEndpoints(config: AppConfig, endpoints: { publicBaseUrl: string; simulatorUrl: string }): AppConfig {
  const { publicBaseUrl, simulatorUrl } = endpoints;
  return {
    ...config,
    publicBaseUrl,
    simulatorUrl,
    providers: resolveProviders(config.providerEnv, { simulatorUrl, brokerPublicUrl: publicBaseUrl }),
  };
}

/** Reads and validates the environment; a bad value throws, naming the variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  return buildConfig(parseEnv(source));
}
