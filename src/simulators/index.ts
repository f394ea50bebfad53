import { alchemypaySimulatorCredentials } from '../providers/alchemypay/config';
import { banxaSimulatorCredentials } from '../providers/banxa/config';
import { coinbaseSimulatorCredentials } from '../providers/coinbase/config';
import type { ProviderCode } from '../providers/manifest';
import { mercuryoSimulatorCredentials } from '../providers/mercuryo/config';
import { moonpaySimulatorCredentials } from '../providers/moonpay/config';
import { onrampMoneySimulatorCredentials } from '../providers/onramp_money/config';
import { paybisSimulatorKeys } from '../providers/paybis/config';
import { rampSimulatorCredentials } from '../providers/ramp/config';
import { revolutSimulatorCredentials } from '../providers/revolut/config';
import type { SandboxCredentials } from '../providers/sandbox/config';
import { transakSimulatorCredentials } from '../providers/transak/config';
import { createAlchemypaySimulator } from './alchemypay/server';
import { createBanxaSimulator } from './banxa/server';
import { createCoinbaseSimulator } from './coinbase/server';
import type { SimulatorFaults } from './kit/faults';
import { SimulatorHost, type ProviderSimulator } from './kit/host';
import { createMercuryoSimulator } from './mercuryo/server';
import { createMoonpaySimulator } from './moonpay/server';
import { createOnrampMoneySimulator } from './onramp_money/server';
import { createPaybisSimulator } from './paybis/server';
import { createRampSimulator } from './ramp/server';
import { rampSimulatorSigningKey } from './ramp/signing';
import { createRevolutSimulator } from './revolut/server';
import { SandboxSimulator } from './sandbox/server';
import { createTransakSimulator } from './transak/server';

export { SimulatorHost, type ProviderSimulator } from './kit/host';

export interface SimulatorsOptions {
  /** The broker's base URL; each provider posts its webhooks to <broker>/api/webhooks/<code>. */
  brokerUrl: string;
  /** The host's own public base URL; each provider lives under <publicUrl>/<code>. */
  publicUrl: string;
  sandbox: SandboxCredentials;
  /** SIMULATOR_SECRET, which every real provider's simulator credentials derive from; their fixed development ones when absent. */
  secret?: string;
  faults?: Partial<SimulatorFaults>;
  /**
   * Time between payment and crypto delivery at the sandbox provider; the other simulators wait as
   * long between the steps of their own status sequences (each simulator's default when absent).
   */
  settleDelayMs?: number;
  /** How long a sandbox sell order waits for its deposit before it expires (30 minutes when absent). */
  depositWindowMs?: number;
  log?: (message: string) => void;
  /**
   * Each simulator's source of chance (its fault switches' draws), by provider code; Math.random
   * when absent. A benchmark gives each a seeded one, so that its runs draw the same outcomes.
   */
  random?: (code: string) => () => number;
}

/** Where one simulated provider lives on the host, and where its webhooks go. */
interface SimulatorSite {
  code: string;
  publicUrl: string;
  brokerWebhookUrl: string;
}

const common = ({ faults, settleDelayMs, log, random }: SimulatorsOptions, code: string) => ({
  faults,
  stepDelayMs: settleDelayMs,
  log,
  random: random?.(code),
});

/**
 * Each provider's simulator, by its code in the provider manifest (src/providers/manifest.ts): a
 * provider without one does not compile. Keyed by the codes' type only, so that the host loads no
 * adapter code.
 */
const SIMULATORS: { [C in ProviderCode]: (site: SimulatorSite, options: SimulatorsOptions) => ProviderSimulator } = {
  sandbox: (site, options) =>
    new SandboxSimulator({
      ...options.sandbox,
      publicUrl: site.publicUrl,
      webhookUrl: site.brokerWebhookUrl,
      faults: options.faults,
      settleDelayMs: options.settleDelayMs,
      depositWindowMs: options.depositWindowMs,
      log: options.log,
      random: options.random?.(site.code),
    }),
  alchemypay: (site, options) =>
    createAlchemypaySimulator({ ...site, credentials: alchemypaySimulatorCredentials(options.secret), ...common(options, site.code) }),
  banxa: (site, options) =>
    createBanxaSimulator({ ...site, credentials: banxaSimulatorCredentials(options.secret), ...common(options, site.code) }),
  coinbase: (site, options) =>
    createCoinbaseSimulator({ ...site, credentials: coinbaseSimulatorCredentials(options.secret), ...common(options, site.code) }),
  mercuryo: (site, options) =>
    createMercuryoSimulator({ ...site, credentials: mercuryoSimulatorCredentials(options.secret), ...common(options, site.code) }),
  moonpay: (site, options) =>
    createMoonpaySimulator({ ...site, credentials: moonpaySimulatorCredentials(options.secret), ...common(options, site.code) }),
  onramp_money: (site, options) =>
    createOnrampMoneySimulator({ ...site, credentials: onrampMoneySimulatorCredentials(options.secret), ...common(options, site.code) }),
  paybis: (site, options) =>
    createPaybisSimulator({ ...site, credentials: paybisSimulatorKeys(options.secret), ...common(options, site.code) }),
  ramp: (site, options) =>
    createRampSimulator({
      ...site,
      credentials: rampSimulatorCredentials(options.secret),
      signingKey: rampSimulatorSigningKey(options.secret),
      ...common(options, site.code),
    }),
  revolut: (site, options) =>
    createRevolutSimulator({ ...site, credentials: revolutSimulatorCredentials(options.secret), ...common(options, site.code) }),
  transak: (site, options) =>
    createTransakSimulator({ ...site, credentials: transakSimulatorCredentials(options.secret), ...common(options, site.code) }),
};

/** Every simulated provider, on one host: the generic sandbox and the simulators of the real providers. */
export function createSimulatorHost(options: SimulatorsOptions): SimulatorHost {
  const { brokerUrl, publicUrl } = options;
  return new SimulatorHost(
    Object.entries(SIMULATORS).map(([code, create]) =>
      create({ code, publicUrl: `${publicUrl}/${code}`, brokerWebhookUrl: `${brokerUrl}/api/webhooks/${code}` }, options),
    ),
  );
}
