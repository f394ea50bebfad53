import type { Currency, CurrencyDictionary } from '../../domain/currency';
import type { ReportedTerms } from '../types';
import type { SandboxOrder } from './schemas';

/**
 * The order's terms as a sandbox order states them (tickers and networks as the broker's dictionary
 * names them); undefined when it states none. The crypto currency needs both ticker and network.
 */
export function reportedTerms(dictionary: CurrencyDictionary, order: SandboxOrder): ReportedTerms | undefined {
  const { crypto_currency: ticker, network, fiat_currency: fiat } = order;
  const idOf = (matches: (c: Currency) => boolean) => dictionary.currencies.find(matches)?.id ?? null;
  const terms: ReportedTerms = {
    ...(order.wallet_address ? { walletAddress: order.wallet_address } : {}),
    ...(ticker && network
      ? { cryptoCurrency: idOf((c) => c.currency_type === 'crypto' && c.ticker === ticker && c.network === network) }
      : {}),
    ...(fiat ? { fiatCurrency: idOf((c) => c.currency_type === 'fiat' && c.ticker === fiat) } : {}),
    ...(order.fiat_amount ? { fiatAmount: order.fiat_amount } : {}),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}
