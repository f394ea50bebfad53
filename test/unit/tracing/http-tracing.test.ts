/**
 * The API's server span is the root of a trace of the broker's own: an outsider's sampled
 * `traceparent` is linked to it, never joined (the caller does not choose the trace the broker's
 * spans land in, nor what it samples).
 */
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import express from 'express';
import request from 'supertest';
import { httpTracing } from '../../../src/api/tracing';
import { startTracing, stopTracing, tracer } from '../../../src/tracing';

const CALLER_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';

let exporter: InMemorySpanExporter;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  expect(startTracing({ serviceName: 'api-test', processor: new SimpleSpanProcessor(exporter) })).toBe(true);
});

afterEach(() => stopTracing());

function tracedApp() {
  const app = express();
  httpTracing(app);
  app.get('/api/ping', (_req, res) => {
    tracer().startActiveSpan('inner work', (span) => span.end());
    res.json({ ok: true });
  });
  return app;
}

async function finishedSpans(count: number) {
  for (let i = 0; i < 50 && exporter.getFinishedSpans().length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return exporter.getFinishedSpans();
}

test("a caller's sampled traceparent is linked to the request's root span, never joined", async () => {
  await request(tracedApp()).get('/api/ping').set('traceparent', `00-${CALLER_TRACE_ID}-${CALLER_SPAN_ID}-01`).expect(200);
  const spans = await finishedSpans(2);
  const server = spans.find((span) => span.name.startsWith('GET'))!;
  const inner = spans.find((span) => span.name === 'inner work')!;
  expect(server).toBeDefined();
  // A new trace, with no parent: the broker's own root.
  expect(server.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(server.spanContext().traceId).not.toBe(CALLER_TRACE_ID);
  expect(server.parentSpanId).toBeUndefined();
  // The caller's span is a link.
  expect(server.links).toEqual([
    expect.objectContaining({
      context: expect.objectContaining({ traceId: CALLER_TRACE_ID, spanId: CALLER_SPAN_ID }),
      attributes: { 'onramp.link': 'caller' },
    }),
  ]);
  // What the request does is in the broker's trace, under its server span.
  expect(inner.spanContext().traceId).toBe(server.spanContext().traceId);
  expect(inner.parentSpanId).toBe(server.spanContext().spanId);
  expect(spans.every((span) => span.spanContext().traceId !== CALLER_TRACE_ID)).toBe(true);
});

test('without a traceparent (or with an invalid one) the root span has no link', async () => {
  await request(tracedApp()).get('/api/ping').expect(200);
  await request(tracedApp()).get('/api/ping').set('traceparent', '00-00000000000000000000000000000000-0000000000000000-01').expect(200);
  const servers = (await finishedSpans(4)).filter((span) => span.name.startsWith('GET'));
  expect(servers).toHaveLength(2);
  for (const server of servers) {
    expect(server.links).toEqual([]);
    expect(server.parentSpanId).toBeUndefined();
  }
});
