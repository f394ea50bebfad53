import { Runtime, type LogLevel, type LogMetadata, type Logger as SdkLogger } from '@temporalio/worker';
import type { Logger } from '../logging';

/**
 * The Temporal SDK's log lines (its own, and those of activities and workflows through their `log`)
 * written by the process's pino logger, so `LOG_LEVEL` and the JSON format apply to them too.
 */
export function sdkLogger(logger: Logger): SdkLogger {
  const sdk = logger.child({ component: 'temporal-sdk' });
  const write = (level: LogLevel, message: string, meta?: LogMetadata) => {
    const method =
      level === 'TRACE' ? 'trace' : level === 'DEBUG' ? 'debug' : level === 'INFO' ? 'info' : level === 'WARN' ? 'warn' : 'error';
    if (meta === undefined) sdk[method](message);
    else sdk[method](meta, message);
  };
  return {
    log: write,
    trace: (message, meta) => write('TRACE', message, meta),
    debug: (message, meta) => write('DEBUG', message, meta),
    info: (message, meta) => write('INFO', message, meta),
    warn: (message, meta) => write('WARN', message, meta),
    error: (message, meta) => write('ERROR', message, meta),
  };
}

/**
 * Installs the Temporal SDK runtime, once, before the worker's first connection: its log lines go
 * to `logger`, and with `metrics` its own Prometheus exporter listens on `host:port` (task
 * latencies, slots, pollers, sticky cache: `temporal_*` series at `/metrics`; the SDK's Rust server,
 * so it has its own port and no token). Returns the exporter's URL.
 */
export function installTemporalSdkRuntime(options: { logger: SdkLogger; metrics?: { host: string; port: number } }): string | undefined {
  const { metrics } = options;
  const bindAddress = metrics ? `${metrics.host.includes(':') ? `[${metrics.host}]` : metrics.host}:${metrics.port}` : undefined;
  Runtime.install({
    logger: options.logger,
    ...(bindAddress
      ? {
          telemetryOptions: {
            metrics: { prometheus: { bindAddress, countersTotalSuffix: true, unitSuffix: true, useSecondsForDurations: true } },
          },
        }
      : {}),
  });
  return bindAddress ? `http://${bindAddress}/metrics` : undefined;
}
