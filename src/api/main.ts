import { loadConfig } from '../config';
import { createLogger } from '../logging';
import { createTemporalClient } from '../temporal/connection';
import { encryptingDataConverter } from '../temporal/codec';
import { runMain } from '../process';
import { connectRedis } from '../redis/connection';
import { logDisabledProviders } from '../providers/registry';
import { buildApi } from './server';

runMain('api', async (logger) => {
  const config = loadConfig();
  logger.level = config.logLevel;
  logDisabledProviders(config, logger);
  const client = createTemporalClient(config.temporal, encryptingDataConverter(config.encryption.keys));
  const apiLogger = createLogger(config.logLevel, 'api');
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, apiLogger) : undefined;
  const app = buildApi(config, client, apiLogger, { redis: redis?.client });
  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  logger.info({ url: `http://${config.host}:${config.port}`, temporal: config.temporal.address }, 'API listening');
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await redis?.close();
    await client.connection.close();
  };
});
