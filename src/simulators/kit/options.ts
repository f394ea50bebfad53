import type { SimulatorFaults } from './faults';

/** What the simulator of a real provider is given: where it lives, where its webhooks go, its credentials. */
export interface SimulatorOptions<Credentials> {
  /** The simulator's own public base URL, e.g. http://127.0.0.1:4010/<code>: its checkout links start with it. */
  publicUrl: string;
  /** The broker's webhook endpoint for this provider, <broker>/api/webhooks/<code>. */
  brokerWebhookUrl: string;
  /** What the simulator accepts and signs with: the credentials the broker has for it. */
  credentials: Credentials;
  faults?: Partial<SimulatorFaults>;
  /** Between the automatic steps of a status walk; DEFAULT_STEP_DELAY_MS when absent. */
  stepDelayMs?: number;
  random?: () => number;
  log?: (message: string) => void;
}
