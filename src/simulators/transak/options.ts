import type { SimulatorOptions } from '../kit/options';

/** The partner's API key and secret, as Transak's Partner Dashboard shows them. */
export interface TransakSimulatorCredentials {
  apiKey: string;
  apiSecret: string;
}

export interface TransakSimulatorOptions extends SimulatorOptions<TransakSimulatorCredentials> {
  /** Lifetime of the access tokens it issues; Transak's last 7 days. */
  accessTokenTtlMs?: number;
}
