import { ConfigError } from './config';
import { createLogger, type Logger } from './logging';
import { startTracing, stopTracing } from './tracing';

/**
 * Runs a process's main function: a configuration error stops it with a message naming the variable;
 * SIGINT/SIGTERM call the returned shutdown function once.
 */
export function runMain(name: string, main: (logger: Logger) => Promise<() => Promise<void>>): void {
  const logger = createLogger('info', name);
  Promise.resolve()
    .then(() => startProcessTracing(name, logger))
    .then(() => main(logger))
    .then(
      (shutdown) => {
        let stopping = false;
        const stop = (signal: string) => {
          if (stopping) return;
          stopping = true;
          logger.info({ signal }, 'shutting down');
          shutdown()
            .then(stopTracing)
            .then(
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

/** Traces of this process, when OTEL_* asks for them (src/tracing): service `onramp-<name>` unless OTEL_SERVICE_NAME says otherwise. */
function startProcessTracing(name: string, logger: Logger): void {
  let started: boolean;
  try {
    started = startTracing({ serviceName: `onramp-${name}` });
  } catch (err) {
    throw new ConfigError([(err as Error).message]);
  }
  if (started) logger.info({ exporter: process.env.OTEL_TRACES_EXPORTER ?? 'otlp' }, 'tracing on');
}
