import type { SimulatorOptions } from '../kit/options';

/** The partner's CDP secret API key and webhook subscription secret, as the CDP portal shows them. */
export interface CoinbaseSimulatorCredentials {
  /** The key's name: the JWTs' `kid` and `sub`. */
  apiKeyId: string;
  /** The key's secret (base64 Ed25519, 64 bytes): the simulator checks JWTs against its public half. */
  apiKeySecret: string;
  /** Signs webhooks (`X-Hook0-Signature`). */
  webhookSecret: string;
}

export type CoinbaseSimulatorOptions = SimulatorOptions<CoinbaseSimulatorCredentials>;
