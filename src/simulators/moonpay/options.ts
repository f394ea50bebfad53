import type { SimulatorOptions } from '../kit/options';

/** The partner's keys, as MoonPay's dashboard shows them. */
export interface MoonpaySimulatorCredentials {
  /** `apiKey` of public calls and widget URLs. */
  publishableKey: string;
  /** Authenticates transaction lookups (`Api-Key <secret>`) and signs widget URLs. */
  secretKey: string;
  /** Signs webhooks (`Moonpay-Signature-V2`). */
  webhookKey: string;
}

export type MoonpaySimulatorOptions = SimulatorOptions<MoonpaySimulatorCredentials>;
