import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsAuthorized } from './access';
import { collectProcessMetrics, metricsText } from './registry';

export interface MetricsServerOptions {
  host: string;
  port: number;
  /** Bearer token a scrape must send (METRICS_TOKEN); open when absent. */
  token?: string;
}

export interface MetricsServer {
  /** `http://host:port`: the metrics are at `/metrics`. */
  url: string;
  close(): Promise<void>;
}

/**
 * A plain HTTP server answering `GET /metrics` with the process's metrics in Prometheus's text
 * format (the worker's metrics port, and the API's when API_METRICS_PORT moves them off the API).
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  collectProcessMetrics();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    if (!metricsAuthorized(req.headers.authorization, options.token)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain' }).end('a bearer token is required\n');
      return;
    }
    metricsText().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${(err as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port, options.host, resolve));
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
