import { connect, type AddressInfo, type Socket } from 'node:net';
import { createServer, type TLSSocket } from 'node:tls';
import type { Issued } from './pki';

export interface TlsProxy {
  /** host:port to give a Temporal client in place of the server's own address. */
  address: string;
  /** Connections whose handshake failed, with the reason: a refusal must come from TLS, not from elsewhere. */
  refusedHandshakes: string[];
  close(): Promise<void>;
}

/**
 * TLS in front of a plain gRPC server (the Temporal dev server takes no TLS settings of its own):
 * terminates TLS with `server`, HTTP/2 by ALPN as gRPC needs it, and pipes the bytes to `target`.
 * With `clientCa`, a client certificate issued by it is required (mTLS).
 */
export async function startTlsProxy(options: { target: string; server: Issued; clientCa?: string }): Promise<TlsProxy> {
  const [host, port] = splitAddress(options.target);
  const sockets = new Set<Socket>();
  const refusedHandshakes: string[] = [];
  const proxy = createServer(
    {
      cert: options.server.cert,
      key: options.server.key,
      ALPNProtocols: ['h2'],
      ...(options.clientCa ? { ca: [options.clientCa], requestCert: true, rejectUnauthorized: true } : {}),
    },
    (client: TLSSocket) => {
      const upstream = connect(port, host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    },
  );
  proxy.on('tlsClientError', (err) => refusedHandshakes.push(err.message));
  await new Promise<void>((resolve, reject) => proxy.once('error', reject).listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    refusedHandshakes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

function splitAddress(address: string): [string, number] {
  const at = address.lastIndexOf(':');
  return [address.slice(0, at), Number(address.slice(at + 1))];
}
