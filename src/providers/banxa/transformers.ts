import type { CryptoCurrency, CurrencyDictionary } from '../../domain/currency';
import { decimal } from '../../domain/money';
import {
  ProviderRejectedError,
  type CataloguePaymentMethod,
  type CreateProviderOrderRequest,
  type ProviderCatalogue,
  type ProviderOrderSnapshot,
  type ProviderQuote,
  type QuoteRequest,
  type ReportedTerms,
} from '../types';
import { blockchainOfNetwork, methodCodeOf, networkOfBlockchain, paymentMethodIdOf, sameToken } from './mappings';
import { orderTerms, webhookTerms } from './reported';
import type {
  BanxaBuyOrderRequest,
  BanxaCountryList,
  BanxaCryptoList,
  BanxaFiatList,
  BanxaOrder,
  BanxaQuote,
  BanxaUsStates,
  BanxaWebhook,
} from './schemas';
import { mapBanxaStatus } from './status-map';
import { createdAtText } from '../kit/created-at';
import { customerUrl } from '../kit/url';

/** Banxa's code for the asset: its ticker and blockchain, or a refusal the caller can show. */
export function banxaAsset(crypto: CryptoCurrency): { crypto: string; blockchain: string } {
  const blockchain = blockchainOfNetwork(crypto.network);
  if (blockchain === undefined) throw new ProviderRejectedError('currency', `Banxa does not serve the ${crypto.network} network`);
  return { crypto: crypto.ticker, blockchain };
}

export function banxaPaymentMethod(code: string): string {
  const id = paymentMethodIdOf(code);
  if (id === undefined) throw new ProviderRejectedError('payment_method', `Banxa does not offer payment method ${code}`);
  return id;
}

export function toQuoteParams(request: QuoteRequest): Record<string, string> {
  return {
    fiat: request.fiat.ticker,
    ...banxaAsset(request.crypto),
    paymentMethodId: banxaPaymentMethod(request.paymentMethod),
    fiatAmount: request.fiatAmount,
    externalCustomerId: request.externalUserId,
    ...(request.ip ? { ipAddress: request.ip } : {}),
  };
}

/** Banxa quotes carry no id and no expiry ("do not cache"); fees are in the fiat currency and part of fiatAmount. */
export function fromQuote(quote: BanxaQuote, paymentMethod: string): ProviderQuote {
  return {
    fiatAmount: quote.fiatAmount,
    cryptoAmount: quote.cryptoAmount,
    processingFee: quote.processingFee,
    networkFee: quote.networkFee,
    paymentMethod,
  };
}

/**
 * A refusal of a quote explained with the limits of Banxa's fiat list, when the amount is outside
 * them; undefined when the limits are not the reason.
 */
export function limitsRejection(fiats: BanxaFiatList, request: QuoteRequest): ProviderRejectedError | undefined {
  const methodId = paymentMethodIdOf(request.paymentMethod);
  const method = fiats.find((f) => f.id === request.fiat.ticker)?.supportedPaymentMethods.find((m) => m.id === methodId);
  if (!method) return undefined;
  const amount = decimal(request.fiatAmount);
  if (amount.gte(method.minimum) && amount.lte(method.maximum)) return undefined;
  return ProviderRejectedError.outsideLimits(method.minimum, method.maximum, request.fiat);
}

/** Banxa's catalogue in the broker's terms; assets, fiat and methods the broker has no code for are left out. */
export function fromCatalogue(
  dictionary: CurrencyDictionary,
  crypto: BanxaCryptoList,
  fiats: BanxaFiatList,
  countries: BanxaCountryList,
  usStates: BanxaUsStates,
): ProviderCatalogue {
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

  const methods = new Map<string, CataloguePaymentMethod>();
  const fiat: number[] = [];
  for (const entry of fiats) {
    const fiatId = fiatIds.get(entry.id);
    if (fiatId === undefined) continue;
    fiat.push(fiatId);
    for (const method of entry.supportedPaymentMethods) {
      const code = methodCodeOf(method.id);
      if (code === undefined) continue;
      // Banxa states no fee per method (each quote has its own): the catalogue service reads one from a reference quote.
      const known = methods.get(code) ?? { code, name: method.name, icon_url: null, limits: {} };
      known.limits[fiatId] = { min: decimal(method.minimum).toFixed(), max: decimal(method.maximum).toFixed() };
      methods.set(code, known);
    }
  }

  const states = usStates.states.map((s) => s.state_code);
  return {
    fiat,
    crypto: [...cryptoIds],
    countries: countries.map((c) => (c.id === 'US' ? { code: c.id, states: [...states] } : { code: c.id })),
    paymentMethods: [...methods.values()],
  };
}

