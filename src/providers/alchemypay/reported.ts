import type { CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import type { ReportedTerms } from '../types';
import { brokerCrypto, brokerFiat } from './mappings';
import type { AlchemypayOrder } from './schemas';

/** The order's terms as an Alchemy Pay order (query answer or webhook) states them; undefined when it states none. */
export function reportedTerms(dictionary: CurrencyDictionary, order: AlchemypayOrder): ReportedTerms | undefined {
  const amount = order.amount ? decimal(order.amount) : undefined;
  const terms: ReportedTerms = {
    ...(order.address ? { walletAddress: order.address } : {}),
    ...(order.crypto && order.network ? { cryptoCurrency: brokerCrypto(dictionary, order.crypto, order.network)?.id ?? null } : {}),
    ...(order.fiat ? { fiatCurrency: brokerFiat(dictionary, order.fiat)?.id ?? null } : {}),
    ...(amount && !amount.isNaN() ? { fiatAmount: amount.toFixed() } : {}),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}
