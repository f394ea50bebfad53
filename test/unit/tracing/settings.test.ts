import { traceExporters } from '../../../src/tracing/settings';

test('tracing is off unless OTEL_* asks for it', () => {
  expect(traceExporters({})).toEqual([]);
  expect(traceExporters({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual([]);
  expect(traceExporters({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual([]);
});

test('an OTLP endpoint turns OTLP export on; OTEL_TRACES_EXPORTER names exporters', () => {
  expect(traceExporters({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual(['otlp']);
  expect(traceExporters({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toEqual(['otlp']);
  expect(traceExporters({ OTEL_TRACES_EXPORTER: 'console' })).toEqual(['console']);
  expect(traceExporters({ OTEL_TRACES_EXPORTER: 'otlp, console' })).toEqual(['otlp', 'console']);
});

test('an unknown exporter or an OTLP protocol other than http/protobuf stops start-up', () => {
  expect(() => traceExporters({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER: zipkin/);
  expect(() => traceExporters({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/http\/protobuf/);
  expect(traceExporters({ OTEL_TRACES_EXPORTER: 'console', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual(['console']);
});
