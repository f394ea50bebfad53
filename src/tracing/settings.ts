/** Where the broker's spans go, read from the standard OpenTelemetry variables (OTEL_*). */
export type TraceExporterName = 'otlp' | 'console';

const EXPORTERS = new Set(['otlp', 'console', 'none']);
const PROTOCOLS = new Set(['http/protobuf']);

/**
 * The trace exporters OTEL_* names; none means tracing is off (no provider, no spans, no cost).
 * Unlike the OpenTelemetry default (`otlp`), an unset OTEL_TRACES_EXPORTER exports only when an
 * OTLP endpoint is set, so a broker with no collector sends nothing anywhere.
 */
export function traceExporters(env: NodeJS.ProcessEnv): TraceExporterName[] {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return [];
  const given = env.OTEL_TRACES_EXPORTER?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const names = given ? given.split(',').map((name) => name.trim().toLowerCase()) : endpoint ? ['otlp'] : [];
  const unknown = names.filter((name) => !EXPORTERS.has(name));
  if (unknown.length) throw new Error(`OTEL_TRACES_EXPORTER: ${unknown.join(', ')} is not one of otlp, console, none`);
  const exporters = [...new Set(names.filter((name): name is TraceExporterName => name !== 'none'))];
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim();
  if (exporters.includes('otlp') && protocol && !PROTOCOLS.has(protocol))
    throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL: ${protocol} is not supported; the broker exports OTLP as http/protobuf`);
  return exporters;
}
