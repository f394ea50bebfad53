import { EUR, GBP, USD } from './orders';

/** Where the customer is: US markets need a state. */
export const MARKETS = {
  'US-CA': { country_code: 'US', state_code: 'CA', from_currency: USD },
  'US-TX': { country_code: 'US', state_code: 'TX', from_currency: USD },
  GB: { country_code: 'GB', from_currency: GBP },
  DE: { country_code: 'DE', from_currency: EUR },
} as const;

export type MarketName = keyof typeof MARKETS;
