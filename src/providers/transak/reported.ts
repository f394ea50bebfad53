import type { CurrencyDictionary } from '../../domain/currency';
import type { ReportedTerms } from '../types';
import { cryptoId } from './networks';
import type { TransakOrder } from './schemas';

const fiatId = (dictionary: CurrencyDictionary, symbol: string) =>
  dictionary.currencies.find((c) => c.currency_type === 'fiat' && c.ticker === symbol)?.id ?? null;

/**
 * The order's terms as a Transak order states them; undefined when it states none. The crypto
 * currency needs both `cryptoCurrency` and `network`. `fiatAmount` is what the customer pays, fees
 * included, as the widget's `fiatAmount` is; `amountPaid` is not read (what it holds before the
 * payment is in is not documented).
 */
export function reportedTerms(dictionary: CurrencyDictionary, order: TransakOrder): ReportedTerms | undefined {
  const { cryptoCurrency, network } = order;
  const terms: ReportedTerms = {
    ...(order.walletAddress ? { walletAddress: order.walletAddress } : {}),
    ...(cryptoCurrency && network
      ? { cryptoCurrency: cryptoId(dictionary, { symbol: cryptoCurrency, network, address: order.tokenContractAddress }) ?? null }
      : {}),
    ...(order.fiatCurrency ? { fiatCurrency: fiatId(dictionary, order.fiatCurrency) } : {}),
    ...(order.fiatAmount == null ? {} : { fiatAmount: order.fiatAmount }),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}
