import type { KeyObject } from 'node:crypto';
import type { SimulatorOptions } from '../kit/options';

/** The host's API key, and the public key it checks webhook signatures with. */
export interface RampSimulatorCredentials {
  hostApiKey: string;
  /** PEM; must be the public half of the simulator's signing key. */
  webhookPublicKey: string;
}

export interface RampSimulatorOptions extends SimulatorOptions<RampSimulatorCredentials> {
  /** The private half of credentials.webhookPublicKey; the development key when absent. */
  signingKey?: KeyObject;
}
