import { integratorAdmission } from './integrator-admission';
import type { Client } from '@temporalio/client';
import { CatalogueService } from '../catalogue/service';
import { SellCatalogueService } from '../catalogue/sell-service';
import type { AppConfig } from '../config';
import { IntegratorDirectory } from '../config/integrators';
import { OperatorDirectory } from '../config/operators';
import { ReviewDesk } from '../operators/reviews';
import { ReviewTeller } from '../temporal/reviews';
import { currencyDictionary } from '../domain/currencies';
import type { Logger } from '../logging';
import { OffersService } from '../offers/service';
import { SellOffersService } from '../offers/sell-service';
import { createOfferStore } from '../offers/store-factory';
import { claimLifetimeMs } from '../orders/claims';
import { OrderSearch } from '../orders/search';
import { DailySummaries, namespaceRetention } from '../operators/daily-summary';
import { PROVIDER_CODES } from '../providers/manifest';
import { OrderService, zeroTemporalClientErrors } from '../orders/service';
import { setMetricsRecording } from '../metrics/metrics';
import { createProviderRegistry, type ProviderRegistry } from '../providers/registry';
import { createProviderBreakers } from '../ranking/breaker-factory';
import { Ranking } from '../ranking/ranking';
import type { ReturningCustomers } from '../ranking/returning-customers';
import { RedisSharedValues } from '../providers/shared-values';
import type { RedisClient } from '../redis/connection';
import { temporalReachable } from '../temporal/connection';
import { EncryptionCodec } from '../temporal/codec';
import { createApp } from './app';
import { createIpRateLimiter } from './ip-rate-limit';
import { createRateLimiter } from './rate-limit';
import { sharedProbe } from './shared-probe';
import { MemorySignalledEvents, RedisSignalledEvents } from './signalled-events';

/** How long /readyz reuses its answer about Temporal (docs/security.md, "The edges"). */
export const READY_PROBE_TTL_MS = 1000;

export interface BuildApiOverrides {
  /** Providers to use instead of those the configuration enables (benchmarks, tests). */
  providers?: ProviderRegistry;
  /** A connected Redis client (REDIS_URL): the shared offer store, rate-limit counters and signalled provider events. */
  redis?: RedisClient;
  /**
   * Load every provider's catalogue now, in the background (the API process at start): the first
   * offers requests then find them cached rather than waiting for them within their quote deadline.
   */
  warmCatalogues?: boolean;
  /** false: the hot GET routes through Express's router too (src/api/direct-routes.ts; tests compare both). */
  directRoutes?: boolean;
  /**
   * The returning-customer store to use instead of the one made from the configuration (in Redis
   * with `redis`, else in memory): one shared with an outcome indexer in the same process.
   */
  returningCustomers?: ReturningCustomers;
  /** The ranking's parts, shared with a worker in the same process (the dev stack); made from the configuration otherwise. */
  ranking?: Ranking;
  /**
   * What the operator API takes for now (whether a day has ended, for its daily summary): the
   * end-to-end tests summarize the day they made their orders in as if it had ended. Date.now otherwise.
   */
  operatorClock?: () => number;
}

