/**
 * A simulated provider's sell (off-ramp) prices: crypto in, fiat paid out, from the same reference
 * market as its buy prices (market.ts), the spread taken off the price instead of added to it.
 */
import BigNumber from 'bignumber.js';
import { FIAT_PER_USD, USD_PRICE } from './market';

const D = BigNumber.clone({ DECIMAL_PLACES: 30 });

/** A way the provider pays the customer: its fee and its payout limits in USD. */
export interface PayoutMethodProfile {
  code: string;
  name: string;
  /** Processing fee as a fraction of the sale's fiat value, e.g. "0.02". */
  feeRate: string;
  /** Fixed part of the processing fee, in USD. */
  feeFixedUsd: string;
  /** Limits of the payout (fees taken off), in USD at the simulator's FX rate. */
  minUsd: string;
  maxUsd: string;
  /** Fiat currencies the method pays; all of the profile's when absent. */
  fiat?: readonly string[];
}

/** What a provider buys from customers where, and at what price. */
export interface SellProfile {
  /** Taken off the reference price, e.g. "0.01" for 1 %. */
  spread: string;
  /** Network fee charged per sale, in USD. */
  networkFeeUsd: string;
  countries: readonly string[];
  states?: Readonly<Record<string, readonly string[]>>;
  fiat: readonly string[];
  /** Assets bought, as `TICKER/network`. */
  assets: readonly string[];
  /** Limits of the crypto amount sold, in USD of its value (each asset's limits in its own units follow). */
  cryptoMinUsd: string;
  cryptoMaxUsd: string;
  payoutMethods: readonly PayoutMethodProfile[];
  quoteTtlSeconds: number;
}

export interface SellQuoteInput {
  crypto: string;
  network: string;
  cryptoAmount: string;
  fiat: string;
  payoutMethod: string;
  country?: string;
  state?: string;
}

export interface SellPrice {
  /** Fiat per unit of crypto, the spread taken off. */
  price: string;
  /** What is paid out, fees taken off. */
  fiatAmount: string;
  processingFee: string;
  networkFee: string;
}

export type SellQuoteResult =
  | ({ ok: true; method: PayoutMethodProfile } & SellPrice)
  | { ok: false; status: number; code: string; message: string; min?: string; max?: string };

const fiatDecimals = (fiat: string) => (fiat === 'JPY' ? 0 : 2);
export const cryptoDecimals = (ticker: string): number => (ticker === 'USDT' || ticker === 'USDC' || ticker === 'XRP' ? 6 : 8);

/** A payout method's limits in one fiat currency: its USD limits at the simulator's FX rate. */
export function payoutLimits(method: PayoutMethodProfile, fiat: string): { min: BigNumber; max: BigNumber } {
  const fx = FIAT_PER_USD[fiat] ?? '1';
  const dp = fiatDecimals(fiat);
  return {
    min: new D(method.minUsd).times(fx).decimalPlaces(dp, BigNumber.ROUND_UP),
    max: new D(method.maxUsd).times(fx).decimalPlaces(dp, BigNumber.ROUND_DOWN),
  };
}

/** The limits of an asset's crypto amount: the profile's USD limits at the reference price. */
export function cryptoLimits(profile: SellProfile, ticker: string): { min: BigNumber; max: BigNumber } {
  const usd = new D(USD_PRICE[ticker] ?? '1');
  const dp = cryptoDecimals(ticker);
  return {
    min: new D(profile.cryptoMinUsd).div(usd).decimalPlaces(dp, BigNumber.ROUND_UP),
    max: new D(profile.cryptoMaxUsd).div(usd).decimalPlaces(dp, BigNumber.ROUND_DOWN),
  };
}

/**
 * What `cryptoAmount` of `ticker` pays out in `fiat` by `method`, without any limit: the price less
 * the spread, the processing and network fees taken off. The payout is null when the fees eat it all.
 */
