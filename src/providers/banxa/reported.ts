import type { CryptoCurrency, CurrencyDictionary } from '../../domain/currency';
import type { ReportedTerms } from '../types';
import { networkOfBlockchain, sameToken } from './mappings';
import type { BanxaOrder, BanxaWebhook } from './schemas';

/** What one Banxa message says about the order's terms, in Banxa's names. */
interface BanxaTermFields {
  walletAddress?: string | null;
  coin?: string | null;
  blockchain?: string | null;
  /** The token contract, where the message gives one. */
  contract?: string | null;
  fiat?: string | null;
  fiatAmount?: string | null;
}

/** The broker's currency of a coin on a Banxa blockchain (of that contract, for a token); null when the dictionary has none. */
function cryptoId(dictionary: CurrencyDictionary, coin: string, blockchain: string, contract: string | null | undefined): number | null {
  const network = networkOfBlockchain(blockchain);
  const match = dictionary.currencies.find((c) => c.currency_type === 'crypto' && c.ticker === coin.toUpperCase() && c.network === network);
  return match && sameToken(match as CryptoCurrency, contract) ? match.id : null;
}

const fiatId = (dictionary: CurrencyDictionary, code: string) =>
  dictionary.currencies.find((c) => c.currency_type === 'fiat' && c.ticker === code.toUpperCase())?.id ?? null;

/**
 * The terms a message states; undefined when it states none. The crypto currency needs both the
 * coin and its blockchain. Banxa's `fiatAmount` is what the customer pays, fees included (the order
 * was created for it, and its quote's `fiatAmount` holds both fees).
 */
function reportedTerms(dictionary: CurrencyDictionary, fields: BanxaTermFields): ReportedTerms | undefined {
  const { coin, blockchain } = fields;
  const terms: ReportedTerms = {
    ...(fields.walletAddress ? { walletAddress: fields.walletAddress } : {}),
    ...(coin && blockchain ? { cryptoCurrency: cryptoId(dictionary, coin, blockchain, fields.contract) } : {}),
    ...(fields.fiat ? { fiatCurrency: fiatId(dictionary, fields.fiat) } : {}),
    ...(fields.fiatAmount ? { fiatAmount: fields.fiatAmount } : {}),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}

/** An order's terms (`GET /v2/orders/{id}`, the order list, `POST /v2/buy`). */
export function orderTerms(
  dictionary: CurrencyDictionary,
  order: Pick<BanxaOrder, 'walletAddress' | 'crypto' | 'fiat' | 'fiatAmount'>,
): ReportedTerms | undefined {
  return reportedTerms(dictionary, {
    walletAddress: order.walletAddress,
    coin: order.crypto?.id,
    blockchain: order.crypto?.blockchain,
    contract: order.crypto?.address,
    fiat: order.fiat,
    fiatAmount: order.fiatAmount,
  });
}

/** A webhook's terms: v2 bodies carry the coin, its blockchain and the fiat, never the wallet. */
export function webhookTerms(dictionary: CurrencyDictionary, webhook: BanxaWebhook): ReportedTerms | undefined {
  return reportedTerms(dictionary, {
    coin: webhook.crypto_coin,
    blockchain: webhook.crypto_blockchain,
    fiat: webhook.fiat_currency,
    fiatAmount: webhook.fiat_amount,
  });
}
