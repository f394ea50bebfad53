import type { SandboxCredentials } from '../config/sandbox-credentials';
import { banxaSimulatorCredentials } from '../providers/banxa/config';
import { mercuryoSimulatorCredentials } from '../providers/mercuryo/config';
import { moonpaySimulatorCredentials } from '../providers/moonpay/config';
import { rampSimulatorCredentials } from '../providers/ramp/config';
import { transakSimulatorCredentials } from '../providers/transak/config';
import { createBanxaSimulator } from './banxa/server';
import type { SimulatorFaults } from './kit/faults';
import { SimulatorHost } from './kit/host';
import { createMercuryoSimulator } from './mercuryo/server';
import { createMoonpaySimulator } from './moonpay/server';
import { createRampSimulator } from './ramp/server';
import { rampSimulatorSigningKey } from './ramp/signing';
import { SandboxSimulator } from './sandbox/server';
import { createTransakSimulator } from './transak/server';

export { SimulatorHost, type ProviderSimulator } from './kit/host';

export interface SimulatorsOptions {
  /** The broker's base URL; each provider posts its webhooks to <broker>/api/webhooks/<code>. */
  brokerUrl: string;
  /** The host's own public base URL; each provider lives under <publicUrl>/<code>. */
  publicUrl: string;
  sandbox: SandboxCredentials;
  /** SIMULATOR_SECRET, which the five real providers' simulator credentials derive from; their fixed development ones when absent. */
  secret?: string;
  faults?: Partial<SimulatorFaults>;
  /**
   * Time between payment and crypto delivery at the sandbox provider; the other simulators wait as
   * long between the steps of their own status sequences (each simulator's default when absent).
   */
  settleDelayMs?: number;
  log?: (message: string) => void;
}

/** Every simulated provider, on one host: the generic sandbox and the simulators of the real providers. */
export function createSimulatorHost(options: SimulatorsOptions): SimulatorHost {
  const { brokerUrl, publicUrl, secret, faults, log } = options;
  const at = (code: string) => ({ publicUrl: `${publicUrl}/${code}`, brokerWebhookUrl: `${brokerUrl}/api/webhooks/${code}` });
  const shared = { faults, stepDelayMs: options.settleDelayMs, log };
  return new SimulatorHost([
    new SandboxSimulator({
      ...options.sandbox,
      publicUrl: `${publicUrl}/sandbox`,
      webhookUrl: `${brokerUrl}/api/webhooks/sandbox`,
      faults,
      settleDelayMs: options.settleDelayMs,
      log,
    }),
    createBanxaSimulator({ ...at('banxa'), credentials: banxaSimulatorCredentials(secret), ...shared }),
    createMercuryoSimulator({ ...at('mercuryo'), credentials: mercuryoSimulatorCredentials(secret), ...shared }),
    createMoonpaySimulator({ ...at('moonpay'), credentials: moonpaySimulatorCredentials(secret), ...shared }),
    createRampSimulator({
      ...at('ramp'),
      credentials: rampSimulatorCredentials(secret),
      signingKey: rampSimulatorSigningKey(secret),
      ...shared,
    }),
    createTransakSimulator({ ...at('transak'), credentials: transakSimulatorCredentials(secret), ...shared }),
  ]);
}
