import type { SimulatorFaults } from '../kit/faults';
import type { SimulatorProfile } from '../kit/profile';

export interface SandboxSimulatorOptions {
  apiKey: string;
  webhookSecret: string;
  /** Where webhooks go: the broker's POST /api/webhooks/sandbox. */
  webhookUrl: string;
  /** The simulator's own public base URL, for checkout links. */
  publicUrl: string;
  profile?: SimulatorProfile;
  /** Time between payment received and crypto delivered. */
  settleDelayMs?: number;
  faults?: Partial<SimulatorFaults>;
  random?: () => number;
  log?: (message: string) => void;
}