export function sellPrice(
  profile: SellProfile,
  method: PayoutMethodProfile,
  ticker: string,
  fiat: string,
  cryptoAmount: string,
): (Omit<SellPrice, 'fiatAmount'> & { fiatAmount: string | null }) | undefined {
  const fx = FIAT_PER_USD[fiat];
  const usdPrice = USD_PRICE[ticker];
  if (fx === undefined || usdPrice === undefined) return undefined;
  const dp = fiatDecimals(fiat);
  const price = new D(usdPrice).times(fx).times(new D(1).minus(profile.spread));
  const gross = new D(cryptoAmount).times(price);
  const processingFee = gross.times(method.feeRate).plus(new D(method.feeFixedUsd).times(fx)).decimalPlaces(dp, BigNumber.ROUND_UP);
  const networkFee = new D(profile.networkFeeUsd).times(fx).decimalPlaces(dp, BigNumber.ROUND_UP);
  const payout = gross.minus(processingFee).minus(networkFee).decimalPlaces(dp, BigNumber.ROUND_DOWN);
  return {
    price: price.decimalPlaces(dp, BigNumber.ROUND_DOWN).toFixed(dp),
    fiatAmount: payout.gt(0) ? payout.toFixed(dp) : null,
    processingFee: processingFee.toFixed(dp),
    networkFee: networkFee.toFixed(dp),
  };
}

/** A sell quote: the checks of what the provider buys where (currencies, place, method, limits), then the price. */
export function sellQuote(profile: SellProfile, input: SellQuoteInput): SellQuoteResult {
  if (!profile.fiat.includes(input.fiat) || FIAT_PER_USD[input.fiat] === undefined) {
    return { ok: false, status: 422, code: 'unsupported_fiat', message: `fiat ${input.fiat} is not paid out` };
  }
  if (!profile.assets.includes(`${input.crypto}/${input.network}`) || USD_PRICE[input.crypto] === undefined) {
    return { ok: false, status: 422, code: 'unsupported_asset', message: `${input.crypto} on ${input.network} is not bought` };
  }
  if (input.country !== undefined && !profile.countries.includes(input.country)) {
    return { ok: false, status: 422, code: 'unsupported_country', message: `country ${input.country} is not served` };
  }
  const servedStates = input.country === undefined ? undefined : profile.states?.[input.country];
  if (servedStates && (input.state === undefined || !servedStates.includes(input.state))) {
    return {
      ok: false,
      status: 422,
      code: 'unsupported_state',
      message: `state ${input.state ?? '(none)'} of ${input.country} is not served`,
    };
  }
  const method = profile.payoutMethods.find((m) => m.code === input.payoutMethod && (!m.fiat || m.fiat.includes(input.fiat)));
  if (!method) {
    return { ok: false, status: 422, code: 'unsupported_payout_method', message: `payout method ${input.payoutMethod} is not offered` };
  }
  const amount = new D(input.cryptoAmount);
  const crypto = cryptoLimits(profile, input.crypto);
  if (amount.lt(crypto.min) || amount.gt(crypto.max)) {
    return {
      ok: false,
      status: 422,
      code: 'amount_out_of_range',
      message: `crypto amount must be between ${crypto.min.toFixed()} and ${crypto.max.toFixed()} ${input.crypto}`,
      min: crypto.min.toFixed(),
      max: crypto.max.toFixed(),
    };
  }
  const priced = sellPrice(profile, method, input.crypto, input.fiat, input.cryptoAmount)!;
  const dp = fiatDecimals(input.fiat);
  const payout = payoutLimits(method, input.fiat);
  if (priced.fiatAmount === null || new D(priced.fiatAmount).lt(payout.min) || new D(priced.fiatAmount).gt(payout.max)) {
    return {
      ok: false,
      status: 422,
      code: 'payout_out_of_range',
      message: `the payout must be between ${payout.min.toFixed(dp)} and ${payout.max.toFixed(dp)} ${input.fiat}`,
      min: payout.min.toFixed(dp),
      max: payout.max.toFixed(dp),
    };
  }
  return { ok: true, method, ...priced, fiatAmount: priced.fiatAmount };
}