/** Wires the API from configuration: the composition root shared by main, dev and tests. */
export function buildApi(config: AppConfig, client: Client, logger: Logger, overrides: BuildApiOverrides = {}) {
  const { redis } = overrides;
  // Process-wide (METRICS_ENABLED): every metric of the API records, or none does.
  setMetricsRecording(config.metrics.enabled);
  zeroTemporalClientErrors();
  const providers = overrides.providers ?? createProviderRegistry(config, redis ? new RedisSharedValues(redis) : undefined);
  const offerStore = createOfferStore(redis, { logger });
  const breakers = createProviderBreakers(config.providerBreaker, {
    providers: providers.all().map((adapter) => adapter.info.code),
    createTimeoutMs: config.orderCreateTimeoutMs,
    redis,
    logger,
  });
  const ranking = overrides.ranking ?? new Ranking(config, { redis, logger, customers: overrides.returningCustomers });
  ranking.start(client);
  const temporalReady = sharedProbe(() => temporalReachable(client), READY_PROBE_TTL_MS);
  const catalogues = new CatalogueService({
    providers,
    currencies: currencyDictionary,
    ttlMs: config.catalogueTtlMs,
    timeoutMs: config.catalogueTimeoutMs,
    logger,
  });
  const sellCatalogues = new SellCatalogueService({
    providers,
    ttlMs: config.catalogueTtlMs,
    timeoutMs: config.catalogueTimeoutMs,
    logger,
  });
  // Not waited for: each failure is logged by the service, and that provider is loaded on its first request.
  if (overrides.warmCatalogues) {
    catalogues.warm().catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'warming the provider catalogues failed'));
    sellCatalogues
      .warm()
      .catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'warming the provider sell catalogues failed'));
  }
  // Both sides' fan-outs read the same settings; each keeps its own deadlines, slow providers and quote cap per provider.
  const fanout = {
    providers,
    store: offerStore,
    offerTtlSeconds: config.offerTtlSeconds,
    providerTimeoutMs: config.offersProviderTimeoutMs,
    deadlineMultiplier: config.offersDeadline.multiplier,
    deadlineFloorMs: config.offersDeadline.floorMs,
    quoteConcurrency: config.providerQuoteConcurrency,
    quoteIntegratorShare: config.providerQuoteIntegratorShare,
  };
  const orderSearch = new OrderSearch({
    client,
    hashKeys: config.encryption.keys,
    concurrencyPerIntegrator: config.orderSearchConcurrency,
    budget: config.orderSearchBudget,
    logger,
  });
  const integrators = new IntegratorDirectory(config.integrators);
  return createApp({
    catalogues,
    // RATE_LIMIT_REQUESTS=0 turns rate limiting off: no limiter is mounted.
    rateLimiter:
      config.rateLimit.limit > 0
        ? createRateLimiter({ limit: config.rateLimit.limit, windowMs: config.rateLimit.windowMs, redis, logger })
        : undefined,
    admission: config.integratorAdmission.concurrency > 0 ? integratorAdmission(config.integratorAdmission) : undefined,
    ipRateLimiter:
      config.ipRateLimit.limit > 0
        ? createIpRateLimiter({ limit: config.ipRateLimit.limit, windowMs: config.ipRateLimit.windowMs, redis, logger })
        : undefined,
    trustProxy: config.trustProxy,
    logger,
    integrators,
    ...(config.operators.length > 0
      ? {
          operator: {
            directory: new OperatorDirectory(config.operators),
            reviews: new ReviewDesk({
              client,
              timeoutMs: Math.min(5000, config.orderCreateTimeoutMs),
              teller: new ReviewTeller({ client, taskQueue: config.temporal.taskQueue, keepMs: config.reviews.keepMs }),
            }),
            providers,
            integrators,
            webhookDelivery: config.webhooks,
            summaries: {
              summaries: new DailySummaries({
                records: orderSearch,
                providerCodes: PROVIDER_CODES,
                retentionMs: namespaceRetention(client),
                currencies: currencyDictionary,
                limits: config.dailySummaryLimits,
                ...(overrides.operatorClock ? { now: overrides.operatorClock } : {}),
              }),
              currencies: currencyDictionary,
            },
          },
        }
      : {}),
    currencies: currencyDictionary,
    providers,
    offerStore,
    returningCustomers: ranking.customers,
    ranking: ranking.offers,
    offers: new OffersService({ ...fanout, catalogues, breakers }),
    sellCatalogues,
    // Not the buy orders' breakers: they count buy order creations, and say nothing yet of a provider's sell orders.
    sellOffers: new SellOffersService({ ...fanout, catalogues: sellCatalogues }),
    orders: new OrderService({
      client,
      taskQueue: config.temporal.taskQueue,
      createTimeoutMs: config.orderCreateTimeoutMs,
      rpcTimeoutMs: Math.min(5000, config.orderCreateTimeoutMs),
      searchHashKey: config.encryption.keys[0],
      claimLifetimeMs: claimLifetimeMs(config.orderTimings),
      orderIdReservation: config.orderIdReservation,
      breakers,
      outcomes: ranking.recorder,
    }),
    orderSearch,
    orderExportLimits: config.orderExportLimits,
    webhookDelivery: config.webhooks,
    signalledEvents: redis ? new RedisSignalledEvents(redis) : new MemorySignalledEvents(),
    timings: config.orderTimings,
    ...(config.encryption.codecEndpoint
      ? { codecEndpoint: { ...config.encryption.codecEndpoint, codec: new EncryptionCodec(config.encryption.keys, { acceptClear: true }) } }
      : {}),
    loopbackHttpUrls: config.env !== 'production',
    recordHttpMetrics: config.metrics.enabled,
    ...(config.metrics.onApiPort ? { metricsEndpoint: { token: config.metrics.token } } : {}),
    ready: async () => ({ temporal: await temporalReady(), ...(redis ? { redis: redis.isReady } : {}) }),
    directRoutes: overrides.directRoutes,
  });
}
