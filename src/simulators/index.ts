import { BANXA_SIMULATOR_CREDENTIALS } from '../providers/banxa';
import { MERCURYO_SIMULATOR_CREDENTIALS } from '../providers/mercuryo';
import { MOONPAY_SIMULATOR_CREDENTIALS } from '../providers/moonpay';
import { RAMP_SIMULATOR_CREDENTIALS } from '../providers/ramp';
import { TRANSAK_SIMULATOR_CREDENTIALS } from '../providers/transak';
import { createBanxaSimulator } from './banxa/server';
import type { SimulatorFaults } from './kit/faults';
import { SimulatorHost } from './kit/host';
import { createMercuryoSimulator } from './mercuryo/server';
import { createMoonpaySimulator } from './moonpay/server';
import { createRampSimulator } from './ramp/server';
import { SandboxSimulator } from './sandbox/server';
import { createTransakSimulator } from './transak/server';

export { SimulatorHost, type ProviderSimulator } from './kit/host';

export interface SimulatorsOptions {
  /** The broker's base URL; each provider posts its webhooks to <broker>/api/webhooks/<code>. */
  brokerUrl: string;
  /** The host's own public base URL; each provider lives under <publicUrl>/<code>. */
  publicUrl: string;
  sandbox: { apiKey: string; webhookSecret: string };
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
  const { brokerUrl, publicUrl, faults, log } = options;
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
    createBanxaSimulator({ ...at('banxa'), credentials: BANXA_SIMULATOR_CREDENTIALS, ...shared }),
    createMercuryoSimulator({ ...at('mercuryo'), credentials: MERCURYO_SIMULATOR_CREDENTIALS, ...shared }),
    createMoonpaySimulator({ ...at('moonpay'), credentials: MOONPAY_SIMULATOR_CREDENTIALS, ...shared }),
    createRampSimulator({ ...at('ramp'), credentials: RAMP_SIMULATOR_CREDENTIALS, ...shared }),
    createTransakSimulator({ ...at('transak'), credentials: TRANSAK_SIMULATOR_CREDENTIALS, ...shared }),
  ]);
}
