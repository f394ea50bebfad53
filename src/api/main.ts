import { loadConfig, openMetricsWarnings } from '../config';
import { createLogger } from '../logging';
import { createTemporalClient } from '../temporal/connection';
import { encryptingDataConverter } from '../temporal/codec';
import { runMain } from '../process';
import { connectRedis } from '../redis/connection';
import { logDisabledProviders } from '../providers/registry';
import { startMetricsServer } from '../metrics/server';
import { claimRetentionAtStart } from '../orders/claim-retention';
import { claimLifetimeMs } from '../orders/claims';
import { ApiServer } from './http-server';
import { buildApi } from './server';

runMain('api', async (logger) => {
  const config = loadConfig();
  logger.level = config.logLevel;
  logDisabledProviders(config, logger);
  for (const warning of openMetricsWarnings(config, 'api')) logger.warn(warning);
  const client = createTemporalClient(config.temporal, encryptingDataConverter(config.encryption.keys, config.encryption));
  const apiLogger = createLogger(config.logLevel, 'api');
  // Refuses to start when the namespace's retention cannot keep what provider order claims rely on.
  await claimRetentionAtStart(client, claimLifetimeMs(config.orderTimings), logger);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, apiLogger) : undefined;
  const app = buildApi(config, client, apiLogger, { redis: redis?.client, warmCatalogues: true });
  const { server } = new ApiServer().serve(app);
  server.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  logger.info({ url: `http://${config.host}:${config.port}`, temporal: config.temporal.address }, 'API listening');
  const { metrics } = config;
  const metricsServer = metrics.apiPort
    ? await startMetricsServer({ host: metrics.host, port: metrics.apiPort, token: metrics.token })
    : undefined;
  if (metricsServer) logger.info({ url: `${metricsServer.url}/metrics` }, 'API metrics listening');
  else if (metrics.onApiPort) logger.info({ url: `http://${config.host}:${config.port}/metrics` }, 'API metrics served on the API port');
  else if (!metrics.enabled) logger.info('metrics off (METRICS_ENABLED=false): none recorded or served');
  else logger.warn('metrics not served: in production set METRICS_TOKEN or API_METRICS_PORT');
  return async () => {
    await metricsServer?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await redis?.close();
    await client.connection.close();
  };
});
