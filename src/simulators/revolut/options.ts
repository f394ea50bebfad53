import type { SimulatorOptions } from '../kit/options';

/** The partner's API key and the signing secret of the webhook it created. */
export interface RevolutSimulatorCredentials {
  /** Sent as `X-API-KEY` on every partner call. */
  apiKey: string;
  /** The `signing_secret` (`wsk_…`) of every webhook this simulator sends. */
  webhookSecret: string;
}

export type RevolutSimulatorOptions = SimulatorOptions<RevolutSimulatorCredentials>;
