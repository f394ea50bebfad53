import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback port free right now, for a server that must be started (and restarted) on a known port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
