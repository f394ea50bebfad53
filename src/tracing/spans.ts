import type { SpanKind } from '@opentelemetry/api';
import { SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

export { SpanKind, type Span } from '@opentelemetry/api';

/** The broker's own spans (HTTP server, provider calls); Temporal's are the interceptors'. */
export const tracer = () => trace.getTracer('onramp-broker');

/** Attribute naming the order a span belongs to, on the API's and the provider calls' spans. */
export const ORDER_ID_ATTRIBUTE = 'onramp.order_id';

/** Marks `span` failed with `err`. */
export function recordFailure(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

/** Runs `fn` in a new active span of `kind`, ended when `fn` settles and marked failed if it throws. */
export function inSpan<T>(name: string, kind: SpanKind, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      recordFailure(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}