export function toBuyOrderRequest(request: CreateProviderOrderRequest, brokerPublicUrl: string): BanxaBuyOrderRequest {
  return {
    paymentMethodId: banxaPaymentMethod(request.paymentMethod),
    ...banxaAsset(request.crypto),
    fiat: request.fiat.ticker,
    fiatAmount: request.fiatAmount,
    walletAddress: request.walletAddress,
    // Where the customer lands after Banxa's checkout: the integrator's `extras.return_url`, else the broker.
    redirectUrl: customerUrl(request.extras, 'return_url') ?? brokerPublicUrl,
    externalCustomerId: request.externalUserId,
    externalOrderId: request.orderId,
  };
}

/** The partner reference an order carries, under either of the names Banxa uses for it. */
export function externalOrderIdOf(order: Pick<BanxaOrder, 'externalOrderId' | 'externalId'>): string | undefined {
  return order.externalOrderId ?? order.externalId ?? undefined;
}

/** Banxa writes "0" or nothing until the crypto transfer has a hash. */
const transactionHash = (hash: string | null | undefined) => (hash && hash !== '0' ? hash : undefined);

function snapshot(
  orderId: string,
  providerOrderId: string,
  providerStatus: string,
  cryptoAmount: string | null | undefined,
  hash: string | null | undefined,
  reported: ReportedTerms | undefined,
  createdAt: string | null | undefined,
): ProviderOrderSnapshot {
  const { status, failureReason } = mapBanxaStatus(providerStatus);
  return {
    orderId,
    providerOrderId,
    providerStatus,
    status,
    ...(failureReason ? { failureReason } : {}),
    ...(cryptoAmount ? { cryptoAmount: decimal(cryptoAmount).toFixed() } : {}),
    ...(transactionHash(hash) ? { transactionHash: transactionHash(hash) } : {}),
    ...(reported ? { reported } : {}),
    ...createdAtText(createdAt),
  };
}

/** An order as Banxa reports it, under the partner reference it names; undefined when it names none. */
export function fromOrder(order: BanxaOrder, dictionary: CurrencyDictionary): ProviderOrderSnapshot | undefined {
  return externalOrderIdOf(order) ? fromListedOrder(order, dictionary) : undefined;
}

/**
 * An order of Banxa's order list, read as a status lookup reads it (fromOrder): the same status,
 * terms and creation time. An order naming no partner reference (made for no broker order) keeps an
 * empty order id, so that the transaction list can still show it, by Banxa's id alone.
 */
export function fromListedOrder(order: BanxaOrder, dictionary: CurrencyDictionary): ProviderOrderSnapshot {
  return snapshot(
    externalOrderIdOf(order) ?? '',
    order.id,
    order.status,
    order.cryptoAmount,
    order.transactionHash,
    orderTerms(dictionary, order),
    order.createdAt,
  );
}

/**
 * The order that `orderId` created (or found it had created before), which Banxa's answer to
 * `POST /v2/buy` need not echo the reference of: its first status is pendingPayment.
 */
export function fromCreatedOrder(
  order: Omit<BanxaOrder, 'status'> & { status?: string },
  orderId: string,
  dictionary: CurrencyDictionary,
): ProviderOrderSnapshot {
  const status = order.status ?? 'pendingPayment';
  return snapshot(orderId, order.id, status, order.cryptoAmount, order.transactionHash, orderTerms(dictionary, order), order.createdAt);
}

/**
 * A webhook's event: its own status when it has one (the status it announces), the rest from the
 * order when Banxa sent only ids (`order` is then the order looked up by `order_id`); its own terms
 * over the order's.
 */
export function fromWebhook(
  webhook: BanxaWebhook,
  order: BanxaOrder | undefined,
  dictionary: CurrencyDictionary,
): ProviderOrderSnapshot | undefined {
  const orderId = webhook.external_id ?? (order && externalOrderIdOf(order));
  const status = webhook.status ?? order?.status;
  if (!orderId || !status) return undefined;
  const reported = { ...(order && orderTerms(dictionary, order)), ...webhookTerms(dictionary, webhook) };
  return snapshot(
    orderId,
    webhook.order_id,
    status,
    webhook.crypto_amount ?? order?.cryptoAmount,
    webhook.transaction_hash ?? order?.transactionHash,
    Object.keys(reported).length > 0 ? reported : undefined,
    // The order looked up, not the body: its `created_at` names no zone (docs/providers/banxa.md).
    order?.createdAt,
  );
}
