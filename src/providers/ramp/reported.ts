import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import type { ReportedTerms } from '../types';
import { matchesAsset } from './assets';
import type { RampPurchase } from './schemas';

/**
 * The order's terms as a Ramp purchase states them. `fiatValue` is the total the customer pays, fees
 * included (Ramp's `appliedFee` is part of it), as the widget's `fiatValue` is.
 */
export function reportedTerms(dictionary: CurrencyDictionary, purchase: RampPurchase): ReportedTerms {
  const crypto = dictionary.currencies.find((c) => matchesAsset(c, purchase.asset));
  const fiat = dictionary.currencies.find((c) => c.currency_type === 'fiat' && c.ticker === purchase.fiatCurrency);
  return {
    ...(purchase.receiverAddress ? { walletAddress: purchase.receiverAddress } : {}),
    cryptoCurrency: crypto?.id ?? null,
    fiatCurrency: fiat?.id ?? null,
    fiatAmount: decimal(purchase.fiatValue).toFixed(),
  };
}
