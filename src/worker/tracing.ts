import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  type OpenTelemetrySinks,
} from '@temporalio/interceptors-opentelemetry';
import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import { activeTracing } from '../tracing';

/**
 * The OpenTelemetry workflow interceptors, in every workflow bundle (./build.ts, `npm run build`,
 * the tests'): in a workflow whose caller put a span context in the headers, each run, update,
 * signal and activity schedule is a span, handed to the worker through the `exporter` sink; any
 * other workflow does not load them.
 * They add headers to commands and no command of their own, so histories replay as before.
 */
export const WORKFLOW_INTERCEPTOR_MODULES = [require.resolve('../../workflows/tracing-interceptors')];

/** The activity interceptors while tracing is on: each activity a span under its schedule's, log lines with its ids. */
export function tracingWorkerInterceptors(): Pick<WorkerInterceptors, 'activity'> {
  if (!activeTracing()) return {};
  return {
    activity: [
      (ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) }),
    ],
  };
}

/**
 * The sink the workflow interceptors export their spans through: into this process's span processor
 * while tracing is on, nowhere otherwise. Not called while a history replays (the span was exported
 * when it was lived).
 */
export function workflowSpanSinks(): InjectedSinks<OpenTelemetrySinks> {
  const tracing = activeTracing();
  if (tracing) return { exporter: makeWorkflowExporter(tracing.processor, tracing.resource) };
  return { exporter: { export: { fn: () => undefined } } };
}
