/** What makes one simulated provider differ from another: coverage, pricing, fees and limits. */
export interface PaymentMethodProfile {
  code: string;
  name: string;
  /** Processing fee as a fraction of the fiat amount, e.g. "0.0399". */
  feeRate: string;
  /** Fixed part of the processing fee, in USD. */
  feeFixedUsd: string;
  minUsd: string;
  maxUsd: string;
  /** Fiat currencies the method takes; all of the profile's when absent. */
  fiat?: readonly string[];
}

export interface SimulatorProfile {
  code: string;
  name: string;
  /** Markup over the reference price, e.g. "0.01" for 1 %. */
  spread: string;
  /** Network fee charged per order, in USD. */
  networkFeeUsd: string;
  countries: readonly string[];
  /** Countries served only in some states: country -> state codes served. */
  states?: Readonly<Record<string, readonly string[]>>;
  fiat: readonly string[];
  /** Supported assets as `TICKER/network`. */
  assets: readonly string[];
  paymentMethods: readonly PaymentMethodProfile[];
  quoteTtlSeconds: number;
}

/** Every US state and DC, for profiles that serve the US state by state. */
export const US_STATES: readonly string[] = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
];

/** The US states except those named. */
export const usStatesExcept = (...excluded: string[]): string[] => US_STATES.filter((s) => !excluded.includes(s));
