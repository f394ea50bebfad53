/** The simulated Transak's public lists and quotes, in Transak's response shapes. */
import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import { iso31661, iso31662 } from 'iso-3166';
import { methodLimits, quote } from '../kit/pricing';
import type { SimulatorProfile } from '../kit/profile';
import { US_STATES } from '../kit/profile';
import { payoutLimits, sellQuote } from '../kit/sell-pricing';
import { TRANSAK_ASSETS } from './profile';
import { TRANSAK_SELL_PROFILE } from './sell-profile';

/** Countries whose residents pay in each fiat currency (Transak's `supportingCountries`). */
const FIAT_COUNTRIES: Readonly<Record<string, readonly string[]>> = {
  USD: ['US'],
  EUR: ['DE', 'FR', 'ES', 'IT', 'NL', 'IE', 'PT', 'AT', 'BE'],
  GBP: ['GB'],
  CAD: ['CA'],
  AUD: ['AU'],
  CHF: ['CH'],
  PLN: ['PL'],
  SEK: ['SE'],
  BRL: ['BR'],
  INR: ['IN'],
  TRY: ['TR'],
};

/** Listed, but not served: a country Transak shows with `isAllowed: false`. */
const REFUSED_COUNTRIES = ['CU', 'KP'];

export function countriesResponse(profile: SimulatorProfile) {
  const country = (alpha2: string, isAllowed: boolean) => {
    const iso = iso31661.find((c) => c.alpha2 === alpha2);
    const served = profile.states?.[alpha2];
    return {
      alpha2,
      alpha3: iso?.alpha3 ?? alpha2,
      name: iso?.name ?? alpha2,
      isAllowed,
      isLightKycAllowed: isAllowed && alpha2 !== 'US',
      supportedDocuments: ['passport', 'driving_licence', 'national_id'],
      ...(served
        ? {
            states: US_STATES.map((code) => ({
              code,
              name: iso31662.find((s) => s.code === `${alpha2}-${code}`)?.name ?? code,
              isAllowed: served.includes(code),
            })),
          }
        : {}),
    };
  };
  return {
    response: [...profile.countries.map((c) => country(c, true)), ...REFUSED_COUNTRIES.map((c) => country(c, false))],
  };
}

export function cryptoCurrenciesResponse() {
  return {
    response: TRANSAK_ASSETS.map((asset) => ({
      coinId: asset.name.toLowerCase().replaceAll(' ', '-'),
      uniqueId: `${asset.symbol}${asset.network}`,
      symbol: asset.symbol,
      name: asset.name,
      network: { name: asset.network },
      address: asset.address ?? null,
      isAllowed: asset.isAllowed !== false,
      isSuspended: false,
      isPayInAllowed: TRANSAK_SELL_PROFILE.assets.includes(`${asset.symbol}/${asset.network}`),
      kycCountriesNotSupported: [],
    })),
  };
}

export function fiatCurrenciesResponse(profile: SimulatorProfile) {
  return {
    response: profile.fiat.map((symbol) => ({
      symbol,
      name: symbol,
      isAllowed: true,
      isPopular: symbol === 'USD' || symbol === 'EUR' || symbol === 'GBP',
      roundOff: 2,
      supportingCountries: FIAT_COUNTRIES[symbol] ?? [],
      paymentOptions: profile.paymentMethods
        .filter((method) => !method.fiat || method.fiat.includes(symbol))
        .map((method) => {
          const { min, max } = methodLimits(method, symbol);
          const payout = TRANSAK_SELL_PROFILE.payoutMethods.find((m) => m.code === method.code && (!m.fiat || m.fiat.includes(symbol)));
          const payoutRange = payout ? payoutLimits(payout, symbol) : undefined;
          return {
            id: method.code,
            name: method.name,
            isActive: true,
            minAmount: min.toNumber(),
            maxAmount: max.toNumber(),
            ...(payoutRange ? { minAmountForPayOut: payoutRange.min.toNumber(), maxAmountForPayOut: payoutRange.max.toNumber() } : {}),
            limitCurrency: symbol,
            processingTime: method.code.includes('bank_transfer') ? '1-2 days' : 'Instant',
          };
        }),
    })),
  };
}

export interface QuoteInput {
  fiatCurrency: string;
  cryptoCurrency: string;
  network: string;
  paymentMethod: string;
  fiatAmount: string;
  country?: string;
}

export type PricedQuote =
  | { ok: true; body: { response: Record<string, unknown> }; cryptoAmount: string; totalFee: string; conversionPrice: number }
  | { ok: false; message: string };

