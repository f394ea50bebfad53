import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * The active span's ids, as every log line carries them (`trace_id`, `span_id`, the names the
 * Temporal SDK's activity log lines use): nothing when tracing is off or no span is active.
 */
export function traceFields(): { trace_id: string; span_id: string } | Record<string, never> {
  const span = trace.getSpan(context.active());
  const ids = span?.spanContext();
  return ids && isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}

/** A JSON logger to stdout, or to `destination` (tests). */
export function createLogger(level: string, name: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    mixin: traceFields,
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers["x-operator-key"]',
        'req.headers.authorization',
        'req.headers["sandbox-signature"]',
        '*.webhook_secret',
        '*.apiKey',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
