import { z } from 'zod';
import type { CryptoCurrency, FiatCurrency } from '../domain/currency';
import {
  addFixed,
  compareFixed,
  fixedQuotientText,
  fixedText,
  parseFixed,
  roundFixed,
  subtractFixed,
  type FixedDecimal,
} from '../domain/fixed-decimal';
import { decimal, Decimal, quotientToSignificantText, roundedDown, roundedUp } from '../domain/money';
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
    code: z.enum([
      'timeout',
      'unavailable',
      'limits',
      'country',
      'state',
      'currency',
      'payment_method',
      'ip_required',
      'provider_unavailable',
    ]),
    message: z.string(),
    min_amount: decimalString.optional(),
    max_amount: decimalString.optional(),
  }),
});
export type OfferError = z.infer<typeof OfferErrorSchema>;
export type OfferErrorBody = OfferError['error'];

/** Significant digits kept in rates, which are informative; amounts are rounded to currency precision. */
const RATE_SIGNIFICANT_DIGITS = 12;

const ZERO = new Decimal(0);

/** Above zero, without making a zero to compare with (bignumber.js copies the operand of every comparison). */
const isAboveZero = (value: Decimal) => value.isPositive() && !value.isZero();

/**
 * A provider quote's amounts, each parsed once for both the fee check and the offer: exact integers
 * (FixedDecimal) when the quote and the amount asked for are written plainly, as they nearly always
 * are, and decimals otherwise (a sign, an exponent). Both give the same offer to the digit.
 */
export type QuoteAmounts = DecimalAmounts | PlainAmounts;

export interface DecimalAmounts {
  plain?: undefined;
  crypto: Decimal;
  /** Processing plus network fee, unrounded. */
  fees: Decimal;
}

export interface PlainAmounts {
  plain: true;
  crypto: FixedDecimal;
  fees: FixedDecimal;
  /** The amount asked for. */
  from: FixedDecimal;
}

/** The quote's amounts; `amountFrom`, the amount asked for as written, allows the plain ones. */
export function quoteAmounts(quote: ProviderQuote, amountFrom?: string): QuoteAmounts {
  const from = amountFrom === undefined ? undefined : parseFixed(amountFrom);
  const crypto = from && parseFixed(quote.cryptoAmount);
  const processing = crypto && parseFixed(quote.processingFee);
  const network = processing && parseFixed(quote.networkFee);
  if (network) return { plain: true, crypto, fees: addFixed(processing, network), from };
  return { crypto: decimal(quote.cryptoAmount), fees: decimal(quote.processingFee).plus(decimal(quote.networkFee)) };
}

/** A quote whose fees eat the whole amount, or that buys nothing, is no offer. */
export function coversFees(amounts: QuoteAmounts, amountFrom: Decimal): boolean {
  if (amounts.plain) return amounts.crypto.units > 0n && compareFixed(amounts.from, amounts.fees) > 0;
  return isAboveZero(amounts.crypto) && amountFrom.gt(amounts.fees);
}

/**
 * Turns a provider quote into the API's offer (formulas in docs/api.md, "Offer arithmetic"):
 * fee = total_fee_amount = processing + network fee (fiat, rounded up), the spec's "total fee in the
 * source currency", so that offers compare alike whichever fee a provider counts the network cost in;
 * amount_expected_to = crypto amount (rounded down); rate = amount_expected_to / (amount_from - total_fee_amount);
 * inverted_rate = (amount_from - total_fee_amount) / amount_expected_to.
 */
export function toOffer(
  quote: ProviderQuote,
  fiat: FiatCurrency,
  crypto: CryptoCurrency,
  amountFrom: string | Decimal,
  expiresAt: Date,
  amounts: QuoteAmounts = quoteAmounts(quote, typeof amountFrom === 'string' ? amountFrom : undefined),
): Offer {
  if (amounts.plain) return plainOffer(quote, fiat, crypto, expiresAt, amounts);
  const totalFee = roundedUp(amounts.fees, fiat.precision);
  const fee = totalFee.toFixed(fiat.precision);
  const from = typeof amountFrom === 'string' ? decimal(amountFrom) : amountFrom;
  const to = roundedDown(amounts.crypto, crypto.precision);
  // The offers service never quotes when fees eat the amount; the clamp keeps rates non-negative regardless.
  const difference = from.minus(totalFee);
  const net = difference.isNegative() ? ZERO : difference;
  // The rates are written straight from the quotients (quotientToSignificantText): no decimal objects between.
  const buys = isAboveZero(to);
  return {
    rate: isAboveZero(net) && buys ? quotientToSignificantText(to, net, RATE_SIGNIFICANT_DIGITS, 'down') : '0',
    inverted_rate: buys ? quotientToSignificantText(net, to, RATE_SIGNIFICANT_DIGITS, 'up') : '0',
    fee,
    amount_from: from.toFixed(fiat.precision),
    amount_expected_to: to.toFixed(crypto.precision),
    payment_methods: [{ payment_method_code: quote.paymentMethod, fee }],
    expires_at: expiresAt.toISOString(),
    total_fee_amount: fee,
  };
}

/** toOffer's arithmetic on plain amounts, in exact integers: the same rules, the same digits. */
function plainOffer(quote: ProviderQuote, fiat: FiatCurrency, crypto: CryptoCurrency, expiresAt: Date, amounts: PlainAmounts): Offer {
  const totalFee = roundFixed(amounts.fees, fiat.precision, 'up');
  const fee = fixedText(totalFee, fiat.precision);
  const to = roundFixed(amounts.crypto, crypto.precision, 'down');
  // Below zero, the net is taken as zero (toOffer's clamp): no rate from it.
  const net = subtractFixed(amounts.from, totalFee);
  const netAboveZero = net.units > 0n;
  const buys = to.units > 0n;
  return {
    rate: netAboveZero && buys ? fixedQuotientText(to, net, RATE_SIGNIFICANT_DIGITS, 'down') : '0',
    inverted_rate: netAboveZero && buys ? fixedQuotientText(net, to, RATE_SIGNIFICANT_DIGITS, 'up') : '0',
    fee,
    amount_from: fixedText(amounts.from, fiat.precision),
    amount_expected_to: fixedText(to, crypto.precision),
    payment_methods: [{ payment_method_code: quote.paymentMethod, fee }],
    expires_at: expiresAt.toISOString(),
    total_fee_amount: fee,
  };
}