/** A BUY quote priced by the kit in Transak's response shape, or the message of Transak's refusal. */
export function priceQuote(profile: SimulatorProfile, input: QuoteInput): PricedQuote {
  if (input.country !== undefined && !profile.countries.includes(input.country)) {
    return { ok: false, message: `Country ${input.country} is not supported` };
  }
  const result = quote(profile, {
    fiat: input.fiatCurrency,
    crypto: input.cryptoCurrency,
    network: input.network,
    fiatAmount: input.fiatAmount,
    paymentMethod: input.paymentMethod,
  });
  if (!result.ok) {
    switch (result.code) {
      case 'unsupported_fiat':
        return { ok: false, message: `Fiat currency ${input.fiatCurrency} is not supported` };
      case 'unsupported_asset':
        return { ok: false, message: `${input.cryptoCurrency} on network ${input.network} is not supported` };
      case 'unsupported_payment_method':
        return { ok: false, message: `Payment method ${input.paymentMethod} is not supported for ${input.fiatCurrency}` };
      default:
        return {
          ok: false,
          message: `Order amount out of range: minimum ${result.min ?? '?'} ${input.fiatCurrency}${result.max ? `, maximum ${result.max} ${input.fiatCurrency}` : ''}`,
        };
    }
  }
  const totalFee = new BigNumber(result.processingFee).plus(result.networkFee);
  const conversionPrice = new BigNumber(1).div(result.price).toNumber();
  return {
    ok: true,
    cryptoAmount: result.cryptoAmount,
    totalFee: totalFee.toFixed(),
    conversionPrice,
    body: {
      response: {
        quoteId: randomUUID(),
        conversionPrice,
        marketConversionPrice: new BigNumber(1).div(new BigNumber(result.price).div(new BigNumber(1).plus(profile.spread))).toNumber(),
        slippage: new BigNumber(profile.spread).times(100).toNumber(),
        fiatCurrency: input.fiatCurrency,
        cryptoCurrency: input.cryptoCurrency,
        paymentMethod: input.paymentMethod,
        fiatAmount: Number(input.fiatAmount),
        cryptoAmount: Number(result.cryptoAmount),
        isBuyOrSell: 'BUY',
        network: input.network,
        feeDecimal: totalFee.div(input.fiatAmount).decimalPlaces(6).toNumber(),
        totalFee: totalFee.toNumber(),
        feeBreakdown: [
          { name: 'Transak fee', value: Number(result.processingFee), id: 'transak_fee', ids: ['transak_fee', 'partner_fee'] },
          { name: 'Network/Exchange fee', value: Number(result.networkFee), id: 'network_fee', ids: ['network_fee'] },
        ],
        nonce: Date.now(),
      },
    },
  };
}

export interface SellQuoteInput {
  fiatCurrency: string;
  cryptoCurrency: string;
  network: string;
  paymentMethod: string;
  cryptoAmount: string;
  country?: string;
}

export type PricedSellQuote =
  | { ok: true; body: { response: Record<string, unknown> }; fiatAmount: string; totalFee: string; conversionPrice: number }
  | { ok: false; message: string };

/**
 * A SELL quote priced by the kit in Transak's shape: `fiatAmount` the payout, fees taken off;
 * `conversionPrice` crypto per unit of fiat before fees (as in the Partner API's sell order).
 */
export function priceSellQuote(input: SellQuoteInput): PricedSellQuote {
  const result = sellQuote(TRANSAK_SELL_PROFILE, {
    crypto: input.cryptoCurrency,
    network: input.network,
    cryptoAmount: input.cryptoAmount,
    fiat: input.fiatCurrency,
    payoutMethod: input.paymentMethod,
    ...(input.country === undefined ? {} : { country: input.country }),
  });
  if (!result.ok) {
    switch (result.code) {
      case 'unsupported_fiat':
        return { ok: false, message: `Fiat currency ${input.fiatCurrency} is not supported` };
      case 'unsupported_asset':
        return { ok: false, message: `${input.cryptoCurrency} on network ${input.network} is not supported` };
      case 'unsupported_country':
        return { ok: false, message: `Country ${input.country ?? ''} is not supported` };
      case 'unsupported_payout_method':
        return { ok: false, message: `Payment method ${input.paymentMethod} is not supported for ${input.fiatCurrency}` };
      default:
        return { ok: false, message: `Order amount out of range: minimum ${result.min ?? '?'}, maximum ${result.max ?? '?'}` };
    }
  }
  const totalFee = new BigNumber(result.processingFee).plus(result.networkFee);
  const conversionPrice = new BigNumber(1).div(result.price).toNumber();
  const feeBreakdown = [
    { name: 'Transak fee', value: Number(result.processingFee), id: 'transak_fee', ids: ['transak_fee', 'partner_fee'] },
    ...(new BigNumber(result.networkFee).gt(0)
      ? [{ name: 'Network/Exchange fee', value: Number(result.networkFee), id: 'network_fee', ids: ['network_fee'] }]
      : []),
  ];
  return {
    ok: true,
    fiatAmount: result.fiatAmount,
    totalFee: totalFee.toFixed(),
    conversionPrice,
    body: {
      response: {
        quoteId: randomUUID(),
        conversionPrice,
        marketConversionPrice: conversionPrice,
        slippage: new BigNumber(TRANSAK_SELL_PROFILE.spread).times(100).toNumber(),
        fiatCurrency: input.fiatCurrency,
        cryptoCurrency: input.cryptoCurrency,
        paymentMethod: input.paymentMethod,
        fiatAmount: Number(result.fiatAmount),
        cryptoAmount: Number(input.cryptoAmount),
        isBuyOrSell: 'SELL',
        network: input.network,
        feeDecimal: totalFee.div(totalFee.plus(result.fiatAmount)).decimalPlaces(6).toNumber(),
        totalFee: totalFee.toNumber(),
        feeBreakdown,
        nonce: Date.now(),
      },
    },
  };
}
