import type { CurrencyDictionary } from '../../domain/currency';
import type { ReportedTerms } from '../types';
import { brokerCrypto, brokerFiat } from './assets';
import type { CoinbaseTransaction } from './schemas';

/**
 * The order's terms as a Coinbase transaction states them: the wallet, the crypto currency (symbol
 * on `purchaseNetwork`, a token by `contractAddress`), and `paymentTotal`, what the customer pays,
 * fees included, in its currency. Undefined when it states none.
 */
export function reportedTerms(dictionary: CurrencyDictionary, tx: CoinbaseTransaction): ReportedTerms | undefined {
  const terms: ReportedTerms = {
    ...(tx.walletAddress ? { walletAddress: tx.walletAddress } : {}),
    ...(tx.purchaseCurrency && tx.purchaseNetwork
      ? { cryptoCurrency: brokerCrypto(dictionary, tx.purchaseCurrency, tx.purchaseNetwork, tx.contractAddress)?.id ?? null }
      : {}),
    ...(tx.paymentTotal
      ? { fiatCurrency: brokerFiat(dictionary, tx.paymentTotal.currency)?.id ?? null, fiatAmount: tx.paymentTotal.value }
      : {}),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}
