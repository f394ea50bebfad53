import { Writable } from 'node:stream';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createLogger } from '../../../src/logging';
import { startTracing, stopTracing, tracer } from '../../../src/tracing';

/** A logger whose lines are parsed into `lines`. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')));
      done();
    },
  });
  return { logger: createLogger('info', 'test', sink), lines };
}

afterEach(() => stopTracing());

test('a log line written inside a span carries its trace and span ids; one outside carries none', async () => {
  const exporter = new InMemorySpanExporter();
  expect(startTracing({ serviceName: 'test', processor: new SimpleSpanProcessor(exporter) })).toBe(true);
  const { logger, lines } = capturedLogger();
  logger.info('before');
  await tracer().startActiveSpan('work', async (span) => {
    await Promise.resolve();
    logger.info({ orderId: 'o-1' }, 'inside');
    span.end();
  });
  logger.info('after');
  const [span] = exporter.getFinishedSpans();
  expect(lines.map((l) => l.msg)).toEqual(['before', 'inside', 'after']);
  expect(lines[1]).toMatchObject({ trace_id: span!.spanContext().traceId, span_id: span!.spanContext().spanId, orderId: 'o-1' });
  expect(lines[0]).not.toHaveProperty('trace_id');
  expect(lines[2]).not.toHaveProperty('trace_id');
});

test('with tracing off, log lines carry no trace fields', () => {
  const { logger, lines } = capturedLogger();
  tracer().startActiveSpan('work', (span) => {
    logger.info('inside');
    span.end();
  });
  expect(lines[0]).not.toHaveProperty('trace_id');
});
