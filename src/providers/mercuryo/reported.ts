import type { CurrencyDictionary } from '../../domain/currency';
import type { ReportedTerms } from '../types';
import { MERCURYO_NETWORKS } from './mapping';

/** The broker's currency IDs of what Mercuryo's messages name: fiat codes, and crypto tickers without a network. */
export interface MercuryoCurrencyIds {
  fiat(code: string): number | null;
  /**
   * Mercuryo's callbacks and lookups name the crypto by ticker only. The ID when one asset of that
   * ticker is on a network Mercuryo names; null when none is (the dictionary does not know it);
   * undefined when several are, since the message does not say which.
   */
  crypto(ticker: string): number | null | undefined;
}

export function mercuryoCurrencyIds(dictionary: CurrencyDictionary): MercuryoCurrencyIds {
  const networks = new Set(Object.values(MERCURYO_NETWORKS));
  const fiat = new Map<string, number>();
  const crypto = new Map<string, number[]>();
  for (const currency of dictionary.currencies) {
    if (currency.currency_type === 'fiat') fiat.set(currency.ticker, currency.id);
    else if (networks.has(currency.network ?? '')) crypto.set(currency.ticker, [...(crypto.get(currency.ticker) ?? []), currency.id]);
  }
  return {
    fiat: (code) => fiat.get(code.toUpperCase()) ?? null,
    crypto(ticker) {
      const ids = crypto.get(ticker.toUpperCase()) ?? [];
      if (ids.length > 1) return undefined;
      return ids[0] ?? null;
    },
  };
}

/** What one Mercuryo message says about the order's terms, in Mercuryo's names. */
export interface MercuryoTermFields {
  address?: string | null;
  currency?: string | null;
  fiatCurrency?: string | null;
  fiatAmount?: string | null;
}

/**
 * The order's terms as a Mercuryo message states them; undefined when it states none. `fiat_amount`
 * is what the customer pays, fees included (the widget's `fiat_amount` is the rate's `total`).
 */
export function reportedTerms(ids: MercuryoCurrencyIds, fields: MercuryoTermFields): ReportedTerms | undefined {
  const cryptoCurrency = fields.currency ? ids.crypto(fields.currency) : undefined;
  const terms: ReportedTerms = {
    ...(fields.address ? { walletAddress: fields.address } : {}),
    ...(cryptoCurrency === undefined ? {} : { cryptoCurrency }),
    ...(fields.fiatCurrency ? { fiatCurrency: ids.fiat(fields.fiatCurrency) } : {}),
    ...(fields.fiatAmount ? { fiatAmount: fields.fiatAmount } : {}),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}
