import type { WorkflowClientInterceptor } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import { activeTracing } from '../tracing';

/**
 * A Temporal client's interceptors while tracing is on (src/tracing): each start, update-with-start,
 * signal and describe is a client span whose context rides in the call's headers to the workflow.
 * Off: none, and the client is as it was.
 */
export function tracingClientInterceptors(): { workflow: WorkflowClientInterceptor[] } | undefined {
  return activeTracing() ? { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } : undefined;
}
