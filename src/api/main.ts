import { loadConfig } from '../config';
import { createLogger } from '../logging';
import { createTemporalClient } from '../temporal/connection';
import { runMain } from '../process';
import { buildApi } from './server';

runMain('api', async (logger) => {
  const config = loadConfig();
  logger.level = config.logLevel;
  const client = createTemporalClient(config.temporal);
  const app = buildApi(config, client, createLogger(config.logLevel, 'api'));
  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  logger.info({ url: `http://${config.host}:${config.port}`, temporal: config.temporal.address }, 'API listening');
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await client.connection.close();
  };
});
