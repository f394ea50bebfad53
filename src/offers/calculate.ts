import { z } from 'zod';
import type { CryptoCurrency, FiatCurrency } from '../domain/currency';
import { decimal, Decimal, roundDown, roundUp } from '../domain/money';
import type { ProviderQuote } from '../providers/types';

/** A non-negative decimal string, never a JSON number. */
const decimalString = z.string().regex(/^\d+(\.\d+)?$/);

/** One provider's offer in GET /api/on_ramp/offers (formulas in docs/api.md, "Offer arithmetic"). */
export const OfferSchema = z.object({
  rate: decimalString,
  inverted_rate: decimalString,
  fee: decimalString,
  amount_from: decimalString,
  amount_expected_to: decimalString,
  payment_methods: z.array(z.object({ payment_method_code: z.string(), fee: decimalString })),
  expires_at: z.iso.datetime(),
  total_fee_amount: decimalString,
});
export type Offer = z.infer<typeof OfferSchema>;

/** Why a provider was left out of the offers (shown with include_errors=true). */
export const OfferErrorSchema = z.object({
  error: z.object({
    code: z.enum(['timeout', 'unavailable', 'limits', 'country', 'state', 'currency', 'payment_method']),
    message: z.string(),
    min_amount: decimalString.optional(),
    max_amount: decimalString.optional(),
  }),
});
export type OfferError = z.infer<typeof OfferErrorSchema>;
export type OfferErrorBody = OfferError['error'];

/** Significant digits kept in rates, which are informative; amounts are rounded to currency precision. */
const RATE_SIGNIFICANT_DIGITS = 12;

/**
 * Turns a provider quote into the API's offer (formulas in docs/api.md, "Offers"):
 * fee = processing fee; total_fee_amount = processing + network fee (fiat, rounded up);
 * amount_expected_to = crypto amount (rounded down); rate = amount_expected_to / (amount_from - total_fee_amount);
 * inverted_rate = (amount_from - total_fee_amount) / amount_expected_to.
 */
export function toOffer(quote: ProviderQuote, fiat: FiatCurrency, crypto: CryptoCurrency, amountFrom: string, expiresAt: Date): Offer {
  const processingFee = decimal(quote.processingFee);
  const feeText = roundUp(processingFee, fiat.precision);
  const totalFee = decimal(roundUp(processingFee.plus(quote.networkFee), fiat.precision));
  const from = decimal(amountFrom);
  const to = decimal(roundDown(decimal(quote.cryptoAmount), crypto.precision));
  // The offers service never quotes when fees eat the amount; the clamp keeps rates non-negative regardless.
  const net = Decimal.max(from.minus(totalFee), 0);
  const rate = net.gt(0) && to.gt(0) ? to.div(net) : new Decimal(0);
  const inverted = to.gt(0) ? net.div(to) : new Decimal(0);
  return {
    rate: rate.precision(RATE_SIGNIFICANT_DIGITS, Decimal.ROUND_DOWN).toFixed(),
    inverted_rate: inverted.precision(RATE_SIGNIFICANT_DIGITS, Decimal.ROUND_UP).toFixed(),
    fee: feeText,
    amount_from: from.toFixed(fiat.precision),
    amount_expected_to: to.toFixed(crypto.precision),
    payment_methods: [{ payment_method_code: quote.paymentMethod, fee: feeText }],
    expires_at: expiresAt.toISOString(),
    total_fee_amount: totalFee.toFixed(fiat.precision),
  };
}
