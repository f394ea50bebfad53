import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TappedRequest {
  method: string;
  path: string;
  body: string;
}

export interface HttpTap {
  /** Base URL to give a client in place of the target's. */
  url: string;
  /** Every request seen, in arrival order, recorded as soon as its body is in (before the target answers). */
  requests: TappedRequest[];
  close(): Promise<void>;
}

/**
 * A plain HTTP relay in front of `target` that records each request as it arrives: a test can tell
 * that a call has reached the provider, and act (kill its caller) while the answer is still on its way.
 */
export async function startHttpTap(target: string): Promise<HttpTap> {
  const upstream = new URL(target);
  const requests: TappedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', body: body.toString('utf8') });
      const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host };
      const forward = request(
        { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
