import express, { type Request, type Response } from 'express';
import type { SimulatorFaults } from './faults';
import type { WebhookSender } from './webhook-sender';

/** One simulated provider: an Express app speaking that provider's protocol, mounted under /<code>. */
export interface ProviderSimulator {
  readonly code: string;
  readonly app: express.Express;
  /** Live switches; changing a field takes effect at once. */
  readonly faults: SimulatorFaults;
  readonly webhooks: WebhookSender;
  /** Cancels pending timers (status progressions, webhook retries). */
  stop(): void;
}

/** Several simulated providers on one HTTP server, each under its own path prefix /<code>. */
export class SimulatorHost {
  readonly app = express();
  readonly simulators = new Map<string, ProviderSimulator>();

  constructor(simulators: readonly ProviderSimulator[]) {
    this.app.disable('x-powered-by');
    this.app.set('etag', false);
    for (const simulator of simulators) {
      this.simulators.set(simulator.code, simulator);
      this.app.use(`/${simulator.code}`, simulator.app);
    }
    this.app.use(
      (_req: Request, res: Response) => void res.status(404).json({ error: { code: 'not_found', message: 'no such provider' } }),
    );
  }

  get<T extends ProviderSimulator = ProviderSimulator>(code: string): T {
    const simulator = this.simulators.get(code);
    if (!simulator) throw new Error(`no simulated provider ${code}`);
    return simulator as T;
  }

  stop(): void {
    for (const simulator of this.simulators.values()) simulator.stop();
  }
}
