import type { CurrencyDictionary } from '../../domain/currency';
import type { ReportedTerms } from '../types';
import { ONRAMP_MONEY_NETWORKS } from './mapping';
import type { OnrampMoneyConfigMapping, OnrampMoneyTransaction } from './schemas';

/** The broker's currency IDs of what Onramp.money's messages name by number: fiatType, coinId and chainId. */
export interface OnrampMoneyCurrencyIds {
  /** The ID of a fiatType; null when the dictionary does not know its currency (or Onramp.money names none). */
  fiat(fiatType: number): number | null;
  /** The ID of a coin on a chain; null when the dictionary does not know the pair. */
  crypto(coinId: number, chainId: number): number | null;
  /** The fiat currency's code of a fiatType, e.g. 1 → INR. */
  fiatCode(fiatType: number): string | undefined;
}

/** The IDs through Onramp.money's own mapping (allConfigMapping), so that new ids need no release of the broker. */
export function onrampMoneyCurrencyIds(dictionary: CurrencyDictionary, mapping: OnrampMoneyConfigMapping): OnrampMoneyCurrencyIds {
  const fiatCodes = new Map(Object.entries(mapping.fiatSymbolMapping).map(([code, fiatType]) => [fiatType, code.toUpperCase()]));
  const coinTickers = new Map(Object.entries(mapping.coinSymbolMapping).map(([code, coinId]) => [coinId, code.toUpperCase()]));
  const chainNetworks = new Map<number, string>();
  for (const [symbol, chainId] of Object.entries(mapping.chainSymbolMapping)) {
    const network = ONRAMP_MONEY_NETWORKS[symbol];
    if (network !== undefined) chainNetworks.set(chainId, network);
  }
  const fiatIds = new Map(dictionary.currencies.filter((c) => c.currency_type === 'fiat').map((c) => [c.ticker, c.id]));
  const cryptoIds = new Map(
    dictionary.currencies.filter((c) => c.currency_type === 'crypto').map((c) => [`${c.ticker}/${c.network}`, c.id]),
  );
  return {
    fiatCode: (fiatType) => fiatCodes.get(fiatType),
    fiat: (fiatType) => fiatIds.get(fiatCodes.get(fiatType) ?? '') ?? null,
    crypto(coinId, chainId) {
      const ticker = coinTickers.get(coinId);
      const network = chainNetworks.get(chainId);
      return (ticker && network && cryptoIds.get(`${ticker}/${network}`)) || null;
    },
  };
}

/**
 * The order's terms as one Onramp.money transaction states them; undefined when it states none.
 * `fiatAmount` is "the amount of fiat received by onramp.money": what the customer paid, fees
 * included, as the widget's `fiatAmount` asked.
 */
export function reportedTerms(ids: OnrampMoneyCurrencyIds, tx: OnrampMoneyTransaction): ReportedTerms | undefined {
  const terms: ReportedTerms = {
    ...(tx.walletAddress ? { walletAddress: tx.walletAddress } : {}),
    ...(tx.coinId != null && tx.chainId != null ? { cryptoCurrency: ids.crypto(tx.coinId, tx.chainId) } : {}),
    ...(tx.fiatType != null ? { fiatCurrency: ids.fiat(tx.fiatType) } : {}),
    ...(tx.fiatAmount ? { fiatAmount: tx.fiatAmount } : {}),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}
