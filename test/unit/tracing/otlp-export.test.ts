import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTracing, stopTracing, tracer } from '../../../src/tracing';

test('with OTEL_EXPORTER_OTLP_ENDPOINT set, spans are posted there as OTLP http/protobuf', async () => {
  const received: { url?: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const saved = { ...process.env };
  try {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    process.env.OTEL_SERVICE_NAME = 'onramp-otlp-test';
    expect(startTracing({ serviceName: 'onramp-api' })).toBe(true);
    tracer().startSpan('exported-span').end();
    await stopTracing();
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/v1/traces');
    expect(received[0]!.headers['content-type']).toBe('application/x-protobuf');
    expect(received[0]!.body.toString('latin1')).toContain('exported-span');
    expect(received[0]!.body.toString('latin1')).toContain('onramp-otlp-test');
  } finally {
    process.env = saved;
    await stopTracing();
    collector.close();
  }
});

test('with no OTEL_* setting, tracing does not start', () => {
  expect(startTracing({ serviceName: 'onramp-api' })).toBe(false);
});
