import { loadConfig, openMetricsWarnings } from '../config';
import { startMetricsServer } from '../metrics/server';
import { runMain } from '../process';
import { logDisabledProviders } from '../providers/registry';
import { encryptingDataConverter } from '../temporal/codec';
import { createTemporalClient } from '../temporal/connection';
import { connectWorker } from './build';
import { OpenOrdersCounter } from './open-orders';
import { installTemporalSdkRuntime, sdkLogger } from './telemetry';

runMain('worker', async (logger) => {
  const config = loadConfig();
  logger.level = config.logLevel;
  logDisabledProviders(config, logger);
  for (const warning of openMetricsWarnings(config, 'worker')) logger.warn(warning);
  const { metrics } = config;
  // The SDK's runtime takes its logger and exporter only before the first connection.
  const sdkMetricsUrl = installTemporalSdkRuntime({
    logger: sdkLogger(logger),
    ...(metrics.temporalSdkPort ? { metrics: { host: metrics.host, port: metrics.temporalSdkPort } } : {}),
  });
  if (sdkMetricsUrl) logger.info({ url: sdkMetricsUrl }, 'Temporal SDK metrics listening');
  const metricsServer = metrics.workerPort
    ? await startMetricsServer({ host: metrics.host, port: metrics.workerPort, token: metrics.token })
    : undefined;
  if (metricsServer) logger.info({ url: `${metricsServer.url}/metrics` }, 'worker metrics listening');
  else if (!metrics.enabled) logger.info('metrics off (METRICS_ENABLED=false): none recorded or served');
  const { worker, close } = await connectWorker(config, logger);
  // Open orders are counted by a worker that serves metrics, unless OPEN_ORDERS_METRICS_INTERVAL_SECONDS=0.
  const client =
    metricsServer && metrics.openOrdersIntervalMs > 0
      ? createTemporalClient(config.temporal, encryptingDataConverter(config.encryption.keys, config.encryption))
      : undefined;
  const openOrders = client ? new OpenOrdersCounter({ client, logger, intervalMs: metrics.openOrdersIntervalMs }) : undefined;
  openOrders?.start();
  logger.info({ temporal: config.temporal.address, taskQueue: config.temporal.taskQueue }, 'worker polling');
  const running = worker.run();
  return async () => {
    worker.shutdown();
    await running;
    await openOrders?.stop();
    await client?.connection.close();
    await metricsServer?.close();
    await close();
  };
});
