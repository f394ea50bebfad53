import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The integrator's endpoint: resolves a waiter when an order's `complete` webhook arrives. */
export class CompletionReceiver {
  private readonly waiters = new Map<string, () => void>();
  private readonly done = new Set<string>();
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(204).end();
        const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { id: string; status: string } };
        if (data.status !== 'complete') return;
        this.done.add(data.id);
        this.waiters.get(data.id)?.();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  completed(orderId: string): Promise<void> {
    if (this.done.has(orderId)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.set(orderId, resolve));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
