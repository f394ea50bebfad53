import type { SimulatorFaults } from './kit/faults';
import { SimulatorHost, type ProviderSimulator } from './kit/host';
import { SIMULATOR_PROFILES } from './sandbox/profile';
import { SandboxSimulator } from './sandbox/server';

export { SimulatorHost, type ProviderSimulator } from './kit/host';

export interface SimulatorsOptions {
  /** The broker's base URL; each provider posts its webhooks to <broker>/api/webhooks/<code>. */
  brokerUrl: string;
  /** The host's own public base URL; each provider lives under <publicUrl>/<code>. */
  publicUrl: string;
  sandbox: { apiKey: string; webhookSecret: string };
  /** Which providers to simulate; all when absent. */
  only?: readonly string[];
  faults?: Partial<SimulatorFaults>;
  /** Time between payment and crypto delivery, where a provider simulates one. */
  settleDelayMs?: number;
  log?: (message: string) => void;
}

/** Every simulated provider, on one host. */
export function createSimulatorHost(options: SimulatorsOptions): SimulatorHost {
  const wanted = (code: string) => !options.only || options.only.includes(code);
  const simulators: ProviderSimulator[] = SIMULATOR_PROFILES.filter((p) => wanted(p.code)).map(
    (profile) =>
      new SandboxSimulator({
        apiKey: options.sandbox.apiKey,
        webhookSecret: options.sandbox.webhookSecret,
        profile,
        webhookUrl: `${options.brokerUrl}/api/webhooks/${profile.code}`,
        publicUrl: `${options.publicUrl}/${profile.code}`,
        faults: options.faults,
        settleDelayMs: options.settleDelayMs,
        log: options.log,
      }),
  );
  return new SimulatorHost(simulators);
}
