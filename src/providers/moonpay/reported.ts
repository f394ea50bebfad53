import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import type { ReportedTerms } from '../types';
import { brokerCrypto, brokerFiat } from './assets';
import type { MoonpayTransaction } from './schemas';

/**
 * What the customer is charged: MoonPay adds the fee, the partner's extra fee and the network fee to
 * `baseCurrencyAmount` when it charges (its documented transaction adds up so: 45.5 + 1.7 + 0.43 +
 * 2.37 = 50). The widget's `baseCurrencyAmount` is that total, fees included, as in the adapter's
 * quotes, so the sum is what compares with the order's amount. Unknown without the base or a fee.
 */
function chargedAmount(transaction: MoonpayTransaction): string | undefined {
  const { baseCurrencyAmount, feeAmount, extraFeeAmount, networkFeeAmount } = transaction;
  if (baseCurrencyAmount == null || feeAmount == null || networkFeeAmount == null) return undefined;
  return decimal(baseCurrencyAmount)
    .plus(feeAmount)
    .plus(extraFeeAmount ?? 0)
    .plus(networkFeeAmount)
    .toFixed();
}

/** The order's terms as a MoonPay transaction states them; undefined when it states none. */
export function reportedTerms(dictionary: CurrencyDictionary, transaction: MoonpayTransaction): ReportedTerms | undefined {
  const fiatAmount = chargedAmount(transaction);
  const terms: ReportedTerms = {
    ...(transaction.walletAddress ? { walletAddress: transaction.walletAddress } : {}),
    ...(transaction.currency ? { cryptoCurrency: brokerCrypto(dictionary, transaction.currency)?.id ?? null } : {}),
    ...(transaction.baseCurrency ? { fiatCurrency: brokerFiat(dictionary, transaction.baseCurrency.code)?.id ?? null } : {}),
    ...(fiatAmount === undefined ? {} : { fiatAmount }),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}
