import { Runtime, type Logger } from '@temporalio/worker';

/**
 * Installs the Temporal SDK runtime with its own Prometheus exporter on `host:port` (task latencies,
 * slots, pollers, sticky cache: `temporal_*` series at `/metrics`). Must run before the worker's
 * first connection; the exporter is the SDK's (Rust) server, so it has its own port and no token.
 */
export function installTemporalSdkMetrics(host: string, port: number, logger?: Logger): string {
  const bindAddress = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  Runtime.install({
    ...(logger ? { logger } : {}),
    telemetryOptions: {
      metrics: {
        prometheus: { bindAddress, countersTotalSuffix: true, unitSuffix: true, useSecondsForDurations: true },
      },
    },
  });
  return `http://${bindAddress}/metrics`;
}
