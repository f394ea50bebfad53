/**
 * Banxa's off-ramp (docs/providers/banxa.md, "Sell (off-ramp)"): a server-side `POST /v2/sell` with
 * our order id as `externalOrderId` and the customer's wallet (the refund address) as
 * `walletAddress`; the customer finishes in Banxa's checkout; at `waitingPayment` the order's lookup
 * names Banxa's deposit address. Webhooks (`order_type` SELL) carry only ids: each is verified as a
 * buy's and the order looked up. The broker may confirm the deposit transaction
 * (`POST /v2/orders/{id}/confirm`).
 */
import type { CurrencyDictionary } from '../../domain/currency';
import type { SellAdapter, SellOrderSnapshot } from '../sell-types';
import { ProviderRejectedError, WebhookVerificationError } from '../types';
import { webhookReport } from '../kit/webhook';
import type { BanxaClient } from './client';
import type { BanxaConfig } from './config';
import type { BanxaOrder } from './schemas';
import {
  fromSellCatalogue,
  fromSellOrder,
  fromSellQuote,
  fromSellWebhook,
  isBanxaSellOrder,
  NotASellOrderError,
  refundAddressOf,
  reportedSellDeposit,
  sellQuoteKey,
  toSellOrderRequest,
  toSellQuoteParams,
} from './sell-transformers';
import { banxaSellEventId, isBanxaSellWebhook, requireSellBody } from './sell-webhook';
import { parseBanxaWebhookBody, verifyBanxaWebhook } from './webhook';

/** What the buy adapter lends the sell side: its search for an order an earlier attempt created, its stale-order check. */
export type FindCreatedSell = (request: { orderId: string; externalUserId: string }) => Promise<BanxaOrder | undefined>;

/** A snapshot of an answer that is not the order's lookup: no deposit. */
function withoutDeposit(snapshot: SellOrderSnapshot): SellOrderSnapshot {
  const copy = { ...snapshot };
  delete copy.deposit;
  return copy;
}

export function createBanxaSellAdapter(
  client: BanxaClient,
  config: BanxaConfig,
  currencies: CurrencyDictionary,
  findCreated: FindCreatedSell,
  refuseStaleOrder: (order: BanxaOrder) => void,
): SellAdapter {
  /** A sell order by Banxa's id, or by our order id (Banxa's confirm call takes either; its lookup by it is UNCONFIRMED). */
  async function lookUp(orderId: string, providerOrderId: string | undefined): Promise<BanxaOrder> {
    const order = await client.getOrder(providerOrderId ?? orderId);
    if (!isBanxaSellOrder(order)) throw new NotASellOrderError(order.id);
    if (!providerOrderId && (order.externalOrderId ?? order.externalId) !== orderId) {
      throw new ProviderRejectedError('not_found', `Banxa names no sell order ${orderId}`);
    }
    return order;
  }

  return {
    async getCatalogue(signal) {
      const [crypto, fiats, countries, usStates] = await Promise.all([
        client.getSellCrypto(signal),
        client.getSellFiats(signal),
        client.getCountries(signal),
        client.getUsStates(signal),
      ]);
      return fromSellCatalogue(currencies, crypto, fiats, countries, usStates);
    },

    quoteKey: sellQuoteKey,
    async getQuote(request, signal) {
      return fromSellQuote(await client.getSellQuote(toSellQuoteParams(request), signal), request.payoutMethod);
    },

    /**
     * Server-side and once per order id: an order an earlier attempt made is reported again (its
     * status page stands for the one-time checkout URL). No deposit in the answer: Banxa names it
     * at `waitingPayment`, in the order's lookup (neither the create answer nor the order list is
     * one: a deposit they seem to name is dropped).
     */
    async createOrder(request) {
      const body = toSellOrderRequest(request, config.brokerPublicUrl);
      const existing = await findCreated(request);
      if (existing) {
        refuseStaleOrder(existing);
        const redirectUrl = existing.checkoutUrl ?? existing.orderStatusUrl;
        if (!redirectUrl) throw new ProviderRejectedError('rejected', `Banxa order ${existing.id} exists but has no customer link`);
        return { ...withoutDeposit(fromSellOrder(existing, currencies, request.orderId)), redirectUrl };
      }
      const created = await client.createSellOrder(body);
      const snapshot = fromSellOrder({ ...created, status: created.status ?? 'pendingPayment' }, currencies, request.orderId);
      return { ...withoutDeposit(snapshot), orderId: request.orderId, redirectUrl: created.checkoutUrl };
    },

    async getOrder(orderId, providerOrderId) {
      return fromSellOrder(await lookUp(orderId, providerOrderId), currencies, orderId);
    },

    isSellWebhook: isBanxaSellWebhook,

    /**
     * Verified exactly as a buy webhook (Banxa's signature); a verified body that is not a SELL
     * order's, or whose order is not one, is refused. The order is always looked up: the deposit is
     * read from that answer alone.
     */
    async parseWebhook(webhook) {
      verifyBanxaWebhook(webhook, config, config.webhookPath);
      const body = parseBanxaWebhookBody(webhook.rawBody);
      requireSellBody(body.order_type);
      const order = await client.getOrder(body.order_id);
      if (!isBanxaSellOrder(order)) throw new WebhookVerificationError(`Banxa order ${body.order_id} is not a SELL order`);
      const named = order.externalOrderId ?? order.externalId;
      if (body.external_id && named && body.external_id !== named) {
        throw new WebhookVerificationError(`Banxa order ${body.order_id} is not order ${body.external_id}`);
      }
      const snapshot = webhookReport(() => fromSellWebhook(body, order, currencies));
      return { ...snapshot, eventId: banxaSellEventId(webhook.rawBody) };
    },

    /**
     * `POST /v2/orders/{orderId}/confirm` with the deposit's hash: the source is the wallet given at
     * creation (kept in the order's `metadata`), the target the deposit address of Banxa's lookup.
     */
    async confirmDeposit(orderId, providerOrderId, transactionHash) {
      const order = await lookUp(orderId, providerOrderId);
      const deposit = reportedSellDeposit(order);
      const source = refundAddressOf(order);
      if (!deposit) throw new ProviderRejectedError('rejected', `Banxa sell order ${order.id} names no deposit address yet`);
      if (!source)
        throw new ProviderRejectedError('rejected', `Banxa sell order ${order.id} does not return the wallet it was created with`);
      await client.confirmSellOrder(order.id, {
        transactionHash,
        sourceAddress: source,
        targetAddress: deposit.address,
        ...(deposit.memo ? { targetAddressTag: deposit.memo } : {}),
      });
    },
  };
}
