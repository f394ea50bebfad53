/**
 * The simulated Banxa's sell (off-ramp) orders: their record, the statuses each checkout action
 * walks through, and how Banxa shows them. In a sell order's lookup `walletAddress` and
 * `walletAddressTag` are Banxa's deposit address (Hosted Checkout "Confirm a sell order"); the
 * customer's own wallet, given at creation, is never shown there.
 */
import { banxaDate, type BanxaSimStatus } from './orders';

export interface BanxaSimSellOrder {
  id: string;
  reference: number;
  externalOrderId: string | null;
  externalCustomerId: string;
  coin: string;
  blockchain: string;
  fiat: string;
  /** What is paid out, fees taken off. */
  fiatAmount: string;
  /** What the customer sends. */
  cryptoAmount: string;
  assetPrice: string;
  paymentMethodId: string;
  paymentMethodName: string;
  processingFee: string;
  networkFee: string;
  /** The customer's sending wallet (and refund address), as `POST /v2/sell` gave it. */
  customerWallet: string;
  customerWalletTag: string | null;
  /** Banxa's deposit address for this order. */
  deposit: { address: string; memo?: string };
  redirectUrl: string;
  metadata: unknown;
  status: BanxaSimStatus;
  /** The customer's deposit transaction, once sent (or confirmed by the partner). */
  transactionHash: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type BanxaSellAction = 'pay' | 'fail' | 'expire' | 'refund' | 'wrong_amount' | 'ready';
export const BANXA_SELL_ACTIONS: readonly BanxaSellAction[] = ['pay', 'fail', 'expire', 'refund', 'wrong_amount', 'ready'];
export const isBanxaSellAction = (value: unknown): value is BanxaSellAction =>
  typeof value === 'string' && (BANXA_SELL_ACTIONS as readonly string[]).includes(value);

/** What the customer may do in each status of a sell order. */
export function sellActionsOf(status: BanxaSimStatus): BanxaSellAction[] {
  switch (status) {
    case 'pendingPayment':
      return ['pay', 'wrong_amount', 'fail', 'expire', 'refund', 'ready'];
    case 'waitingPayment':
      return ['pay', 'wrong_amount', 'fail', 'expire', 'refund'];
    case 'paymentReceived':
      return ['fail', 'refund'];
    case 'expired':
      return ['pay'];
    case 'cancelled':
    case 'declined':
      return ['refund'];
    default:
      return [];
  }
}

/**
 * The statuses an action walks, the first at once: the order becomes `waitingPayment` (ready to
 * receive the crypto) before any deposit; `pay` has the crypto received and the fiat paid out;
 * `refund` has it received and returned; `fail` declines it before a deposit, cancels it after;
 * `ready` stops at `waitingPayment`: the customer is shown the deposit and sends nothing yet (the
 * partner's confirmation of a transaction then has it received: BanxaSellLifecycle.confirmed).
 */
export function sellStepsOf(action: BanxaSellAction, from: BanxaSimStatus): BanxaSimStatus[] {
  const ready: BanxaSimStatus[] = from === 'pendingPayment' ? ['waitingPayment'] : [];
  switch (action) {
    case 'ready':
      return ready;
    case 'pay':
    case 'wrong_amount':
      return [...ready, 'paymentReceived', 'complete'];
    case 'expire':
      return [...ready, 'expired'];
    case 'fail':
      return from === 'paymentReceived' ? ['cancelled'] : [...ready, 'declined'];
    case 'refund':
      if (from === 'paymentReceived' || from === 'cancelled' || from === 'declined') return ['refunded'];
      return [...ready, 'paymentReceived', 'refunded'];
  }
}

/** Before the order is ready to receive crypto, its lookup names no deposit address. */
const depositShown = (status: BanxaSimStatus) => status !== 'pendingPayment' && status !== 'extraVerification';

/** `GET /v2/orders/{id}` of a sell order (and `POST /v2/sell`'s answer, with the checkout URL added). */
export function sellOrderView(order: BanxaSimSellOrder, publicUrl: string) {
  const shown = depositShown(order.status);
  return {
    id: order.id,
    reference: order.reference,
    externalOrderId: order.externalOrderId,
    externalCustomerId: order.externalCustomerId,
    country: null,
    orderType: 'SELL',
    orderStatusUrl: `${publicUrl}/status/${order.id}`,
    status: order.status,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    crypto: { id: order.coin, blockchain: order.blockchain, address: null, network: order.blockchain },
    fiat: order.fiat,
    fiatAmount: order.fiatAmount,
    cryptoAmount: order.cryptoAmount,
    paymentMethodId: order.paymentMethodId,
    paymentMethodName: order.paymentMethodName,
    processingFee: order.processingFee,
    networkFee: order.networkFee,
    walletAddress: shown ? order.deposit.address : null,
    walletAddressTag: shown ? (order.deposit.memo ?? null) : null,
    transactionHash: order.transactionHash,
    metadata: order.metadata ?? null,
  };
}

/** An entry of `GET /v2/orders` for a sell order: the partner's reference as `externalId`, no deposit address. */
export function listedSellOrderView(order: BanxaSimSellOrder, publicUrl: string) {
  const { externalOrderId, walletAddress: _deposit, walletAddressTag: _tag, ...rest } = sellOrderView(order, publicUrl);
  return { ...rest, externalId: externalOrderId, walletAddress: null, walletAddressTag: null, partnerFee: '' };
}

/** The body of a sell order's webhooks-v2 notification: as a buy's, `order_type` SELL; no address. */
export function sellWebhookBody(order: BanxaSimSellOrder, usdPerFiat: string) {
  return {
    order_id: order.id,
    status: order.status,
    status_date: banxaDate(order.updatedAt),
    created_at: banxaDate(order.createdAt),
    updated_at: banxaDate(order.updatedAt),
    external_id: order.externalOrderId,
    order_type: 'SELL',
    crypto_coin: order.coin,
    crypto_blockchain: order.blockchain,
    crypto_amount: order.cryptoAmount,
    fiat_currency: order.fiat,
    fiat_amount: order.fiatAmount,
    asset_price: order.assetPrice,
    payment_method: order.paymentMethodId,
    processing_fee: order.processingFee,
    network_fee: order.networkFee,
    usd_exchange_rate: usdPerFiat,
    transaction_hash: order.transactionHash ?? '0',
    metadata: [],
  };
}
