export { activeTracing, startTracing, stopTracing, type Tracing, type TracingOptions } from './provider';
export { inSpan, recordFailure, tracer, ORDER_ID_ATTRIBUTE, SpanKind, type Span } from './spans';
export { SpanStatusCode } from '@opentelemetry/api';
