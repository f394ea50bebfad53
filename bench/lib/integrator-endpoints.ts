/**
 * The integrators' webhook endpoints of `npm run bench:isolation`: B's, which answers at once and
 * records when each order's first webhook arrived, and A's, which answers at once or, while its
 * switch is on, takes every request and never answers (a hung endpoint).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

async function close(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function readBody(req: IncomingMessage, done: (body: string) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
}

/** Answers 204 at once; resolves a waiter when an order's first webhook arrives, with its arrival time. */
export class FirstWebhookReceiver {
  private readonly arrived = new Map<string, number>();
  private readonly waiters = new Map<string, (at: number) => void>();
  private server?: Server;

  start(): Promise<string> {
    this.server = createServer((req, res) => {
      readBody(req, (body) => {
        const at = performance.now();
        res.writeHead(204).end();
        let id: string | undefined;
        try {
          id = (JSON.parse(body) as { data?: { id?: string } }).data?.id;
        } catch {
          return;
        }
        if (id === undefined || this.arrived.has(id)) return;
        this.arrived.set(id, at);
        this.waiters.get(id)?.(at);
        this.waiters.delete(id);
      });
    });
    return listen(this.server);
  }

  /** When the order's first webhook arrived (performance.now()), within `timeoutMs`. */
  firstArrival(orderId: string, timeoutMs: number): Promise<number> {
    const at = this.arrived.get(orderId);
    if (at !== undefined) return Promise.resolve(at);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(orderId);
        reject(new Error(`no webhook for order ${orderId} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.set(orderId, (arrival) => {
        clearTimeout(timer);
        resolve(arrival);
      });
    });
  }

  stop(): Promise<void> {
    return close(this.server);
  }
}

/** Answers 204, or holds every request open without an answer while `hanging` is on. */
export class SwitchableEndpoint {
  hanging = false;
  /** Requests taken while hanging (each one held open until it is released or the server stops). */
  held = 0;
  answered = 0;
  private readonly open = new Set<ServerResponse>();
  private server?: Server;

  start(): Promise<string> {
    this.server = createServer((req, res) => {
      readBody(req, () => {
        if (!this.hanging) {
          this.answered++;
          res.writeHead(204).end();
          return;
        }
        this.held++;
        this.open.add(res);
        res.once('close', () => this.open.delete(res));
      });
    });
    return listen(this.server);
  }

  /** Turns hanging off and ends every request held (the attempts see a dropped connection). */
  release(): void {
    this.hanging = false;
    for (const res of this.open) res.destroy();
    this.open.clear();
  }

  stop(): Promise<void> {
    this.release();
    return close(this.server);
  }
}
