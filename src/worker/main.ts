import { loadConfig } from '../config';
import { runMain } from '../process';
import { logDisabledProviders } from '../providers/registry';
import { connectWorker } from './build';

runMain('worker', async (logger) => {
  const config = loadConfig();
  logger.level = config.logLevel;
  logDisabledProviders(config, logger);
  const { worker, close } = await connectWorker(config, logger);
  logger.info({ temporal: config.temporal.address, taskQueue: config.temporal.taskQueue }, 'worker polling');
  const running = worker.run();
  return async () => {
    worker.shutdown();
    await running;
    await close();
  };
});
