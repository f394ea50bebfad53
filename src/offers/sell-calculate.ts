/**
 * A provider's sell quote as the API's sell offer (GET /api/off_ramp/offers; formulas in
 * docs/api.md, "Sell offer arithmetic"). The customer sends `amount_from` of the crypto currency and
 * receives `amount_expected_to` of the fiat currency; every fee is in the fiat currency and already
 * taken off the payout.
 */
import { z } from 'zod';
import type { CryptoCurrency, FiatCurrency } from '../domain/currency';
import { decimal, type Decimal, quotientToSignificantText, roundedDown, roundedUp } from '../domain/money';
import type { SellQuote } from '../providers/sell-types';

/** A non-negative decimal string, never a JSON number. */
const decimalString = z.string().regex(/^\d+(\.\d+)?$/);

const RangeSchema = z.object({ min: decimalString, max: decimalString });

/** One provider's sell offer. */
export const SellOfferSchema = z.object({
  /** Fiat per one crypto unit, before fees: (amount_expected_to + total_fee_amount) / amount_from. */
  rate: decimalString,
  /** Crypto per one fiat unit, before fees: amount_from / (amount_expected_to + total_fee_amount). */
  inverted_rate: decimalString,
  /** The crypto amount the customer sends, at the crypto currency's precision. */
  amount_from: decimalString,
  /** The fiat amount paid out, fees taken off, rounded down to the fiat currency's precision. */
  amount_expected_to: decimalString,
  /** Every fee, in the fiat currency, rounded up: the same as total_fee_amount. */
  fee: decimalString,
  total_fee_amount: decimalString,
  /** The fees by kind, in the fiat currency; they add up to total_fee_amount. */
  fees: z.object({ processing: decimalString, network: decimalString }),
  payout_methods: z.array(z.object({ payout_method_code: z.string(), fee: decimalString })),
  /** Where the provider sets them: the crypto amounts it buys, and the payout method's payout limits in the fiat currency. */
  limits: z.object({ amount_from: RangeSchema.optional(), amount_expected_to: RangeSchema.optional() }).optional(),
  expires_at: z.iso.datetime(),
});
export type SellOffer = z.infer<typeof SellOfferSchema>;

/** Why a provider was left out of the sell offers (shown with include_errors=true): the buy side's codes, a payout method for a payment method. */
export const SellOfferErrorSchema = z.object({
  error: z.object({
    code: z.enum([
      'timeout',
      'unavailable',
      'limits',
      'country',
      'state',
      'currency',
      'payout_method',
      'ip_required',
      'provider_unavailable',
    ]),
    message: z.string(),
    /** With `limits` from the crypto limits: the crypto amounts the provider buys. */
    min_amount: decimalString.optional(),
    max_amount: decimalString.optional(),
  }),
});
export type SellOfferError = z.infer<typeof SellOfferErrorSchema>;
export type SellOfferErrorBody = SellOfferError['error'];

/** Significant digits kept in rates, which are informative; amounts are rounded to currency precision. */
const RATE_SIGNIFICANT_DIGITS = 12;

/** The quote's payout and fees as decimals: what the offer and the checks before it read. */
export interface SellAmounts {
  /** The payout, fees taken off, rounded down to the fiat currency's precision. */
  payout: Decimal;
  /** Processing plus network fee, rounded up. */
  totalFee: Decimal;
  /** The network fee rounded up, at most totalFee. */
  networkFee: Decimal;
}

export function sellAmounts(quote: SellQuote, fiat: FiatCurrency): SellAmounts {
  const processing = decimal(quote.processingFee);
  const network = decimal(quote.networkFee);
  const totalFee = roundedUp(processing.plus(network), fiat.precision);
  const networkRounded = roundedUp(network, fiat.precision);
  return {
    payout: roundedDown(decimal(quote.fiatAmount), fiat.precision),
    totalFee,
    networkFee: networkRounded.gt(totalFee) ? totalFee : networkRounded,
  };
}

/** A quote that pays nothing out, or whose fees are negative, is no offer. */
export function paysOut(amounts: SellAmounts): boolean {
  return amounts.payout.isPositive() && !amounts.payout.isZero() && !amounts.totalFee.isNegative() && !amounts.networkFee.isNegative();
}

/**
 * The sell offer of a quote. What the customer receives is never overstated: the payout is rounded
 * down and the fees up, each to the fiat currency's precision; gross = payout + fees, so that
 * payout = gross − fees exactly; rate = gross / amount_from (rounded down), inverted_rate =
 * amount_from / gross (rounded up), both to 12 significant digits.
 */
export function toSellOffer(
  quote: SellQuote,
  crypto: CryptoCurrency,
  fiat: FiatCurrency,
  amountFrom: string | Decimal,
  expiresAt: Date,
  amounts: SellAmounts = sellAmounts(quote, fiat),
): SellOffer {
  const from = typeof amountFrom === 'string' ? decimal(amountFrom) : amountFrom;
  const gross = amounts.payout.plus(amounts.totalFee);
  const sells = from.isPositive() && !from.isZero() && gross.isPositive() && !gross.isZero();
  const fee = amounts.totalFee.toFixed(fiat.precision);
  return {
    rate: sells ? quotientToSignificantText(gross, from, RATE_SIGNIFICANT_DIGITS, 'down') : '0',
    inverted_rate: sells ? quotientToSignificantText(from, gross, RATE_SIGNIFICANT_DIGITS, 'up') : '0',
    amount_from: from.toFixed(crypto.precision),
    amount_expected_to: amounts.payout.toFixed(fiat.precision),
    fee,
    total_fee_amount: fee,
    fees: {
      processing: amounts.totalFee.minus(amounts.networkFee).toFixed(fiat.precision),
      network: amounts.networkFee.toFixed(fiat.precision),
    },
    payout_methods: [{ payout_method_code: quote.payoutMethod, fee }],
    expires_at: expiresAt.toISOString(),
  };
}
