import type { SimulatorOptions } from '../kit/options';

/** The partner's credentials as Alchemy Pay issues them. */
export interface AlchemypaySimulatorCredentials {
  /** `appid` header and the ramp URL's `appId`. */
  appId: string;
  /** Keys every `sign` and the webhooks' `newSignature`. */
  appSecret: string;
}

export type AlchemypaySimulatorOptions = SimulatorOptions<AlchemypaySimulatorCredentials>;
