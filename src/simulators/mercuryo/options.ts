import type { SimulatorOptions } from '../kit/options';

/** The partner's widget and its keys, as Mercuryo's dashboard shows them. */
export interface MercuryoSimulatorCredentials {
  widgetId: string;
  /** `Sdk-Partner-Token` of the transaction lookup. */
  sdkPartnerToken: string;
  /** The widget's secret, in the v2 widget URL signature. */
  secret: string;
  /** The widget's Sign Key, which signs callbacks. */
  signKey: string;
}

export type MercuryoSimulatorOptions = SimulatorOptions<MercuryoSimulatorCredentials>;
