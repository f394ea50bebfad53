import BigNumber from 'bignumber.js';
import { FIAT_PER_USD, USD_PRICE } from './market';
import type { PaymentMethodProfile, SimulatorProfile } from './profile';

const D = BigNumber.clone({ DECIMAL_PLACES: 30 });

export interface QuoteInput {
  fiat: string;
  crypto: string;
  network: string;
  fiatAmount: string;
  paymentMethod: string;
  country?: string;
  state?: string;
}

export type QuoteResult =
  | {
      ok: true;
      price: string;
      cryptoAmount: string;
      processingFee: string;
      networkFee: string;
      method: PaymentMethodProfile;
    }
  | { ok: false; status: number; code: string; message: string; min?: string; max?: string };

const fiatDecimals = (fiat: string) => (fiat === 'JPY' ? 0 : 2);

/** A payment method's limits in one fiat currency: its USD limits at the simulator's FX rate. */
export function methodLimits(method: PaymentMethodProfile, fiat: string): { min: BigNumber; max: BigNumber } {
  const fx = FIAT_PER_USD[fiat] ?? '1';
  const dp = fiatDecimals(fiat);
  return {
    min: new D(method.minUsd).times(fx).decimalPlaces(dp, BigNumber.ROUND_UP),
    max: new D(method.maxUsd).times(fx).decimalPlaces(dp, BigNumber.ROUND_DOWN),
  };
}
const cryptoDecimals = (ticker: string) => (ticker === 'USDT' || ticker === 'USDC' ? 6 : 8);

export function quote(profile: SimulatorProfile, input: QuoteInput): QuoteResult {
  const fx = FIAT_PER_USD[input.fiat];
  const usdPrice = USD_PRICE[input.crypto];
  if (!profile.fiat.includes(input.fiat) || fx === undefined) {
    return { ok: false, status: 422, code: 'unsupported_fiat', message: `fiat ${input.fiat} is not supported` };
  }
  if (!profile.assets.includes(`${input.crypto}/${input.network}`) || usdPrice === undefined) {
    return { ok: false, status: 422, code: 'unsupported_asset', message: `${input.crypto} on ${input.network} is not supported` };
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
  const method = profile.paymentMethods.find((m) => m.code === input.paymentMethod && (!m.fiat || m.fiat.includes(input.fiat)));
  if (!method) {
    return { ok: false, status: 422, code: 'unsupported_payment_method', message: `payment method ${input.paymentMethod} is not offered` };
  }
  const dp = fiatDecimals(input.fiat);
  const amount = new D(input.fiatAmount);
  const { min, max } = methodLimits(method, input.fiat);
  if (amount.lt(min) || amount.gt(max)) {
    return {
      ok: false,
      status: 422,
      code: 'amount_out_of_range',
      message: `amount must be between ${min.toFixed(dp)} and ${max.toFixed(dp)} ${input.fiat}`,
      min: min.toFixed(dp),
      max: max.toFixed(dp),
    };
  }
  const processingFee = amount.times(method.feeRate).plus(new D(method.feeFixedUsd).times(fx)).decimalPlaces(dp, BigNumber.ROUND_UP);
  const networkFee = new D(profile.networkFeeUsd).times(fx).decimalPlaces(dp, BigNumber.ROUND_UP);
  const net = amount.minus(processingFee).minus(networkFee);
  const price = new D(usdPrice).times(fx).times(new D(1).plus(profile.spread));
  const cryptoAmount = net.div(price).decimalPlaces(cryptoDecimals(input.crypto), BigNumber.ROUND_DOWN);
  if (cryptoAmount.lte(0)) {
    return { ok: false, status: 422, code: 'amount_out_of_range', message: 'amount does not cover the fees', min: min.toFixed(dp) };
  }
  return {
    ok: true,
    price: price.decimalPlaces(dp, BigNumber.ROUND_UP).toFixed(dp),
    cryptoAmount: cryptoAmount.toFixed(),
    processingFee: processingFee.toFixed(dp),
    networkFee: networkFee.toFixed(dp),
    method,
  };
}
