/** Sandbox Pay's sell (off-ramp) protocol to the broker's model and back. */
import type { z } from 'zod';
import type { Currency, CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import { createdAtText } from '../kit/created-at';
import { formQuery } from '../kit/url';
import type {
  CreateSellOrderRequest,
  ReportedDeposit,
  ReportedSellTerms,
  SellCatalogue,
  SellOrderSnapshot,
  SellQuote,
  SellQuoteRequest,
} from '../sell-types';
import type {
  SandboxPayoutMethodsSchema,
  SandboxSellCountriesSchema,
  SandboxSellCurrenciesSchema,
  SandboxSellOrder,
  SandboxSellQuote,
} from './sell-schemas';
import { mapSandboxSellStatus } from './sell-status-map';

/** The sell quote's query: the sandbox names assets by the dictionary's own ticker and network. */
export function toSellQuoteQuery(request: SellQuoteRequest): string {
  return formQuery({
    crypto_currency: request.crypto.ticker,
    network: request.crypto.network,
    crypto_amount: request.cryptoAmount,
    fiat_currency: request.fiat.ticker,
    payout_method: request.payoutMethod,
    country: request.country,
    ...(request.state ? { state: request.state } : {}),
  });
}

/** What of a sell quote request reaches the sandbox: currencies (by id), amount, method, country and state. */
export function sellQuoteKey(request: SellQuoteRequest): string {
  const { crypto, fiat, cryptoAmount, payoutMethod, country, state } = request;
  return [crypto.id, fiat.id, cryptoAmount, payoutMethod, country, state ?? ''].join('\u0000');
}

/** The sell catalogue in the broker's terms; assets and fiat the dictionary does not know are dropped. */
export function fromSellCatalogue(
  dictionary: CurrencyDictionary,
  currencies: z.infer<typeof SandboxSellCurrenciesSchema>,
  countries: z.infer<typeof SandboxSellCountriesSchema>,
  methods: z.infer<typeof SandboxPayoutMethodsSchema>,
): SellCatalogue {
  const fiatIds = new Map(dictionary.currencies.filter((c) => c.currency_type === 'fiat').map((c) => [c.ticker, c.id]));
  const cryptoIds = new Map(
    dictionary.currencies.filter((c) => c.currency_type === 'crypto').map((c) => [`${c.ticker}/${c.network}`, c.id]),
  );
  const crypto = currencies.crypto.flatMap((c) => {
    const id = cryptoIds.get(`${c.ticker}/${c.network}`);
    return id === undefined ? [] : [{ id, min: c.min_amount, max: c.max_amount }];
  });
  return {
    crypto: crypto.map((c) => c.id),
    fiat: currencies.fiat.flatMap((f) => (fiatIds.has(f.code) ? [fiatIds.get(f.code)!] : [])),
    countries: countries.countries.map((c) => (c.states ? { code: c.code, states: [...c.states] } : { code: c.code })),
    payoutMethods: methods.payout_methods.map((m) => ({
      code: m.code,
      name: m.name,
      icon_url: null,
      fee: `${decimal(m.fee_rate).times(100).toFixed()}%`,
      limits: Object.fromEntries(
        Object.entries(m.limits).flatMap(([ticker, limit]) => {
          const id = fiatIds.get(ticker);
          return id === undefined ? [] : [[id, { min: limit.min, max: limit.max }]];
        }),
      ),
    })),
    cryptoLimits: Object.fromEntries(crypto.map((c) => [c.id, { min: c.min, max: c.max }])),
  };
}

export function fromSellQuote(quote: SandboxSellQuote): SellQuote {
  return {
    cryptoAmount: quote.crypto_amount,
    fiatAmount: quote.fiat_amount,
    processingFee: quote.processing_fee,
    networkFee: quote.network_fee,
    payoutMethod: quote.payout_method,
    providerQuoteId: quote.quote_id,
    expiresAt: new Date(quote.expires_at),
  };
}

/**
 * The sell order's creation body: only the documented fields, from the request's own terms. The
 * request's `extras` are not sent, and nothing of them can become the order's deposit.
 */
export function toSellOrderBody(request: CreateSellOrderRequest): Record<string, string> {
  return {
    partner_order_id: request.orderId,
    crypto_currency: request.crypto.ticker,
    network: request.crypto.network,
    crypto_amount: request.cryptoAmount,
    fiat_currency: request.fiat.ticker,
    payout_method: request.payoutMethod,
    country: request.country,
    ...(request.state ? { state: request.state } : {}),
    refund_address: request.refundWalletAddress,
    ...(request.returnUrl ? { return_url: request.returnUrl } : {}),
  };
}

const cryptoOf = (dictionary: CurrencyDictionary, ticker: string, network: string): Currency | undefined =>
  dictionary.currencies.find((c) => c.currency_type === 'crypto' && c.ticker === ticker && c.network === network);

/**
 * The deposit instruction as the sandbox's answer or verified event names it, on the broker's network
 * name: the dictionary's network of the crypto currency the deposit is for. A network the dictionary
 * does not know for that asset is reported as the provider wrote it, and the order refuses it.
 */
export function reportedDeposit(dictionary: CurrencyDictionary, order: SandboxSellOrder): ReportedDeposit {
  const { deposit } = order;
  const network = cryptoOf(dictionary, order.crypto_currency, deposit.network)?.network ?? deposit.network;
  return {
    address: deposit.address,
    ...(deposit.memo === undefined ? {} : { memo: deposit.memo }),
    network,
    amount: deposit.amount,
    expiresAt: deposit.expires_at,
  };
}

/**
 * The sell order's terms as a sandbox sell order states them: the crypto amount that arrived once a
 * deposit has (the order's before), the payout computed from it, and the refund address.
 */
export function reportedSellTerms(dictionary: CurrencyDictionary, order: SandboxSellOrder): ReportedSellTerms {
  const fiat = dictionary.currencies.find((c) => c.currency_type === 'fiat' && c.ticker === order.fiat_currency);
  return {
    cryptoCurrency: cryptoOf(dictionary, order.crypto_currency, order.network)?.id ?? null,
    cryptoAmount: order.received_crypto_amount ?? order.crypto_amount,
    fiatCurrency: fiat?.id ?? null,
    fiatAmount: order.fiat_amount,
    refundWalletAddress: order.refund_address,
  };
}

export function fromSellOrder(order: SandboxSellOrder, dictionary: CurrencyDictionary): SellOrderSnapshot {
  const mapped = mapSandboxSellStatus(order.status);
  return {
    orderId: order.partner_order_id,
    providerOrderId: order.id,
    providerStatus: order.status,
    status: mapped.status,
    ...(mapped.status === 'failed' ? { failureReason: order.failure_reason ?? mapped.failureReason } : {}),
    // Why the crypto went back (a failed payout, a deposit on another network), where the sandbox says.
    ...(mapped.status === 'refunded' && order.failure_reason ? { failureReason: order.failure_reason } : {}),
    deposit: reportedDeposit(dictionary, order),
    ...(order.deposit_tx_hash ? { transactionHash: order.deposit_tx_hash } : {}),
    reported: reportedSellTerms(dictionary, order),
    ...createdAtText(order.created_at),
  };
}
