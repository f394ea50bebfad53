/** The simulated Banxa's orders: their record, the statuses they walk through, and how Banxa shows them. */

export type BanxaSimStatus =
  | 'pendingPayment'
  | 'waitingPayment'
  | 'paymentReceived'
  | 'inProgress'
  | 'coinTransferred'
  | 'complete'
  | 'extraVerification'
  | 'cancelled'
  | 'declined'
  | 'expired'
  | 'refunded';

/** Every status the simulated Banxa gives its orders. */
const SIM_STATUSES: ReadonlySet<string> = new Set<BanxaSimStatus>([
  'pendingPayment',
  'waitingPayment',
  'paymentReceived',
  'inProgress',
  'coinTransferred',
  'complete',
  'extraVerification',
  'cancelled',
  'declined',
  'expired',
  'refunded',
]);

export const isBanxaSimStatus = (value: string): value is BanxaSimStatus => SIM_STATUSES.has(value);

export type CheckoutAction = 'pay' | 'hold' | 'fail' | 'expire' | 'refund';

export interface BanxaSimOrder {
  id: string;
  reference: number;
  externalOrderId: string | null;
  externalCustomerId: string;
  coin: string;
  blockchain: string;
  contract: string | null;
  fiat: string;
  fiatAmount: string;
  cryptoAmount: string;
  assetPrice: string;
  paymentMethodId: string;
  paymentMethodName: string;
  processingFee: string;
  networkFee: string;
  walletAddress: string;
  redirectUrl: string;
  status: BanxaSimStatus;
  transactionHash: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Where a held order was, so that `pay` resumes from there. */
  heldFrom?: BanxaSimStatus;
}

/** What `pay` walks through, one status per step, from the order's current status on. */
export const PAY_SEQUENCE: readonly BanxaSimStatus[] = ['waitingPayment', 'paymentReceived', 'inProgress', 'coinTransferred', 'complete'];

/** The statuses `pay` still walks from `from`: a late payment of an expired order starts at paymentReceived. */
export function payStepsFrom(from: BanxaSimStatus): BanxaSimStatus[] {
  if (from === 'pendingPayment') return [...PAY_SEQUENCE];
  if (from === 'expired') return PAY_SEQUENCE.slice(1);
  const index = PAY_SEQUENCE.indexOf(from);
  return index < 0 ? [] : PAY_SEQUENCE.slice(index + 1);
}

/** What the customer may do now; `walking`: a `pay` walk is under way. */
export function allowedActions(order: BanxaSimOrder, walking: boolean): CheckoutAction[] {
  switch (order.status) {
    case 'pendingPayment':
      return ['pay', 'hold', 'fail', 'expire'];
    case 'waitingPayment':
      return walking ? ['hold', 'fail'] : ['pay', 'hold', 'fail', 'expire'];
    case 'paymentReceived':
      return ['hold', 'fail', 'refund'];
    case 'inProgress':
      return ['fail', 'refund'];
    case 'extraVerification':
      return ['pay', 'fail', 'refund'];
    case 'expired':
      return ['pay'];
    case 'cancelled':
      return ['refund'];
    default:
      return [];
  }
}

/** Banxa's risk team cancels; the payment processor declines. */
export function failureStatus(order: BanxaSimOrder): BanxaSimStatus {
  return order.status === 'pendingPayment' || order.status === 'waitingPayment' ? 'declined' : 'cancelled';
}

/** "2026-01-16 04:04:21", as Banxa writes webhook dates. */
export function banxaDate(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

function common(order: BanxaSimOrder, publicUrl: string) {
  return {
    id: order.id,
    reference: order.reference,
    externalCustomerId: order.externalCustomerId,
    country: null,
    orderType: 'BUY',
    orderStatusUrl: `${publicUrl}/status/${order.id}`,
    status: order.status,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    crypto: { id: order.coin, blockchain: order.blockchain, address: order.contract, network: order.blockchain },
    fiat: order.fiat,
    fiatAmount: order.fiatAmount,
    cryptoAmount: order.cryptoAmount,
    paymentMethodId: order.paymentMethodId,
    paymentMethodName: order.paymentMethodName,
    processingFee: order.processingFee,
    networkFee: order.networkFee,
    walletAddress: order.walletAddress,
    walletAddressTag: null,
    transactionHash: order.transactionHash,
    metadata: null,
  };
}

/** `GET /v2/orders/{id}` (and `POST /v2/buy`, with the checkout URL added). */
export function orderView(order: BanxaSimOrder, publicUrl: string) {
  return { ...common(order, publicUrl), externalOrderId: order.externalOrderId };
}

/** An entry of `GET /v2/orders`, which names the partner's reference `externalId`. */
export function listedOrderView(order: BanxaSimOrder, publicUrl: string) {
  return { ...common(order, publicUrl), externalId: order.externalOrderId, partnerFee: '' };
}

/** The body of a webhooks-v2 order notification. */
export function webhookBody(order: BanxaSimOrder, usdPerFiat: string) {
  return {
    order_id: order.id,
    status: order.status,
    status_date: banxaDate(order.updatedAt),
    created_at: banxaDate(order.createdAt),
    updated_at: banxaDate(order.updatedAt),
    external_id: order.externalOrderId,
    order_type: 'BUY',
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
