import type { SimulatorOptions } from '../kit/options';

/** The merchant's app and API key pair, as Onramp.money hands them out at onboarding. */
export interface OnrampMoneySimulatorCredentials {
  appId: string;
  /** `X-ONRAMP-APIKEY`. */
  apiKey: string;
  /** Keys the HMAC-SHA512 of request payloads and of the webhooks' payload. */
  apiSecret: string;
}

export type OnrampMoneySimulatorOptions = SimulatorOptions<OnrampMoneySimulatorCredentials>;
