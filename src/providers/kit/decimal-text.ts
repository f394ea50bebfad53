/**
 * A provider's decimal amount as text: digits with an optional fraction, at most 30 of each. No real
 * amount comes near (10^30 of any currency; 18 decimals for the finest token), and a longer one is
 * not worth the arithmetic: a million digits cost seconds of the event loop on every offers request.
 */
export const PROVIDER_DECIMAL_TEXT = /^\d{1,30}(\.\d{1,30})?$/;

/** An amount in a currency's smallest unit (wei, satoshi...): at most 60 digits (10^60 wei is 10^42 ether). */
export const PROVIDER_BASE_UNITS_TEXT = /^\d{1,60}$/;
