/**
 * The workflow interceptors in every bundle (src/worker/build.ts WORKFLOW_BUNDLE_OPTIONS). A workflow
 * whose start, signal or update carries a caller's span context (the tracing client interceptor puts
 * it in TRACE_HEADER while OTEL_* is set) loads the OpenTelemetry interceptors (./tracing-otel.ts)
 * and is traced from then on; any other passes straight through. Loading them costs each new
 * workflow the evaluation of the OpenTelemetry SDK's modules, about a third of an order's worker CPU
 * (bench/README.md, bench:orders), which an untraced order no longer pays.
 */
import type {
  Headers,
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptors,
  WorkflowInterceptorsFactory,
  WorkflowInternalsInterceptor,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import type * as Otel from './tracing-otel';

/** @temporalio/interceptors-opentelemetry's TRACE_HEADER (test/unit/workflows/tracing-interceptors.test.ts holds them equal). */
export const TRACE_HEADER = '_tracer-data';

type Inbound = Required<WorkflowInboundCallsInterceptor>;
type Outbound = Required<WorkflowOutboundCallsInterceptor>;

export const interceptors: WorkflowInterceptorsFactory = () => {
  let otel: { inbound: Inbound; outbound: Outbound; internals: WorkflowInternalsInterceptor } | undefined;
  /** The OpenTelemetry interceptors, loaded on the first call that carries a span context. */
  const tracing = (headers: Headers) => {
    if (otel === undefined && TRACE_HEADER in headers) {
      // Required here, not imported: the module and the OpenTelemetry SDK behind it are evaluated only now.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const loaded = (require('./tracing-otel') as typeof Otel).otelInterceptors() as Required<WorkflowInterceptors>;
      otel = { inbound: loaded.inbound[0] as Inbound, outbound: loaded.outbound[0] as Outbound, internals: loaded.internals[0]! };
    }
    return otel;
  };

  /** An inbound call: traced when this call or an earlier one carried a span context. */
  function inbound<K extends 'execute' | 'handleSignal' | 'handleUpdate'>(key: K) {
    return ((input: { headers: Headers }, next: (input: unknown) => unknown) => {
      const traced = tracing(input.headers)?.inbound;
      const call = traced?.[key] as ((i: unknown, n: unknown) => unknown) | undefined;
      return call ? call.call(traced, input, next) : next(input);
    }) as unknown as Inbound[K];
  }
  /** An outbound call, or a read-only one (query, update validation): traced only when the workflow already is. */
  function outbound<K extends keyof Outbound>(key: K) {
    return ((input: unknown, next: (input: unknown) => unknown) => {
      const traced = otel?.outbound;
      const call = traced?.[key] as ((i: unknown, n: unknown) => unknown) | undefined;
      return call ? call.call(traced, input, next) : next(input);
    }) as unknown as Outbound[K];
  }

  return {
    inbound: [
      {
        execute: inbound('execute'),
        handleSignal: inbound('handleSignal'),
        handleUpdate: inbound('handleUpdate'),
        validateUpdate: (input, next) => (otel ? otel.inbound.validateUpdate(input, next) : next(input)),
        handleQuery: (input, next) => (otel ? otel.inbound.handleQuery(input, next) : next(input)),
      },
    ],
    outbound: [
      {
        scheduleActivity: outbound('scheduleActivity'),
        scheduleLocalActivity: outbound('scheduleLocalActivity'),
        startChildWorkflowExecution: outbound('startChildWorkflowExecution'),
        startNexusOperation: outbound('startNexusOperation'),
        signalWorkflow: outbound('signalWorkflow'),
        continueAsNew: outbound('continueAsNew'),
        getLogAttributes: outbound('getLogAttributes'),
      },
    ],
    internals: [
      {
        dispose: (input, next) => (otel?.internals.dispose ? otel.internals.dispose(input, next) : next(input)),
      },
    ],
  };
};
