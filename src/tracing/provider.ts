import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { envDetectorSync, Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { traceExporters } from './settings';

export interface Tracing {
  /** The processor every span ends in: the worker hands it the workflows' spans (src/worker/tracing.ts). */
  processor: SpanProcessor;
  resource: Resource;
}

export interface TracingOptions {
  /** service.name unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) says otherwise. */
  serviceName: string;
  /** Spans go here instead of the exporters OTEL_* names (tests: an in-memory exporter). */
  processor?: SpanProcessor;
}

let current: { tracing: Tracing; provider: NodeTracerProvider } | undefined;

/** The tracing this process started, or undefined when it is off: callers skip their spans then. */
export function activeTracing(): Tracing | undefined {
  return current?.tracing;
}

/**
 * Starts tracing when OTEL_* asks for it (src/tracing/settings.ts) or a processor is given: a
 * global tracer provider, W3C trace context propagation and the async context that carries the
 * active span. Returns false, and starts nothing, when tracing is off. Call before any client or
 * server of the process is made: they look for it once.
 */
export function startTracing(options: TracingOptions): boolean {
  if (current) throw new Error('tracing is already started');
  const processor = options.processor ?? exportingProcessor(process.env);
  if (!processor) return false;
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the exporter reads OTEL_EXPORTER_OTLP_* itself).
  const resource = Resource.default()
    .merge(new Resource({ 'service.name': options.serviceName }))
    .merge(envDetectorSync.detect());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  current = { tracing: { processor, resource }, provider };
  return true;
}

/** Exports what is still buffered and unregisters the provider (start-up may then start it again). */
export async function stopTracing(): Promise<void> {
  const stopping = current;
  current = undefined;
  if (!stopping) return;
  await stopping.provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
}

function exportingProcessor(env: NodeJS.ProcessEnv): SpanProcessor | undefined {
  const processors = traceExporters(env).map(
    (name) => new BatchSpanProcessor(name === 'otlp' ? new OTLPTraceExporter() : new ConsoleSpanExporter()),
  );
  if (processors.length <= 1) return processors[0];
  return {
    onStart: (span, parent) => processors.forEach((p) => p.onStart(span, parent)),
    onEnd: (span) => processors.forEach((p) => p.onEnd(span)),
    forceFlush: async () => void (await Promise.all(processors.map((p) => p.forceFlush()))),
    shutdown: async () => void (await Promise.all(processors.map((p) => p.shutdown()))),
  };
}
