import type { SimulatorFaults } from '../kit/faults';
import type { SimulatorProfile } from '../kit/profile';
import type { SellProfile } from '../kit/sell-pricing';

export interface SandboxSimulatorOptions {
  apiKey: string;
  webhookSecret: string;
  /** Where webhooks go: the broker's POST /api/webhooks/sandbox. */
  webhookUrl: string;
  /** The simulator's own public base URL, for checkout links. */
  publicUrl: string;
  profile?: SimulatorProfile;
  /** Time between payment received and crypto delivered (and between the steps of a sell order's walk). */
  settleDelayMs?: number;
  /** How long a sell order waits for its deposit before it expires (DEFAULT_DEPOSIT_WINDOW_MS, 30 minutes, when absent). */
  depositWindowMs?: number;
  /** What the sandbox buys from customers; SANDBOX_SELL_PROFILE when absent. */
  sellProfile?: SellProfile;
  faults?: Partial<SimulatorFaults>;
  random?: () => number;
  log?: (message: string) => void;
}
