/**
 * The workflow's OpenTelemetry interceptors, loaded by ./tracing-interceptors.ts for a traced
 * workflow only: those of @temporalio/interceptors-opentelemetry, except activity scheduling. Theirs wraps the
 * activity's promise in async functions, so the workflow resumes a few microtasks later than without
 * it, which reorders its commands against the webhook delivery loop (histories recorded without it
 * then fail to replay). Here the span's context rides in the headers and the workflow gets the very
 * promise the SDK returned: the schedule span ends beside it, not in its way.
 */
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { headersWithContext } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import type {
  ActivityInput,
  LocalActivityInput,
  Next,
  WorkflowInterceptorsFactory,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

class OutboundTracing extends OpenTelemetryOutboundInterceptor {
  override scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>): Promise<unknown> {
    return this.traced(`StartActivity:${input.activityType}`, input, next);
  }

  override scheduleLocalActivity(
    input: LocalActivityInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>,
  ): Promise<unknown> {
    return this.traced(`StartActivity:${input.activityType}`, input, next);
  }

  /** The schedule as a span whose context rides in the headers; the workflow gets the SDK's own promise. */
  private traced<I extends ActivityInput | LocalActivityInput>(
    name: string,
    input: I,
    next: (input: I) => Promise<unknown>,
  ): Promise<unknown> {
    const span = this.tracer.startSpan(name);
    const headers = context.with(trace.setSpan(context.active(), span), () => headersWithContext(input.headers));
    const result = next({ ...input, headers });
    result.then(
      () => span.end(),
      (err: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
        span.end();
      },
    );
    return result;
  }
}

export const otelInterceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [new OpenTelemetryInboundInterceptor()],
  outbound: [new OutboundTracing()],
  internals: [new OpenTelemetryInternalsInterceptor()],
});
