import type { Client } from '@temporalio/client';
import { CatalogueService } from '../catalogue/service';
import type { AppConfig } from '../config';
import { IntegratorDirectory } from '../config/integrators';
import { currencyDictionary } from '../domain/currencies';
import type { Logger } from '../logging';
import { OffersService } from '../offers/service';
import { MemoryOfferStore } from '../offers/store';
import { OrderService } from '../orders/service';
import { createProviderRegistry, type ProviderRegistry } from '../providers/registry';
import { temporalReachable } from '../temporal/connection';
import { createApp } from './app';

export interface BuildApiOverrides {
  /** Providers to use instead of those the configuration enables (benchmarks, tests). */
  providers?: ProviderRegistry;
}

/** Wires the API from configuration: the composition root shared by main, dev and tests. */
export function buildApi(config: AppConfig, client: Client, logger: Logger, overrides: BuildApiOverrides = {}) {
  const providers = overrides.providers ?? createProviderRegistry(config);
  const offerStore = new MemoryOfferStore();
  const catalogues = new CatalogueService({
    providers,
    ttlMs: config.catalogueTtlMs,
    timeoutMs: config.offersProviderTimeoutMs,
    logger,
  });
  return createApp({
    catalogues,
    logger,
    integrators: new IntegratorDirectory(config.integrators),
    currencies: currencyDictionary,
    providers,
    offerStore,
    offers: new OffersService({
      providers,
      catalogues,
      store: offerStore,
      offerTtlSeconds: config.offerTtlSeconds,
      providerTimeoutMs: config.offersProviderTimeoutMs,
    }),
    orders: new OrderService({
      client,
      taskQueue: config.temporal.taskQueue,
      createTimeoutMs: config.orderCreateTimeoutMs,
      rpcTimeoutMs: Math.min(5000, config.orderCreateTimeoutMs),
    }),
    timings: config.orderTimings,
    ready: async () => ({ temporal: await temporalReachable(client) }),
  });
}
