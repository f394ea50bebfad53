import type { CryptoCurrency, FiatCurrency } from '../domain/currency';
import { decimal, Decimal, roundDown, roundUp } from '../domain/money';
import type { ProviderQuote } from '../providers/types';

export interface Offer {
  rate: string;
  inverted_rate: string;
  fee: string;
  amount_from: string;
  amount_expected_to: string;
  payment_methods: { payment_method_code: string; fee: string }[];
  expires_at: string;
  total_fee_amount: string;
}

/** Significant digits kept in rates, which are informative; amounts are rounded to currency precision. */
const RATE_SIGNIFICANT_DIGITS = 12;

/**
 * Turns a provider quote into the API's offer (formulas in docs/api.md, "Offers"):
 * fee = processing fee; total_fee_amount = processing + network fee (fiat, rounded up);
 * amount_expected_to = crypto amount (rounded down); rate = amount_expected_to / (amount_from - total_fee_amount);
 * inverted_rate = (amount_from - total_fee_amount) / amount_expected_to.
 */
export function toOffer(quote: ProviderQuote, fiat: FiatCurrency, crypto: CryptoCurrency, amountFrom: string, expiresAt: Date): Offer {
  const fee = decimal(roundUp(decimal(quote.processingFee), fiat.precision));
  const totalFee = decimal(roundUp(decimal(quote.processingFee).plus(quote.networkFee), fiat.precision));
  const from = decimal(amountFrom);
  const to = decimal(roundDown(decimal(quote.cryptoAmount), crypto.precision));
  // The offers service never quotes when fees eat the amount; the clamp keeps rates non-negative regardless.
  const net = Decimal.max(from.minus(totalFee), 0);
  const rate = net.gt(0) && to.gt(0) ? to.div(net) : new Decimal(0);
  const inverted = to.gt(0) ? net.div(to) : new Decimal(0);
  return {
    rate: rate.precision(RATE_SIGNIFICANT_DIGITS, Decimal.ROUND_DOWN).toFixed(),
    inverted_rate: inverted.precision(RATE_SIGNIFICANT_DIGITS, Decimal.ROUND_UP).toFixed(),
    fee: fee.toFixed(fiat.precision),
    amount_from: from.toFixed(fiat.precision),
    amount_expected_to: to.toFixed(crypto.precision),
    payment_methods: [{ payment_method_code: quote.paymentMethod, fee: fee.toFixed(fiat.precision) }],
    expires_at: expiresAt.toISOString(),
    total_fee_amount: totalFee.toFixed(fiat.precision),
  };
}
