import { ConfigError } from './config';
import { createLogger, type Logger } from './logging';

/**
 * Runs a process's main function: a configuration error stops it with a message naming the variable;
 * SIGINT/SIGTERM call the returned shutdown function once.
 */
export function runMain(name: string, main: (logger: Logger) => Promise<() => Promise<void>>): void {
  const logger = createLogger('info', name);
  main(logger).then(
    (shutdown) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'shutting down');
        shutdown().then(
          () => process.exit(0),
          (err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.once('SIGINT', stop).once('SIGTERM', stop);
    },
    (err: unknown) => {
      if (err instanceof ConfigError) {
        process.stderr.write(`${name}: ${err.message}\n`);
      } else {
        logger.fatal({ err }, 'start-up failed');
      }
      process.exit(1);
    },
  );
}
