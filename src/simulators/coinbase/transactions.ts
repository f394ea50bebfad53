/** The simulated Coinbase's buy transactions: statuses, the customer's actions and their JSON form. */
export type CoinbaseSimStatus =
  | 'ONRAMP_TRANSACTION_STATUS_CREATED'
  | 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS'
  | 'ONRAMP_TRANSACTION_STATUS_SUCCESS'
  | 'ONRAMP_TRANSACTION_STATUS_FAILED';
export type CoinbaseSimAction = 'pay' | 'fail';

export interface SimTransaction {
  transactionId: string;
  /** The session token that opened it: the same URL opens the same transaction. */
  sessionToken: string;
  partnerUserRef: string | null;
  status: CoinbaseSimStatus;
  failureReason: string;
  createdAt: string;
  completedAt: string | null;
  country: string;
  symbol: string;
  network: string;
  contractAddress: string;
  walletAddress: string;
  fiat: string;
  /** What the customer pays, fees included. */
  paymentTotal: string;
  paymentSubtotal: string;
  coinbaseFee: string;
  networkFee: string;
  purchaseAmount: string;
  exchangeRate: string;
  paymentMethod: string;
  txHash: string;
  userId: string;
}

export interface Step {
  status: CoinbaseSimStatus;
  failureReason?: string;
}

/** Coinbase documents no hold, expiry or refund status: the customer pays, or the purchase fails. */
export const ALLOWED_ACTIONS: Readonly<Record<CoinbaseSimStatus, readonly CoinbaseSimAction[]>> = {
  ONRAMP_TRANSACTION_STATUS_CREATED: ['pay', 'fail'],
  ONRAMP_TRANSACTION_STATUS_IN_PROGRESS: ['fail'],
  ONRAMP_TRANSACTION_STATUS_SUCCESS: [],
  ONRAMP_TRANSACTION_STATUS_FAILED: [],
};

export const isSimStatus = (value: string): value is CoinbaseSimStatus => Object.hasOwn(ALLOWED_ACTIONS, value);

export const isAction = (value: unknown): value is CoinbaseSimAction => value === 'pay' || value === 'fail';

/** Coinbase's sequence for each action, from where the transaction stands. */
export function plan(action: CoinbaseSimAction, from: CoinbaseSimStatus): Step[] {
  if (action === 'pay') return [{ status: 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS' }, { status: 'ONRAMP_TRANSACTION_STATUS_SUCCESS' }];
  const failureReason = from === 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS' ? 'FAILURE_REASON_SEND_FAILED' : 'FAILURE_REASON_BUY_FAILED';
  return [{ status: 'ONRAMP_TRANSACTION_STATUS_FAILED', failureReason }];
}

const money = (value: string, currency: string) => ({ value, currency });

/** A transaction as the status API and the webhooks show it (camelCase, amounts as `{value, currency}`). */
export function transactionJson(tx: SimTransaction) {
  return {
    transactionId: tx.transactionId,
    status: tx.status,
    purchaseCurrency: tx.symbol,
    purchaseNetwork: tx.network,
    purchaseAmount: money(tx.purchaseAmount, tx.symbol),
    paymentTotal: money(tx.paymentTotal, tx.fiat),
    paymentTotalUsd: money(tx.paymentTotal, tx.fiat),
    paymentSubtotal: money(tx.paymentSubtotal, tx.fiat),
    coinbaseFee: money(tx.coinbaseFee, tx.fiat),
    networkFee: money(tx.networkFee, tx.fiat),
    exchangeRate: money(tx.exchangeRate, tx.fiat),
    txHash: tx.txHash,
    createdAt: tx.createdAt,
    completedAt: tx.completedAt ?? '0001-01-01T00:00:00Z',
    country: tx.country,
    userId: tx.userId,
    paymentMethod: tx.paymentMethod,
    walletAddress: tx.walletAddress,
    type: 'ONRAMP_TRANSACTION_TYPE_BUY_AND_SEND',
    userType: 'USER_TYPE_GUEST',
    partnerUserRef: tx.partnerUserRef ?? '',
    contractAddress: tx.contractAddress,
    failureReason: tx.failureReason,
    endPartnerName: '',
    errorCode: 'ERROR_CODE_UNSPECIFIED',
  };
}
