/**
 * Banxa's sell (off-ramp) flow to the broker's model and back (docs/providers/banxa.md, "Sell
 * (off-ramp)"). The deposit of a snapshot comes from Banxa's sell order lookup alone
 * (`GET /v2/orders/{id}`: `walletAddress`/`walletAddressTag` of an order whose `orderType` is SELL,
 * once it is ready to receive the crypto), never from a webhook body, the checkout URL or anything
 * the integrator sent.
 */
import type { CryptoCurrency, CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import { createdAtText } from '../kit/created-at';
import { customerUrl } from '../kit/url';
import type {
  CataloguePayoutMethod,
  CreateSellOrderRequest,
  ReportedDeposit,
  ReportedSellTerms,
  SellCatalogue,
  SellOrderSnapshot,
  SellQuote,
  SellQuoteRequest,
} from '../sell-types';
import { ProviderRejectedError } from '../types';
import { blockchainOfNetwork, networkOfBlockchain, sameToken } from './mappings';
import type { BanxaCountryList, BanxaCryptoList, BanxaFiatList, BanxaOrder, BanxaQuote, BanxaUsStates, BanxaWebhook } from './schemas';
import type { BanxaSellOrderRequest } from './sell-schemas';
import { BANXA_DEPOSIT_STATUSES, mapBanxaSellStatus } from './sell-status-map';

/** The payout methods Banxa's sell documentation names, onto the broker's codes (as the buy table names them). */
const BANXA_PAYOUT_METHODS: Readonly<Record<string, string>> = {
  'payid-bank-transfer': 'payid',
  'sepa-bank-transfer': 'sepa',
  pix: 'pix',
};
const BROKER_PAYOUT_METHODS = new Map(Object.entries(BANXA_PAYOUT_METHODS).map(([banxa, broker]) => [broker, banxa]));

export function brokerPayoutMethod(banxaId: string): string | undefined {
  return Object.hasOwn(BANXA_PAYOUT_METHODS, banxaId) ? BANXA_PAYOUT_METHODS[banxaId] : undefined;
}

function payoutMethodId(code: string): string {
  const id = BROKER_PAYOUT_METHODS.get(code);
  if (id === undefined) throw new ProviderRejectedError('payment_method', `Banxa has no payout method ${code}`);
  return id;
}

function sellAsset(crypto: CryptoCurrency): { crypto: string; blockchain: string } {
  const blockchain = blockchainOfNetwork(crypto.network);
  if (blockchain === undefined) throw new ProviderRejectedError('currency', `Banxa does not buy on the ${crypto.network} network`);
  return { crypto: crypto.ticker, blockchain };
}

/** Whether Banxa's order is a sell: `orderType` SELL (an order naming none is a buy). */
export const isBanxaSellOrder = (order: Pick<BanxaOrder, 'orderType'>): boolean => order.orderType?.toUpperCase() === 'SELL';

/** Query of `GET /v2/quotes/sell`: the crypto amount sold, the payout method's id. */
export function toSellQuoteParams(request: SellQuoteRequest): Record<string, string> {
  return {
    fiat: request.fiat.ticker,
    ...sellAsset(request.crypto),
    paymentMethodId: payoutMethodId(request.payoutMethod),
    cryptoAmount: request.cryptoAmount,
    externalCustomerId: request.externalUserId,
    ...(request.ip ? { ipAddress: request.ip } : {}),
  };
}

/** What of a sell quote request reaches Banxa's quote: currencies (by id), amount, payout method, customer, IP. */
export function sellQuoteKey(request: SellQuoteRequest): string {
  const { crypto, fiat, cryptoAmount, payoutMethod, externalUserId, ip } = request;
  return [crypto.id, fiat.id, cryptoAmount, payoutMethod, externalUserId, ip ?? ''].join('\u0000');
}

/**
 * A sell quote: `fiatAmount` read as the payout, fees (`processingFee`, `networkFee`, in the fiat)
 * taken off (whether Banxa's sell quote is net is UNCONFIRMED; the simulator's is). No id, no expiry.
 */
export function fromSellQuote(quote: BanxaQuote, payoutMethod: string): SellQuote {
  if (brokerPayoutMethod(quote.paymentMethodId) === undefined || quote.paymentMethodId !== payoutMethodId(payoutMethod)) {
    throw new ProviderRejectedError('rejected', `Banxa answered a sell quote for another payout method (${quote.paymentMethodId})`);
  }
  return {
    cryptoAmount: quote.cryptoAmount,
    fiatAmount: quote.fiatAmount,
    processingFee: quote.processingFee,
    networkFee: quote.networkFee,
    payoutMethod,
  };
}

/** Banxa's sell lists as a sell catalogue: assets of the broker's dictionary, fiat with a known payout method and its limits. */
export function fromSellCatalogue(
  dictionary: CurrencyDictionary,
  crypto: BanxaCryptoList,
  fiats: BanxaFiatList,
  countries: BanxaCountryList,
  usStates: BanxaUsStates,
): SellCatalogue {
  const fiatIds = new Map(dictionary.currencies.filter((c) => c.currency_type === 'fiat').map((c) => [c.ticker, c.id]));
  const cryptoByKey = new Map(
    dictionary.currencies.filter((c) => c.currency_type === 'crypto').map((c) => [`${c.ticker}/${c.network}`, c as CryptoCurrency]),
  );
  const cryptoIds = new Set<number>();
  for (const asset of crypto) {
    for (const chain of asset.blockchains) {
      const currency = cryptoByKey.get(`${asset.id}/${networkOfBlockchain(chain.id)}`);
      if (currency && sameToken(currency, chain.address)) cryptoIds.add(currency.id);
    }
  }
  const methods = new Map<string, CataloguePayoutMethod>();
  const paidOut = new Set<number>();
  for (const entry of fiats) {
    const fiatId = fiatIds.get(entry.id);
    if (fiatId === undefined) continue;
    for (const method of entry.supportedPaymentMethods) {
      const code = brokerPayoutMethod(method.id);
      if (code === undefined) continue;
      const known = methods.get(code) ?? { code, name: method.name, icon_url: null, limits: {} };
      known.limits[fiatId] = { min: decimal(method.minimum).toFixed(), max: decimal(method.maximum).toFixed() };
      methods.set(code, known);
      paidOut.add(fiatId);
    }
  }
  const states = usStates.states.map((s) => s.state_code);
  return {
    crypto: [...cryptoIds],
    fiat: [...paidOut],
    countries: countries.map((c) => (c.id === 'US' ? { code: c.id, states: [...states] } : { code: c.id })),
    payoutMethods: [...methods.values()],
  };
}

/**
 * `POST /v2/sell` from the request's own terms: the crypto amount sold, the customer's wallet (the
 * refund address) as `walletAddress`, our order id as `externalOrderId`. Of `extras` only
 * `return_url` is read (as for buys): nothing of them reaches the order's deposit.
 */
export function toSellOrderRequest(request: CreateSellOrderRequest, brokerPublicUrl: string): BanxaSellOrderRequest {
  return {
    ...sellAsset(request.crypto),
    fiat: request.fiat.ticker,
    cryptoAmount: request.cryptoAmount,
    walletAddress: request.refundWalletAddress,
    redirectUrl: request.returnUrl ?? customerUrl(request.extras, 'return_url') ?? brokerPublicUrl,
    paymentMethodId: payoutMethodId(request.payoutMethod),
    externalCustomerId: request.externalUserId,
    externalOrderId: request.orderId,
    metadata: { refundWalletAddress: request.refundWalletAddress },
  };
}

/** The refund address the broker put in the order's `metadata` at creation (Banxa returns it as-is), if any. */
export function refundAddressOf(order: Pick<BanxaOrder, 'metadata'>): string | undefined {
  const metadata = order.metadata;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const address = (metadata as Record<string, unknown>).refundWalletAddress;
  return typeof address === 'string' && address !== '' ? address : undefined;
}

/**
 * The deposit a sell order's lookup names: `walletAddress` (and `walletAddressTag`) of an order that
 * is a SELL, ready to receive the crypto or later, on the dictionary's network of its blockchain,
 * for its `cryptoAmount`. None otherwise, and none where the address is the customer's own wallet
 * (the refund address the broker sent): that would be the create body's meaning of the field.
 */
export function reportedSellDeposit(order: BanxaOrder): ReportedDeposit | undefined {
  if (!isBanxaSellOrder(order) || !BANXA_DEPOSIT_STATUSES.has(order.status)) return undefined;
  const address = order.walletAddress;
  const blockchain = order.crypto?.blockchain;
  if (!address || !blockchain) return undefined;
  const refund = refundAddressOf(order);
  if (refund !== undefined && refund.toLowerCase() === address.toLowerCase()) return undefined;
  return {
    address,
    ...(order.walletAddressTag ? { memo: order.walletAddressTag } : {}),
    network: networkOfBlockchain(blockchain) ?? blockchain,
    ...(order.cryptoAmount ? { amount: decimal(order.cryptoAmount).toFixed() } : {}),
  };
}

function cryptoId(dictionary: CurrencyDictionary, coin: string, blockchain: string, contract: string | null | undefined): number | null {
  const network = networkOfBlockchain(blockchain);
  const match = dictionary.currencies.find((c) => c.currency_type === 'crypto' && c.ticker === coin.toUpperCase() && c.network === network);
  return match && sameToken(match as CryptoCurrency, contract) ? match.id : null;
}

const fiatId = (dictionary: CurrencyDictionary, code: string) =>
  dictionary.currencies.find((c) => c.currency_type === 'fiat' && c.ticker === code.toUpperCase())?.id ?? null;

interface SellTermFields {
  coin?: string | null;
  blockchain?: string | null;
  contract?: string | null;
  cryptoAmount?: string | null;
  fiat?: string | null;
  fiatAmount?: string | null;
}

/**
 * The sell's terms a message states: the asset, the crypto amount, the payout currency and the payout
 * (`fiatAmount`, read as net of fees: UNCONFIRMED). No refund address: Banxa's lookup of a sell holds
 * its own deposit address in `walletAddress`, and `metadata` is only the broker's own words echoed.
 */
function sellTerms(dictionary: CurrencyDictionary, fields: SellTermFields): ReportedSellTerms | undefined {
  const { coin, blockchain } = fields;
  const terms: ReportedSellTerms = {
    ...(coin && blockchain ? { cryptoCurrency: cryptoId(dictionary, coin, blockchain, fields.contract) } : {}),
    ...(fields.cryptoAmount ? { cryptoAmount: decimal(fields.cryptoAmount).toFixed() } : {}),
    ...(fields.fiat ? { fiatCurrency: fiatId(dictionary, fields.fiat) } : {}),
    ...(fields.fiatAmount ? { fiatAmount: decimal(fields.fiatAmount).toFixed() } : {}),
  };
  return Object.keys(terms).length > 0 ? terms : undefined;
}

const orderSellTerms = (dictionary: CurrencyDictionary, order: BanxaOrder) =>
  sellTerms(dictionary, {
    coin: order.crypto?.id,
    blockchain: order.crypto?.blockchain,
    contract: order.crypto?.address,
    cryptoAmount: order.cryptoAmount,
    fiat: order.fiat,
    fiatAmount: order.fiatAmount,
  });

const webhookSellTerms = (dictionary: CurrencyDictionary, webhook: BanxaWebhook) =>
  sellTerms(dictionary, {
    coin: webhook.crypto_coin,
    blockchain: webhook.crypto_blockchain,
    cryptoAmount: webhook.crypto_amount,
    fiat: webhook.fiat_currency,
    fiatAmount: webhook.fiat_amount,
  });

/** Banxa writes "0" or nothing until there is a hash. */
const transactionHash = (hash: string | null | undefined) => (hash && hash !== '0' ? hash : undefined);

/** Thrown for a Banxa order that is not a sell: a buy order's report never reaches a sell order. */
export class NotASellOrderError extends ProviderRejectedError {
  constructor(banxaId: string) {
    super('not_found', `Banxa order ${banxaId} is not a SELL order`);
  }
}

/**
 * A sell order's lookup in the broker's terms, named by its `externalOrderId` (`fallbackOrderId`
 * where Banxa's answer echoes none, as the create answer may not). A buy order is refused.
 */
export function fromSellOrder(
  order: BanxaOrder,
  dictionary: CurrencyDictionary,
  fallbackOrderId = '',
  status: string = order.status,
): SellOrderSnapshot {
  if (!isBanxaSellOrder(order)) throw new NotASellOrderError(order.id);
  const mapped = mapBanxaSellStatus(status);
  const deposit = reportedSellDeposit(order);
  const reported = orderSellTerms(dictionary, order);
  const hash = transactionHash(order.transactionHash);
  return {
    orderId: order.externalOrderId ?? order.externalId ?? fallbackOrderId,
    providerOrderId: order.id,
    providerStatus: status,
    ...mapped,
    ...(deposit ? { deposit } : {}),
    ...(hash ? { transactionHash: hash } : {}),
    ...(reported ? { reported } : {}),
    ...createdAtText(order.createdAt),
  };
}

/**
 * A verified sell webhook's event: its own status (the one it announces), the deposit from the
 * order looked up by `order_id` alone, the terms of the webhook over the order's.
 */
export function fromSellWebhook(webhook: BanxaWebhook, order: BanxaOrder, dictionary: CurrencyDictionary): SellOrderSnapshot {
  const snapshot = fromSellOrder(order, dictionary, webhook.external_id ?? '', webhook.status ?? order.status);
  const reported = { ...snapshot.reported, ...webhookSellTerms(dictionary, webhook) };
  return {
    ...snapshot,
    orderId: webhook.external_id ?? snapshot.orderId,
    ...(Object.keys(reported).length > 0 ? { reported } : {}),
  };
}
