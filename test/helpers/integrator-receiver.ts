import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the broker made to the integrator's webhook endpoint. */
export interface ReceivedWebhook {
  webhookId: string;
  /** Whether the standardwebhooks package accepted the signature. */
  verified: boolean;
  answered: number;
  receivedAt: number;
  /** The body exactly as it arrived. */
  raw: string;
  body: { type: string; timestamp: string; data: Record<string, any> & { id: string; status: string; sequence: number } };
}

type Answer = { status: number; headers?: Record<string, string>; /** Answer only after this long. */ delayMs?: number } | 'hang';

/**
 * The integrator's side: an HTTP endpoint that verifies each delivery with the standardwebhooks
 * package (an implementation independent of the broker's signer) and can be told to fail.
 */
export class IntegratorReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly verifier: Webhook;
  private server?: Server;
  private readonly scripted: Answer[] = [];
  private readonly hanging = new Set<ServerResponse>();

  constructor(secret: string) {
    this.verifier = new Webhook(secret);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** The next requests get these answers (then 204 again). */
  answerNext(...answers: Answer[]): void {
    this.scripted.push(...answers);
  }

  /** Forgets the answers still scripted: from now on every request gets 204. */
  clearScript(): void {
    this.scripted.length = 0;
  }

  /** Successful deliveries of one order, in arrival order. */
  delivered(orderId: string): ReceivedWebhook[] {
    return this.received.filter((w) => w.body.data.id === orderId && w.answered >= 200 && w.answered < 300);
  }

  attempts(webhookId: string): ReceivedWebhook[] {
    return this.received.filter((w) => w.webhookId === webhookId);
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    let verified = true;
    try {
      this.verifier.verify(raw, headers);
    } catch {
      verified = false;
    }
    const answer = verified ? (this.scripted.shift() ?? { status: 204 }) : { status: 400 };
    this.received.push({
      webhookId: headers['webhook-id'] ?? '',
      verified,
      answered: answer === 'hang' ? 0 : answer.status,
      receivedAt: Date.now(),
      raw,
      body: JSON.parse(raw),
    });
    if (answer === 'hang') {
      this.hanging.add(res);
      return;
    }
    if (answer.delayMs !== undefined) await new Promise((r) => setTimeout(r, answer.delayMs));
    res.writeHead(answer.status, answer.headers).end();
  }
}
